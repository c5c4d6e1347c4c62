"""Every checking scenario earns its place: a mistake it exists to catch fails in it.

One row per scenario of each built-in contract: the scenario's id and a submission with the
mistake that scenario was built to see (BatchNorm and Dropout for training=True, a frozen
layer for model.variables, small gradients for clipping by hand, tf.function for NumPy and
variable creation, a BatchNorm generator and a dropout discriminator for the GAN's flags).
The test asserts the scenario is among the failed ones. Another test keeps the table complete:
a scenario added to the worker without a row here fails it. Graded in batches (see
app/grading/code/corpus.py), so the table costs one worker per contract, not one per row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.grading.code.corpus import Submission, grade_all
from app.grading.results import GradeResult
from tests.sandbox.conftest import SandboxGrader, load_question

pytestmark = pytest.mark.sandbox

STEP = """
import keras
import numpy as np
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, {forward})
{extra}    grads = tape.gradient(loss, {sources})
{clip}    optimizer.apply_gradients(zip(grads, {sources}))
    return loss
"""


def step(
    forward: str = "model(x, training=True)",
    extra: str = "",
    sources: str = "model.trainable_variables",
    clip: str = "",
) -> str:
    return STEP.format(forward=forward, extra=extra, sources=sources, clip=clip)


CLIP = "    grads, _ = tf.clip_by_global_norm(grads, 1.0)\n"
DENSE_WEIGHTS = (
    "[w for layer in model.layers if isinstance(layer, keras.layers.Dense)"
    " for w in (layer.kernel, layer.bias)]"
)
NORMALISED = "    grads = [g / tf.linalg.global_norm(grads) for g in grads]\n"

ACCUMULATE = """
import tensorflow as tf


def make_accumulating_step(model, optimizer, loss_fn, accum_steps):
    sums = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]
    calls = [0]

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, {forward})
        for total, grad in zip(sums, tape.gradient(loss, model.trainable_variables)):
            total.assign_add(grad)
        calls[0] += 1
        if calls[0] % accum_steps == 0:
            mean = [s / {divisor} for s in sums]
            optimizer.apply_gradients(zip(mean, model.trainable_variables))
            for total in sums:
                total.assign(tf.zeros_like(total))
        return loss

    return step
"""

GAN = """
import keras
import tensorflow as tf

bce = keras.losses.BinaryCrossentropy(from_logits=True)


def gan_train_step(generator, discriminator, g_optimizer, d_optimizer, noise, real):
    {extra}
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = generator(noise{g_flag})
        real_logits = discriminator(real, training=True)
        fake_logits = discriminator(fake, training=True)
        d_loss = bce(tf.ones_like(real_logits), real_logits) + bce(
            tf.zeros_like(fake_logits), fake_logits
        )
        g_loss = bce(tf.ones_like(fake_logits), fake_logits)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    g_optimizer.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_optimizer.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    return g_loss, d_loss
"""

SECOND = """
import tensorflow as tf


def second_derivative(f, x):
    {extra}
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    return {result}
"""

INPUT = """
import tensorflow as tf


def input_gradients(model, x):
    {extra}
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(model(x, training={training}))
    return tape.gradient(total, x)
"""

# (question, scenario id, why it exists, a submission with that mistake)
ROWS = [
    ("train-step", "crossentropy-adam-eager", "training flag: BatchNorm + Dropout",
     step(forward="model(x)")),
    ("train-step", "mse-sgd-momentum-mlp-tf-function", "graph mode: .numpy() has no value",
     step(extra="    print(float(loss.numpy()))\n")),
    ("train-step", "crossentropy-sgd-frozen-layer-eager", "a frozen layer must not move",
     step(sources=DENSE_WEIGHTS)),
    ("clip-step", "mse-sgd-large-gradients-frozen-layer-eager", "large gradients: no clip",
     step()),
    ("clip-step", "crossentropy-sgd-momentum-tf-function", "graph mode: variable per call",
     step(extra="    tf.Variable(0.0)\n", clip=CLIP)),
    ("clip-step", "mse-sgd-small-gradients-eager", "small gradients: clip leaves them",
     step(clip=NORMALISED)),
    ("accumulate", "mse-sgd-2-micro-batches", "the mean, not the sum",
     ACCUMULATE.format(forward="model(x, training=True)", divisor="1")),
    ("accumulate", "crossentropy-adam-3-micro-batches", "training flag: BatchNorm + Dropout",
     ACCUMULATE.format(forward="model(x)", divisor="accum_steps")),
    ("gan-step", "adam-different-rates-eager", "BatchNorm generator: training flag",
     GAN.format(extra="", g_flag="")),
    ("gan-step", "sgd-tf-function", "graph mode: variable per call",
     GAN.format(extra="tf.Variable(1.0)", g_flag=", training=True")),
    ("second-derivative", "cubic-eager", "the second, not the first derivative",
     SECOND.format(extra="", result="dy_dx")),
    ("second-derivative", "sin-times-x-tf-function", "graph mode: .numpy() has no value",
     SECOND.format(extra="x.numpy()", result="outer.gradient(dy_dx, x)")),
    ("input-gradient", "batchnorm-dropout-eager", "inference behaviour: training=False",
     INPUT.format(extra="", training="True")),
    ("input-gradient", "mlp-tf-function", "graph mode: .numpy() has no value",
     INPUT.format(extra="x.numpy()", training="False")),
]  # fmt: skip
QUESTIONS = sorted({row[0] for row in ROWS})


@pytest.fixture(scope="module")
def graded(sandbox: SandboxGrader) -> dict[tuple[str, str], GradeResult]:
    found: dict[tuple[str, str], GradeResult] = {}
    for qid in QUESTIONS:
        rows = [row for row in ROWS if row[0] == qid]
        items = [_submission(qid, scenario, source) for _, scenario, _, source in rows]
        results = sandbox.loop.run(grade_all(sandbox.grader, load_question(qid), items))
        found.update({(qid, item.path.name): results[item.path] for item in items})
    return found


def _submission(qid: str, scenario: str, source: str) -> Submission:
    return Submission(Path(qid) / scenario, qid, "wrong", scenario, "", "", source)


@pytest.mark.parametrize(
    ("qid", "scenario", "why", "source"), ROWS, ids=[f"{r[0]}/{r[1]}" for r in ROWS]
)
def test_scenario_catches_its_mistake(
    qid: str, scenario: str, why: str, source: str, graded: dict[tuple[str, str], GradeResult]
) -> None:
    result = graded[(qid, scenario)]
    assert result.verdict != "correct", result
    assert scenario in result.details["failed_scenarios"], (why, result)


@pytest.mark.parametrize("qid", QUESTIONS)
def test_every_scenario_has_a_row(qid: str, sandbox: SandboxGrader) -> None:
    reference = sandbox.reference(load_question(qid))
    ids = {scenario["id"] for scenario in reference.run["scenarios"]}
    assert ids == {row[1] for row in ROWS if row[0] == qid}
