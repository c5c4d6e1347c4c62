# expect: correct
import tensorflow as tf


@tf.function
def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads, norm = tf.clip_by_global_norm(tape.gradient(loss, model.trainable_variables), 1.0)
    optimizer.apply(grads, model.trainable_variables)
    return loss
