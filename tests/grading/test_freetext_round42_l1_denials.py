"""A learned tell's loose evidence keeps every exclusion its tell's phrasings write (round 42).

The neighbours and the tag classifier name a tell only where the tell's phrasings, read
loosely, state it (learned_evidence.py, round 26). A loose claim drops a role or reorders
them, and so lost the word that makes the sentence a denial or the correction: "a model of
large matrix multiplies gains little" reads as big-models-gain-most once its "most" role is
left out, though the tell's other phrasings rule out "little". Since round 42 each loose
claim carries the excluded roles of all the tell's phrasings (`tells_exclusions`).
"""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext import grader
from app.grading.freetext.grader import has_evidence
from app.grading.freetext.learned_evidence import loosened, tells_exclusions
from app.grading.results import GradeResult
from tests.grading.core_questions import question


def _tell(qid: str, tag: str):
    return next(m for m in question(qid).rubric.misconceptions if m.tag == tag)


def test_the_tell_s_exclusions_are_gathered_once_and_guards_are_not() -> None:
    patterns = (r"\ba\b & \bb\b & !(\bd\b)", r"\bc\b & !(\bd\b) & !(\be\b) & !!(\bf\b)")
    assert tells_exclusions(patterns) == (r"!(\bd\b)", r"!(\be\b)")


def test_each_loose_claim_carries_the_shared_exclusions_the_phrasing_itself_does_not() -> None:
    assert loosened(r"\ba\b ~ \bb\b & !(\bd\b)", (r"!(\bd\b)", r"!(\be\b)")) == [
        r"\ba\b ~ \bb\b & !(\bd\b)",  # the phrasing as written: the rules' own reading
        r"\ba\b & \bb\b & !(\bd\b) & !(\be\b)",
    ]


DENIALS = [
    (
        "tf-function-speedup",
        "big-models-gain-most",
        "On a CPU a model of large matrix multiplies gains little from tf.function, because "
        "the ops themselves dominate.",
    ),
    (
        "tf-function-speedup",
        "tf-function-overlaps-input-pipeline",
        "Overlapping data loading with compute is tf.data's prefetch, not what tf.function does.",
    ),
]


@pytest.mark.parametrize(("qid", "tag", "text"), DENIALS)
def test_a_denial_in_the_tell_s_words_is_no_evidence(qid: str, tag: str, text: str) -> None:
    assert not has_evidence(_tell(qid, tag), text)


STATED = [
    ("tf-function-speedup", "big-models-gain-most", "Large models gain the most from it."),
    (
        "tf-function-speedup",
        "tf-function-overlaps-input-pipeline",
        "The speedup comes from tf.function overlapping data loading with compute.",
    ),
]


@pytest.mark.parametrize(("qid", "tag", "text"), STATED)
def test_the_tell_stated_is_still_evidence(qid: str, tag: str, text: str) -> None:
    assert has_evidence(_tell(qid, tag), text)


def _suggesting(tag: str):
    """A learned part that names `tag` on any answer (grader.add_suggestion's place)."""

    def suggest(question, answer, result: GradeResult, caps=None) -> GradeResult:
        return dataclasses.replace(result, misconceptions=[tag], details={"neighbours": tag})

    return suggest


@pytest.mark.parametrize(("qid", "tag", "text"), DENIALS)
def test_grading_drops_a_learned_tell_on_the_denial(
    monkeypatch: pytest.MonkeyPatch, qid: str, tag: str, text: str
) -> None:
    monkeypatch.setattr(grader, "add_suggestion", _suggesting(tag))
    result = grader.grade_freetext(question(qid), text, neighbours=True, tag_classifier=False)
    assert tag not in result.misconceptions
