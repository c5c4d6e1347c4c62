"""Answers that arm the kernel to signal their own worker later, or that take the step only
when the checker looks at what they returned, earn nothing (real sandbox, JSON API).

Round 13: with exec-spawned workers (fork server off) a step that armed a timer with SIGKILL
(`timer_create`) or asked for SIGKILL on I/O (`F_SETSIG`) ended its worker as if killed from
outside: run on three fresh workers, then `503 grader_interrupted`; SIGALRM (`setitimer`)
read as "crashed the Python process". A forked worker is an init, which the kernel spares
such signals, so only the exec path showed it. The seccomp filter now refuses the syscalls
that arm them (EPERM): the step raises, and is graded `incorrect` with the exception.
Separately, a step that returned an object of its own class whose `numpy()` took the real step
earned `partial` credit: the checker ran that method while it observed the call.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import ctypes, fcntl, os, signal, time
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
{lines}
    time.sleep(0.5)
    return loss
"""
TIMER_SIGKILL = """\
    class Event(ctypes.Structure):  # struct sigevent: SIGEV_SIGNAL with SIGKILL
        _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                    ("notify", ctypes.c_int), ("pad", ctypes.c_byte * 48)]
    libc, timer = ctypes.CDLL(None, use_errno=True), ctypes.c_void_p()
    if libc.timer_create(1, ctypes.byref(Event(None, 9, 0)), ctypes.byref(timer)):
        raise OSError(ctypes.get_errno(), "timer_create refused")
    due = (ctypes.c_long * 4)(0, 0, 0, 1_000_000)
    libc.timer_settime(timer, 0, due, None)"""
IO_SIGKILL = """\
    r, w = os.pipe()
    fcntl.fcntl(r, fcntl.F_SETOWN, os.getpid())
    fcntl.fcntl(r, 10, 9)  # F_SETSIG: SIGKILL when r is readable
    fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)
    os.write(w, b"x")"""
ALARM = "    signal.setitimer(signal.ITIMER_REAL, 0.001)"
CASES = {"timer-sigkill": TIMER_SIGKILL, "io-sigkill": IO_SIGKILL, "itimer-sigalrm": ALARM}
LAZY = """import tensorflow as tf

class Loss:  # looks like a tensor; the step is taken when the checker reads it
    is_tensor_like = True
    dtype = tf.float32

    def __init__(self, *args):
        self.args = args

    def numpy(self):
        model, optimizer, loss_fn, x, y = self.args
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss.numpy()

def train_step(model, optimizer, loss_fn, x, y):
    return Loss(model, optimizer, loss_fn, x, y)
"""


def _client(tmp_path_factory: pytest.TempPathFactory, *, fork: bool) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "delayed", sandbox_fork_server=fork)


@pytest.fixture(scope="module")
def exec_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Exec-spawned workers (fork server off): where the delayed signals ended the worker.
    The forked side of each case is in tests/sandbox/test_hostile.py."""
    yield from _client(tmp_path_factory, fork=False)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from _client(tmp_path_factory, fork=True)


def _graded(api: TestClient, source: str) -> tuple[int, dict[str, Any]]:
    reply = api.post("/api/questions/mini-code/grade", json={"answer": source})
    return reply.status_code, reply.json()


@pytest.mark.parametrize("case", sorted(CASES))
def test_step_that_arms_a_signal_for_later_is_incorrect(exec_api: TestClient, case: str) -> None:
    status, body = _graded(exec_api, STEP.format(lines=CASES[case]))
    assert (status, body.get("verdict"), body.get("score")) == (200, "incorrect", 0.0), body
    message = body["feedback"][0]["message"]
    assert "Operation not permitted" in message or "refused" in message, message


def test_step_taken_when_the_returned_object_is_read_earns_nothing(api: TestClient) -> None:
    status, body = _graded(api, LAZY)
    assert (status, body.get("verdict"), body.get("score")) == (200, "incorrect", 0.0), body


@pytest.mark.parametrize(
    ("header", "words"),
    [("async def", "defined with async def"), ("def", "a generator (its body contains yield)")],
)
def test_step_whose_body_never_runs_says_why(api: TestClient, header: str, words: str) -> None:
    source = STEP.format(lines="    yield loss" if header == "def" else "    pass")
    status, body = _graded(api, source.replace("def train_step", f"{header} train_step"))
    assert (status, body.get("verdict")) == (200, "incorrect"), body
    message = body["feedback"][0]["message"]
    assert message.startswith(f"train_step is {words}: calling it returns"), message
    assert "GradientTape" not in message
