"""Seeded models, batches and optimizers for the checking scenarios.

Every builder is called right after `keras.utils.set_random_seed`, so the reference run and the
candidate run (in different processes) start from bit-identical weights, batches and dropout
seeds. The models are tiny on purpose: a scenario must take milliseconds, not seconds.
"""

from __future__ import annotations

from typing import Any

import keras
import numpy as np


def batch(seed: int, rows: int, cols: int, scale: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(rows, cols)) * scale).astype("float32")


def labels(seed: int, rows: int, classes: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, classes, size=(rows,)).astype("int32")


def targets(seed: int, rows: int, scale: float = 1.0) -> np.ndarray:
    return (np.random.default_rng(seed).normal(size=(rows, 1)) * scale).astype("float32")


def with_bn_dropout(inputs: int, outputs: int, rate: float = 0.25) -> Any:
    """Dense -> BatchNorm -> Dropout -> Dense: training=True changes both output and state."""
    return keras.Sequential(
        [
            keras.Input((inputs,)),
            keras.layers.Dense(8, activation="relu"),
            keras.layers.BatchNormalization(),
            KeyedDropout(rate),
            keras.layers.Dense(outputs),
        ]
    )


def rescaled_bn_dropout(inputs: int, outputs: int, rate: float) -> Any:
    """with_bn_dropout behind a weightless Rescaling layer: the first op on the input reads no
    watched variable, so the tape records nothing about x unless x itself is watched before
    the forward pass (watching it afterwards only works by accident on a Dense first layer)."""
    inner = with_bn_dropout(inputs, outputs, rate)
    return keras.Sequential([keras.Input((inputs,)), keras.layers.Rescaling(0.5), *inner.layers])


def frozen_first_layer(inputs: int, outputs: int) -> Any:
    """with_bn_dropout whose first Dense is frozen: its kernel and bias are non-trainable, so
    an answer that trains `model.variables` or every layer's weights would move them."""
    model = with_bn_dropout(inputs, outputs)
    model.layers[0].trainable = False
    return model


def generator(noise: int, hidden: int, outputs: int) -> Any:
    """A DCGAN-style generator in miniature: Dense -> BatchNorm -> ReLU -> Dense.

    The first Dense has no bias, as in DCGAN: BatchNorm subtracts the batch mean right after
    it, so a bias there has a gradient of exactly zero, and what tape.gradient returns for it
    is rounding noise, which Adam scales up to a full learning-rate step. A correct step whose
    ops ran in another order (its own @tf.function) moved that bias differently from the
    reference and was graded partial (round 14)."""
    return keras.Sequential(
        [
            keras.Input((noise,)),
            keras.layers.Dense(hidden, use_bias=False),
            keras.layers.BatchNormalization(),
            keras.layers.ReLU(),
            keras.layers.Dense(outputs),
        ]
    )


def discriminator(inputs: int, hidden: int, rate: float = 0.3) -> Any:
    """A DCGAN-style discriminator in miniature: dropout, Dense + LeakyReLU, one logit."""
    return keras.Sequential(
        [
            keras.Input((inputs,)),
            KeyedDropout(rate),
            keras.layers.Dense(hidden, activation="leaky_relu"),
            keras.layers.Dense(1),
        ]
    )


def mlp(inputs: int, hidden: int, outputs: int, activation: str = "tanh") -> Any:
    return keras.Sequential(
        [
            keras.Input((inputs,)),
            keras.layers.Dense(hidden, activation=activation),
            keras.layers.Dense(outputs),
        ]
    )


class KeyedDropout(keras.layers.Layer):
    """Dropout whose mask is a hash of each row's values instead of a random stream.

    Keras's Dropout draws its mask from a seed that advances on every call, so calling the
    discriminator on `fake` before `real`, or once on their concatenation, would change the
    masks and fail a correct GAN step. Here a row's mask depends only on that row, so every
    correct call order agrees with the reference, while training=False (no mask, no scaling)
    still changes the output exactly as Dropout does.
    """

    def __init__(self, rate: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs: Any, training: Any = None) -> Any:
        if not training:
            return inputs
        ops = keras.ops
        columns = ops.arange(ops.shape(inputs)[-1], dtype="int32")
        # Integer arithmetic only (round 15): a sin-based hash differed between TF's kernels
        # and XLA's (a step compiled with jit_compile=True), whose sin is not bit-identical.
        key = ops.cast(ops.sum(ops.round(inputs * 64.0), axis=-1, keepdims=True), "int32")
        mixed = ops.mod(ops.mod(key, 65_521) * 7_919 + columns * 104_729 + 12_345, 65_521)
        keep = ops.stop_gradient(ops.cast(mixed % 1_000 >= int(self.rate * 1_000), inputs.dtype))
        return inputs * keep / (1.0 - self.rate)


def sgd(rate: float, momentum: float = 0.0) -> Any:
    return keras.optimizers.SGD(learning_rate=rate, momentum=momentum)


def adam(rate: float) -> Any:
    return keras.optimizers.Adam(learning_rate=rate)


def mse() -> Any:
    return keras.losses.MeanSquaredError()


def sparse_ce() -> Any:
    return keras.losses.SparseCategoricalCrossentropy(from_logits=True)
