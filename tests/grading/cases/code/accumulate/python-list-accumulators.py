# expect: correct
import tensorflow as tf


def make_accumulating_step(model, optimizer, loss_fn, accum_steps):
    state = {"calls": 0}
    sums = [tf.Variable(tf.zeros(v.shape, v.dtype), trainable=False) for v in model.trainable_variables]

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        for total, grad in zip(sums, tape.gradient(loss, model.trainable_variables)):
            total.assign_add(grad)
        state["calls"] += 1
        if state["calls"] == accum_steps:
            optimizer.apply_gradients([(s / accum_steps, v) for s, v in zip(sums, model.trainable_variables)])
            for total in sums:
                total.assign(tf.zeros_like(total))
            state["calls"] = 0
        return loss

    return step
