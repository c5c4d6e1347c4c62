# expect: correct
import tensorflow as tf


def input_gradients(model, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        outputs = model(x)
    return tape.gradient(outputs, x)
