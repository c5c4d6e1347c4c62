# expect: correct
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape(persistent=True) as tape:
        predictions = model(x, training=True)
        loss = loss_fn(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    del tape
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
