"""Round 13 (engineer R): known defects of the free-text reader, each with statements
written before the change. *_HELD lists were kept back and read once, at the end
(docs/freetext.md "Round 13: reader defects (engineer R)"). Rules alone.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question


def _tells(qid: str, text: str) -> list[str]:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    return list(result.misconceptions)


def _concepts(qid: str, text: str) -> list[str]:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    return list(result.details["concepts_found"])


# 1. "without training=True" with no comma: the short cue denies its object (a keyword
# argument or a call), not the statement that follows it.
SCOPE_WRONG = [
    ("training-flag", "training-flag-enables-gradients", "Without training=True gradients are None."),
    ("training-flag", "training-flag-enables-gradients", "Without training=True tape.gradient returns None for every weight."),
]  # fmt: skip
SCOPE_WRONG_HELD = [
    ("training-flag", "training-flag-enables-gradients", "Without training=True every gradient comes back as None."),
]  # fmt: skip
# (question, concept, found?): what follows the object is read as written.
SCOPE_CREDIT = [
    ("training-flag", "consequence", True, "Without training=True model(x) runs in inference mode."),
    ("training-flag", "consequence", False, "Without training=True dropout is still applied."),
    ("training-flag", "consequence", False, "Without training=True dropout is still active during training."),
]  # fmt: skip
SCOPE_CREDIT_HELD = [
    ("training-flag", "consequence", True, "Without training=True model(x) behaves as at inference time."),
    ("training-flag", "consequence", False, "Without training=True dropout still drops units as usual."),
]  # fmt: skip
# Short cues still deny a phrase that continues their object.
SCOPE_KEPT = [
    ("training-flag", "missing-training-flag-errors", "Without training=True Keras raises an error."),
    ("training-flag", "training-flag-enables-gradients", "Without training=True the gradients are None."),
]  # fmt: skip
# Written with these and dropped before the change: "Without training=True model(x) raises an
# error" and "Called without training=True model(x) throws an exception" - the reader reads
# them after the change, but no phrasing of missing-training-flag-errors names "model(x)
# raises" (rubric content, engineer C).


@pytest.mark.parametrize(("qid", "tag", "text"), SCOPE_WRONG + SCOPE_WRONG_HELD + SCOPE_KEPT)
def test_a_short_cue_denies_its_object_not_the_statement_after_it(
    qid: str, tag: str, text: str
) -> None:
    assert tag in _tells(qid, text)


@pytest.mark.parametrize(("qid", "concept", "found", "text"), SCOPE_CREDIT + SCOPE_CREDIT_HELD)
def test_the_statement_after_a_short_cues_object_is_read_as_written(
    qid: str, concept: str, found: bool, text: str
) -> None:
    assert (concept in _concepts(qid, text)) is found
