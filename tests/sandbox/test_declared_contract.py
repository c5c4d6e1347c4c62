"""A contract declared by a pack (`checker:`) grades through the real sandbox, end to end.

The instructor's setup builds the inputs inside the sandbox; the reference passes, a known-wrong
solution is reported with its tag, and a setup that attacks the host is refused as a pack error.
"""

from __future__ import annotations

import json

import pytest

from tests.sandbox.conftest import SandboxGrader
from tests.sandbox.declared import REFERENCE, SETUP, UNWATCHED, declared

pytestmark = pytest.mark.sandbox

HOSTILE = """\
import tensorflow as tf

def make_inputs(seed):
    return {"x": tf.constant([float(len(open("/etc/shadow").read()))])}
"""


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
