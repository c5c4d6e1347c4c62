"""Source facts the trusted side reads with `ast` before (and after) a run."""

from __future__ import annotations

import pytest

from app.grading.code.static import analyse

LOSS_AFTER_BLOCK = """
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        predictions = model(x, training=True)
    loss = loss_fn(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    return loss
"""
NUMPY_IN_BLOCK = """
import numpy as np
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, np.asarray(model(x, training=True)))
        other = model(x).numpy()
    return tape.gradient(loss, model.trainable_variables)
"""
CLEAN = """
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape(persistent=True) as tape:
        loss = loss_fn(y, model(x, training=True))
    grads, _ = tf.clip_by_global_norm(tape.gradient(loss, model.trainable_variables), 1.0)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""


def test_analyse_reports_syntax_error_with_line() -> None:
    facts = analyse("def train_step(model)\n    return 1\n")
    assert (facts.syntax_error != "", facts.syntax_line) == (True, 1)


@pytest.mark.parametrize(
    ("source", "field", "lines"),
    [
        (LOSS_AFTER_BLOCK, "loss_outside_tape", [7]),
        (NUMPY_IN_BLOCK, "numpy_in_tape", [7, 8]),
        (CLEAN, "loss_outside_tape", []),
        (CLEAN, "numpy_in_tape", []),
        (CLEAN, "apply_lines", [8]),
    ],
)
def test_analyse_finds_lines(source: str, field: str, lines: list[int]) -> None:
    assert getattr(analyse(source), field) == lines


def test_analyse_collects_called_names_and_persistence() -> None:
    facts = analyse(CLEAN)
    assert {"clip_by_global_norm", "apply_gradients", "gradient"} <= facts.calls
    assert facts.persistent_tape and facts.defines == ("train_step",)


NUMPY_PATHS = """
import numpy as np
import tensorflow as tf

def make_accumulating_step(model, optimizer, loss_fn, accum_steps):
    def step(x, y):
        with tf.GradientTape() as tape:
            x = np.asarray(x, dtype=np.float32)
            labels = np.array(y)
            outputs = model(x, training=True)
            probs = np.exp(outputs)
            loss = loss_fn(labels, probs)
            print(float(np.mean(loss.numpy())))
        return loss
    return step

def input_gradients(model, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = np.square(x)
    return tape.gradient(z, x)
"""


def test_numpy_on_path_counts_only_values_derived_from_the_model_or_a_watched_tensor() -> None:
    facts = analyse(NUMPY_PATHS)
    assert facts.numpy_in_tape == [8, 9, 11, 13, 20]
    assert facts.numpy_on_path == [11, 13, 20]  # outputs, the loss, the watched x
