"""Answers that earned credit without a correct step, or a vague message, in round 15 (real
sandbox, JSON API).

- Candidate code runs in the worker's interpreter and rebound what the worker reads while it
  observes: `_RUNS_EAGERLY` of the worker's scenarios module (the "tf.function" scenario ran
  eagerly: a step calling `.numpy()` was graded correct), `Registry.add` of its probes (no
  records: a flagged mistake was graded correct), or `__call__` of tf.function's class (the
  Python function ran instead of the graph). The worker now seals its own code before a job
  and checks it after every scenario (worker/seal.py), and a "tf.function" step that meets
  eager execution raises.
- A correct step compiled with `@tf.function(jit_compile=True)` was graded partial: XLA draws
  Keras Dropout's masks with another generator than TF's kernels. The scenario models' dropout
  is now keyed by each row's values with integer arithmetic (worker/models.py KeyedDropout).
- A loss summed over the batch (or multiplied by its size) read "the returned value differs";
  it now says the loss is N times a correct step's and why that matters (loss-summed).
- `unconnected_gradients=tf.UnconnectedGradients.ZERO` with the loss computed after the tape
  raised TF's own "'str' object has no attribute '_type_enum'" (Keras 3 variables), shown as
  it was; it now names the loss outside the tape and what the error means.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import graded, sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import sys
import tensorflow as tf
{top}

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
{inside}
    grads = tape.gradient(loss, {variables})
    optimizer.apply_gradients(zip(grads, {variables}))
    return loss
"""
WORKER_MODULE = """for name, module in list(sys.modules.items()):
    if name.endswith(".{module}") and hasattr(module, "{attr}"):
        {patch}
"""
NUMPY = "    print(float(loss.numpy()))"  # fails in a graph, as the prompt says
PATCHES = {
    # the "tf.function" scenario ran eagerly: .numpy() worked, graded correct
    "scenarios._RUNS_EAGERLY": (
        WORKER_MODULE.format(module="scenarios", attr="_RUNS_EAGERLY",
                             patch="module._RUNS_EAGERLY = lambda: False")
        + "tf.config.run_functions_eagerly(True)",
        NUMPY,
        "model.trainable_variables",
    ),
    # no probe records: gradients against model.variables (a flag, partial) graded correct
    "probes.Registry.add": (
        WORKER_MODULE.format(module="probes", attr="Registry",
                             patch="module.Registry.add = lambda self, kind, record: None"),
        "",
        "model.variables",
    ),
}  # fmt: skip
BYPASS = (
    "type(tf.function(lambda: None)).__call__ = (\n"
    "    lambda self, *args, **kwargs: self.python_function(*args, **kwargs))"
)
ZERO_LOSS_OUTSIDE = """import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        predictions = model(x, training=True)
    loss = loss_fn(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables,
                          unconnected_gradients=tf.UnconnectedGradients.ZERO)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "round15")


@pytest.mark.parametrize("patched", sorted(PATCHES))
def test_rebinding_the_checkers_own_code_is_tampering(api: TestClient, patched: str) -> None:
    top, inside, variables = PATCHES[patched]
    body = graded(api, STEP.format(top=top, inside=inside, variables=variables))
    assert body["verdict"] == "incorrect", body
    message = body["feedback"][0]["message"]
    assert message.startswith("Your code changed the checker's own code while it ran"), body


def test_step_run_as_python_by_a_patched_tf_function_is_not_correct(api: TestClient) -> None:
    source = STEP.format(top=BYPASS, inside=NUMPY, variables="model.trainable_variables")
    body = graded(api, source)
    assert body["verdict"] != "correct", body
    assert "graph-mode-switched-off" in body["misconceptions"], body


def test_zero_for_unconnected_sources_names_the_loss_outside_the_tape(api: TestClient) -> None:
    body = graded(api, ZERO_LOSS_OUTSIDE)
    assert body["verdict"] == "incorrect", body
    first, second = (item["message"] for item in body["feedback"][:2])
    assert first.startswith("The loss was computed after the `with tf.GradientTape()` block")
    assert "unconnected_gradients=tf.UnconnectedGradients.ZERO" in second, body
    assert "'_type_enum'" not in first, body


def test_correct_step_compiled_with_xla_is_correct(api: TestClient) -> None:
    source = STEP.format(top="", inside="", variables="model.trainable_variables")
    source = source.replace("def train_step", "@tf.function(jit_compile=True)\ndef train_step")
    body = graded(api, source)
    assert (body["verdict"], body["score"]) == ("correct", 1.0), body


def test_loss_multiplied_by_the_batch_size_is_named_with_its_factor(api: TestClient) -> None:
    inside = "        loss = loss * tf.cast(tf.shape(x)[0], tf.float32)"
    body = graded(api, STEP.format(top="", inside=inside, variables="model.trainable_variables"))
    assert body["verdict"] == "incorrect", body
    message = body["feedback"][0]["message"]
    assert message.startswith("The returned loss is 8 times a correct step's on every call"), body


FORGER = """import json
import os
import sys

import keras
import tensorflow as tf


def eager_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    print(float(loss.numpy()))  # fails in a graph
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def train_step(model, optimizer, loss_fn, x, y):
    frame = sys._getframe()
    while not isinstance(frame.f_locals.get("job"), dict):
        frame = frame.f_back
    job, fd = frame.f_locals["job"], frame.f_locals.get("fd", 3)
    found = lambda suffix, attr: next(
        m for n, m in list(sys.modules.items()) if n.endswith(suffix) and hasattr(m, attr))
    runner, scenarios = found(".runner", "run_scenario"), found(".scenarios", "CONTRACTS")
    results = []
    for scenario in scenarios.CONTRACTS[job["contract"]].scenarios:
        keras.utils.set_random_seed(scenario.seed)
        plan = scenario.build()
        plan.start = lambda fn: fn
        results.append(runner.run_scenario(plan, scenario, eager_step))
    runs = [{"name": s["name"], "load_error": None, "scenarios": results} for s in job["sources"]]
    os.write(fd, (json.dumps({"runs": runs, "run_s": 1.0}) + "\\n").encode())
    os._exit(0)
"""


def test_whole_report_forged_by_the_answer_is_not_correct(api: TestClient) -> None:
    """Round 16: the "tf.function" scenario's numbers come from a replay of the graphs the
    step traced, in a worker that never ran the answer's Python (worker/replay.py); the
    forged report carries none, so that scenario failed."""
    body = graded(api, FORGER)
    assert body["verdict"] != "correct", body
    assert "run again, on fresh state, by a process your code never ran in" in str(body), body
