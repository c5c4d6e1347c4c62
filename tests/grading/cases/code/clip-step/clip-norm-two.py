# expect: wrong-result
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads, _ = tf.clip_by_global_norm(tape.gradient(loss, model.trainable_variables), 2.0)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
