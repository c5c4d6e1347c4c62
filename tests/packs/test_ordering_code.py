"""Ordering questions made of code lines really work when put in their keyed order.

An ordering question says "these lines, in this order, are a correct training step".
This test joins each such question's items in the keyed order, wraps them in a small
harness (a model, a loss, an optimizer, and calls that print an observable result) and
runs them for real with TensorFlow, in one subprocess shared by all of them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from app.packs.schema import Ordering
from tests.packs.snippet_runner import Outcome, run_snippets

CORE_PACK = Path(__file__).resolve().parents[2] / "questions" / "gradient-tape"

_SETUP = """
import keras
import tensorflow as tf
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                          keras.layers.BatchNormalization(), keras.layers.Dropout(0.2),
                          keras.layers.Dense(1)])
loss_fn = keras.losses.MeanSquaredError()
optimizer = keras.optimizers.Adam(1e-3)
x, y = tf.random.normal((8, 3)), tf.random.normal((8, 1))
"""


@dataclass(frozen=True)
class Harness:
    """Code around the keyed lines; `indent` nests them (e.g. in a function or class)."""

    before: str
    after: str
    expected: Outcome
    indent: int = 0


HARNESSES: dict[str, Harness] = {
    "order-watch-constant-input": Harness(
        "import tensorflow as tf", "", Outcome("tf.Tensor(6.0, shape=(), dtype=float32)")
    ),
    "order-basic-train-step": Harness(
        _SETUP, "train_step(x, y)\nprint(int(optimizer.iterations))", Outcome("1")
    ),
    "order-compiled-clipped-step": Harness(
        _SETUP, "train_step(x, y)\ntrain_step(x, y)\nprint(int(optimizer.iterations))", Outcome("2")
    ),
    "order-custom-fit-train-step": Harness(
        _SETUP + "class Custom(keras.Model):",
        # The question leaves out the metric bookkeeping; fit() needs the method to return logs.
        "        return self.compute_metrics(x, y, y_pred)\n"
        "inputs = keras.Input((3,))\n"
        "custom = Custom(inputs, keras.layers.Dense(1)(inputs))\n"
        "custom.compile(optimizer='sgd', loss='mse')\n"
        "custom.fit(x, y, epochs=3, verbose=0)\n"
        "print(int(custom.optimizer.iterations))",
        Outcome("3"),
        indent=4,
    ),
    "order-accumulation-micro-step": Harness(
        _SETUP
        + "accum_steps = 2\n"
        + "accumulators = [tf.Variable(tf.zeros_like(v), trainable=False)"
        + " for v in model.trainable_variables]\n"
        + "def accumulate_micro_batch(i, x, y):",
        "for i in range(4):\n"
        "    accumulate_micro_batch(i, x, y)\n"
        "print(int(optimizer.iterations), sum(float(tf.reduce_sum(abs(a))) for a in accumulators))",
        Outcome("2 0.0"),
        indent=4,
    ),
    "order-accumulation-scaled-loop": Harness(
        _SETUP + "accum_steps = 2\nmicro_batches = [(x, y)] * 4",
        "print(int(optimizer.iterations))",
        Outcome("2"),
    ),
    "order-nested-second-derivative": Harness(
        "import tensorflow as tf", "print(dy_dx.numpy(), d2y_dx2.numpy())", Outcome("27.0 18.0")
    ),
    "order-gradient-penalty-nested": Harness(
        _SETUP
        + "critic = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation='tanh'),"
        + " keras.layers.Dense(1)])\n"
        + "critic_optimizer = keras.optimizers.Adam(1e-3)\n"
        + "interp = tf.random.normal((5, 3))",
        "print(all(g is not None for g in grads), int(critic_optimizer.iterations))",
        Outcome("True 1"),
    ),
}


def _code_orderings() -> dict[str, Ordering]:
    found = {}
    for path in sorted(CORE_PACK.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("id") in HARNESSES:
            found[data["id"]] = Ordering.model_validate(data)
    return found


QUESTIONS = _code_orderings()


def _program(question: Ordering, harness: Harness) -> str:
    lines = "\n".join(item.text for item in question.items)
    body = textwrap.indent(lines, " " * harness.indent)
    return f"{harness.before}\n{body}\n{harness.after}\n"


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    programs = {qid: _program(q, HARNESSES[qid]) for qid, q in QUESTIONS.items()}
    return run_snippets(programs, tmp_path_factory.mktemp("orderings"))


def test_every_harness_has_its_question() -> None:
    assert sorted(QUESTIONS) == sorted(HARNESSES)


@pytest.mark.parametrize("question_id", sorted(HARNESSES))
def test_keyed_order_runs_as_claimed(question_id: str, outcomes: dict[str, Outcome]) -> None:
    actual, expected = outcomes[question_id], HARNESSES[question_id].expected
    assert actual == expected, f"ran as {actual}, expected {expected}"
