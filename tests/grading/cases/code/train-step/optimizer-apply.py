# expect: correct
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True)) + sum(model.losses)
    optimizer.apply(tape.gradient(loss, model.trainable_variables), model.trainable_variables)
    return loss
