# expect: correct
import tensorflow as tf


def second_derivative(f, x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        dy_dx = tape.gradient(y, x)
    d2 = tape.gradient(dy_dx, x)
    del tape
    return d2
