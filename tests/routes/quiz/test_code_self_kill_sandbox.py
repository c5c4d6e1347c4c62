"""A code answer that kills, signals or ends its own sandbox worker earns nothing, in words
(real sandbox, through the JSON API).

A forked worker is pid 1 of its own pid namespace and the kernel ignores a signal an init
sends itself: `os.kill(os.getpid(), 9)` after a correct step did nothing and the answer was
graded correct (round 12, P1). Exiting with 137 read as a kill from outside (run again, then
`error`), and so did closing the report channel and running on. Each case is the correct step
with one line added before `return loss`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import os, signal, time
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    {line}
    return loss
"""
SIGNALLED = "tried to signal or end its own process"
CASES = [
    ("os.kill(os.getpid(), signal.SIGKILL)", SIGNALLED),
    ("signal.raise_signal(signal.SIGTERM)", SIGNALLED),
    ("os.kill(0, signal.SIGKILL)", SIGNALLED),
    ("os._exit(137)", SIGNALLED),
    ("os._exit(0)", "ended the checker's process"),
    ("os.close(3); time.sleep(9)", "closed or replaced the checker's report channel"),
    # round 13: the step returns; the worker finds its channel gone (was "exited with status")
    ("os.close(3)", "closed or replaced the checker's report channel"),
    ("os.dup2(os.open('/dev/null', os.O_WRONLY), 3)", "closed or replaced the checker's report"),
]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "self-kill")


def _graded(api: TestClient, source: str) -> dict[str, Any]:
    quiz = api.post("/api/sessions", json={"question_ids": ["mini-code"]}).json()
    reply = api.post(f"/api/sessions/{quiz['id']}/answers", json={"answer": source})
    assert reply.status_code == 201, reply.text
    return dict(reply.json()["attempt"])


def test_correct_step_still_grades_correct(api: TestClient) -> None:
    assert _graded(api, STEP.format(line="pass"))["verdict"] == "correct"


@pytest.mark.parametrize(("line", "words"), CASES, ids=[line for line, _ in CASES])
def test_step_that_ends_its_own_worker_earns_nothing(
    api: TestClient, line: str, words: str
) -> None:
    attempt = _graded(api, STEP.format(line=line))
    assert (attempt["verdict"], attempt["score"]) == ("incorrect", 0.0), attempt
    assert words in attempt["feedback"][0]["message"], attempt["feedback"]
