"""Round 16 (real sandbox, JSON API, both kinds of worker).

- The "tf.function" scenarios' numbers come from a replay of the graphs the step traced, run
  on hidden state by a worker that never ran the answer's Python (worker/replay.py): correct
  steps written the ways candidates write them stay correct, whatever they return, capture or
  print; a graph that only replays numbers computed at trace time in the answer's process
  (which saw other weights) earns nothing there. Round 15's whole-report forger is in
  test_code_round15_sandbox.py.
- SIGXFSZ or SIGPIPE reset to their defaults read as Python's bare "[Errno 27] File too large"
  (forked workers, pid 1: the kernel's signal is dropped and the write fails) or "crashed the
  Python process (signal SIGXFSZ)" (exec workers); both now name the limit or the pipe.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import graded, sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import os, signal
import keras
import tensorflow as tf
{top}

{decorator}
def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
{inside}
    return {returned}
"""
APPLY = "    optimizer.apply(grads, model.trainable_weights)"
CORRECT = {
    # a step counter and a constant of the answer's own, captured by the graph
    "own-variable-and-constant": dict(
        top="calls = tf.Variable(0, dtype=tf.int64)\none = tf.constant(1.0)", decorator="",
        inside=f"{APPLY}\n    calls.assign_add(1)", returned="loss * one"),
    # its own tf.function, tf.print and clipping by a huge global norm
    "tf-function-print-clip": dict(
        top="", decorator="@tf.function",
        inside="    grads, _ = tf.clip_by_global_norm(grads, 1e9)\n    tf.print('loss', loss)\n"
               + APPLY, returned="loss"),
    "apply-gradients-zip": dict(
        top="", decorator="",
        inside="    optimizer.apply_gradients(zip(grads, model.trainable_weights))",
        returned="loss"),
}  # fmt: skip
# At trace time the step finds the scenario's batches in the checker's frames, takes both
# correct steps eagerly (in a thread of its own), puts the weights back, and leaves in the
# graph only the numbers it got: right on the state its process saw, so graded correct before
# the replay; the replay runs it on hidden weights and inputs, where those numbers are wrong.
TRACE_TIME = """import sys
import threading
import tensorflow as tf

def correct(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

def precompute(calls, model, optimizer, results):  # eager: a thread of its own
    state = model.variables + optimizer.variables
    saved = [v.numpy() for v in state]
    for args in calls:
        loss = correct(*args).numpy()
        results.append(([v.numpy() for v in model.trainable_variables], loss))
    for variable, value in zip(state, saved):
        variable.assign(value)

def train_step(model, optimizer, loss_fn, x, y):
    if tf.executing_eagerly():
        return correct(model, optimizer, loss_fn, x, y)
    frame = sys._getframe()
    while "plan" not in frame.f_locals:
        frame = frame.f_back
    results = []
    worker = threading.Thread(target=precompute,
                              args=(frame.f_locals["plan"].calls, model, optimizer, results))
    worker.start()
    worker.join()

    def replay(k):
        def assign():
            for variable, value in zip(model.trainable_variables, results[k][0]):
                variable.assign(value)
            optimizer.iterations.assign_add(1)
            return tf.constant(results[k][1])
        return assign

    return tf.cond(optimizer.iterations == 0, replay(0), replay(1))
"""
XFSZ = """    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    with open("/tmp/big", "wb") as out:
        out.write(b"x" * (2 * 1024 * 1024))"""
PIPE = """    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    r, w = os.pipe()
    os.close(r)
    os.write(w, b"x")"""


def _client(tmp_path_factory: pytest.TempPathFactory, *, fork: bool) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "round16", sandbox_fork_server=fork)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from _client(tmp_path_factory, fork=True)


@pytest.fixture(scope="module")
def exec_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from _client(tmp_path_factory, fork=False)


@pytest.mark.parametrize("fork", [True, False])
@pytest.mark.parametrize("case", sorted(CORRECT))
def test_correct_step_is_correct_after_its_graph_is_replayed(
    api: TestClient, exec_api: TestClient, case: str, fork: bool
) -> None:
    body = graded(api if fork else exec_api, STEP.format(**CORRECT[case]))
    assert (body["verdict"], body["score"]) == ("correct", 1.0), body


def test_graph_of_numbers_computed_at_trace_time_fails_its_scenario(api: TestClient) -> None:
    body = graded(api, TRACE_TIME)
    assert body["verdict"] != "correct", body
    assert "tf-function" in " ".join(body["details"]["failed_scenarios"]), body


@pytest.mark.parametrize("fork", [True, False])
@pytest.mark.parametrize(
    ("lines", "words"),
    [(XFSZ, "file size limit (1 MiB)"), (PIPE, "a pipe whose reading end was closed")],
)
def test_reset_sigxfsz_or_sigpipe_is_named(
    api: TestClient, exec_api: TestClient, fork: bool, lines: str, words: str
) -> None:
    source = STEP.format(top="", decorator="", inside=f"{lines}\n{APPLY}", returned="loss")
    body = graded(api if fork else exec_api, source)
    assert (body["verdict"], body["score"]) == ("incorrect", 0.0), body
    message = body["feedback"][0]["message"]
    assert words in message, message
    assert "Errno" not in message, message
