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
            keras.layers.Dropout(rate),
            keras.layers.Dense(outputs),
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


def sgd(rate: float, momentum: float = 0.0) -> Any:
    return keras.optimizers.SGD(learning_rate=rate, momentum=momentum)


def adam(rate: float) -> Any:
    return keras.optimizers.Adam(learning_rate=rate)


def mse() -> Any:
    return keras.losses.MeanSquaredError()


def sparse_ce() -> Any:
    return keras.losses.SparseCategoricalCrossentropy(from_logits=True)
