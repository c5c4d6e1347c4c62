"""A contract declared by a pack (`checker:`) grades through the real sandbox, end to end.

The instructor's setup builds the inputs inside the sandbox; the reference passes, a known-wrong
solution is reported with its tag, and a setup that attacks the host is refused as a pack error.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.packs.schema import Code
from tests.sandbox.conftest import SandboxGrader

pytestmark = pytest.mark.sandbox

SETUP = """\
import tensorflow as tf

def make_inputs(seed):
    tf.random.set_seed(seed)
    return {"x": tf.random.normal([4, 3])}
"""
REFERENCE = """\
import tensorflow as tf

def scaled_gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**2) * 0.5
    return tape.gradient(y, x)
"""
UNWATCHED = REFERENCE.replace("        tape.watch(x)\n", "")
HOSTILE = """\
import tensorflow as tf

def make_inputs(seed):
    return {"x": tf.constant([float(len(open("/etc/shadow").read()))])}
"""


def declared(setup: str) -> Code:
    data: dict[str, Any] = {
        "id": "scale-grad-question",
        "type": "code",
        "title": "Scaled gradient",
        "prompt": "Return the gradient of half the sum of squares of a constant x.",
        "difficulty": "easy",
        "topic": "tape-recording",
        "section": "what-a-tape-is",
        "hints": ["Constants are not watched."],
        "explanation": "A constant is only recorded when watched.",
        "contract": "scale-grad",
        "function": "scaled_gradient(x)",
        "checker": {"setup": setup, "seeds": [0, 1], "tf_function": True},
        "reference": REFERENCE,
        "wrong": [{"tag": "unwatched-constant", "label": "No tape.watch", "code": UNWATCHED}],
    }
    return Code.model_validate(data)


def test_grade_declared_contract_accepts_reference(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(declared(SETUP), REFERENCE.replace("x**2", "tf.square(x)"))
    assert result.verdict == "correct", result.feedback
    assert len(result.details["scenarios"]) == 4  # two seeds, eager and tf.function


def test_grade_declared_contract_reports_known_wrong_tag(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(declared(SETUP), UNWATCHED)
    assert result.verdict == "incorrect"
    assert "unwatched-constant" in result.misconceptions


def test_grade_declared_contract_with_hostile_setup_is_pack_error(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(declared(HOSTILE), REFERENCE)
    assert result.verdict == "error"
    assert "SetupError" in result.details["reason"]
    assert "root:" not in json.dumps(result.details) + json.dumps(
        [f.message for f in result.feedback]
    )
