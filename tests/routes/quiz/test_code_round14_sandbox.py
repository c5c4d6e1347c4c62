"""Answers that broke the API or the verdict in round 14 (real sandbox, JSON API).

- An exception message or class name holding a lone surrogate (`"\\ud800"`) made the API's
  JSON encoder fail: `500` instead of a verdict. NUL, terminal escapes and bidirectional
  overrides reached the feedback as they were. Every string from the sandbox is now made
  readable as it arrives (app/grading/code/readable.py).
- An exception whose own `__str__` raised or recursed left the worker's report incomplete:
  "malformed report ... writes to the checker's channels", which it never did.
- `tf.config.run_functions_eagerly(True)`, or `tf.function` rebound to the identity, ran the
  "tf.function" scenario eagerly: a step calling `.numpy()` was graded correct.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import tensorflow as tf
{top}

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
{inside}
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""
UNSAFE = "\\ud800 \\x00 \\x1b[2J \\u202e <b>"  # as source text: the escapes are Python's
RAISES = {
    "message": f"    raise ValueError('bad {UNSAFE} value')",
    # a class name cannot hold a surrogate or NUL; its message carries those
    "class name": "    raise type('E\\x1b[2J \\u202e <b>', (Exception,), {})('\\ud800 \\x00')",
}
UNREADABLE = {
    "recursing __str__": "class Boom(Exception):\n    def __str__(self):\n        return str(self)",
    "raising __str__": "class Boom(Exception):\n    def __str__(self):\n        raise KeyError(1)",
}
NO_GRAPH = {
    "run_functions_eagerly": ("tf.config.run_functions_eagerly(True)", "graph-mode-switched-off"),
    "tf.function rebound": ("tf.function = lambda f=None, **kw: f", "numpy-in-tf-function"),
}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "round14")


def _graded(api: TestClient, source: str) -> tuple[int, dict[str, Any]]:
    reply = api.post("/api/questions/mini-code/grade", json={"answer": source})
    assert reply.content.decode("utf-8"), reply  # well-formed UTF-8, whatever the code said
    return reply.status_code, reply.json()


@pytest.mark.parametrize("where", sorted(RAISES))
def test_unsafe_characters_in_an_exception_come_back_escaped(api: TestClient, where: str) -> None:
    status, body = _graded(api, STEP.format(top="", inside=RAISES[where]))
    assert (status, body.get("verdict")) == (200, "incorrect"), body
    message = body["feedback"][0]["message"]
    for escaped in ("\\ud800", "\\x00", "\\x1b[2J", "\\u202e"):
        assert escaped in message, message
    text = json.dumps(body, ensure_ascii=False)
    assert not any(ch in text for ch in ("\x00", "\x1b", "\u202e")), message


@pytest.mark.parametrize("how", sorted(UNREADABLE))
def test_exception_whose_message_cannot_be_read_is_named(api: TestClient, how: str) -> None:
    source = STEP.format(top=UNREADABLE[how], inside="    raise Boom()")
    status, body = _graded(api, source)
    assert (status, body.get("verdict")) == (200, "incorrect"), body
    message = body["feedback"][0]["message"]
    assert message.startswith("Call 1 raised Boom: <the exception's message could not be read")
    assert "malformed" not in message and "tampering" not in body["misconceptions"]


@pytest.mark.parametrize("how", sorted(NO_GRAPH))
def test_step_that_turns_tf_function_off_is_not_correct(api: TestClient, how: str) -> None:
    top, tag = NO_GRAPH[how]
    inside = "        print(float(loss.numpy()))"  # fails in a graph, as the prompt says
    status, body = _graded(api, STEP.format(top=top, inside=inside))
    assert status == 200 and body.get("verdict") != "correct", body
    assert tag in body["misconceptions"], body


RETURNS = {
    # a 5 MB dict key is cut like a type name: the answer's real mistake is shown
    "huge dict key": ("{'A' * 5_000_000: loss}", "got a dict with keys ['AAAA"),
    # 16 x 16 tensors of 4,096 values: over the report's 1 MiB once described
    "huge nested return": ("[[tf.zeros(4096)] * 16] * 16", "too large for the checker"),
}


@pytest.mark.parametrize("what", sorted(RETURNS))
def test_huge_return_value_is_named_not_called_tampering(api: TestClient, what: str) -> None:
    returned, words = RETURNS[what]
    source = STEP.format(top="", inside="").replace("return loss", f"return {returned}")
    status, body = _graded(api, source)
    assert (status, body.get("verdict")) == (200, "incorrect"), body
    assert words in body["feedback"][0]["message"], body
    assert "tampering" not in body["misconceptions"], body
