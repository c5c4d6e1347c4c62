# expect: model-variables
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.variables)
    pairs = [(g, v) for g, v in zip(grads, model.variables) if g is not None]
    optimizer.apply_gradients(pairs)
    return loss
