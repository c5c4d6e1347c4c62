# expect: correct
import keras
import tensorflow as tf

bce = keras.losses.BinaryCrossentropy(from_logits=True)


def gan_train_step(generator, discriminator, g_optimizer, d_optimizer, noise, real):
    with tf.GradientTape(persistent=True) as tape:
        fake_logits = discriminator(generator(noise, training=True), training=True)
        real_logits = discriminator(real, training=True)
        g_loss = bce(tf.ones_like(fake_logits), fake_logits)
        d_loss = bce(tf.ones_like(real_logits), real_logits) + bce(tf.zeros_like(fake_logits), fake_logits)
    g_optimizer.apply_gradients(zip(tape.gradient(g_loss, generator.trainable_variables), generator.trainable_variables))
    d_optimizer.apply_gradients(zip(tape.gradient(d_loss, discriminator.trainable_variables), discriminator.trainable_variables))
    del tape
    return g_loss, d_loss
