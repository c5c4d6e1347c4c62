"""A learned tell is named only with the answer's own evidence of it (round 26).

The neighbours and the tag classifier suggest a tell from words; learned_evidence.py reads
the tell's phrasings loosely (roles in one clause, any order, one of three or more to
spare, exclusions kept) and grading names a learned tell only where that reading states it.
"""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext import grader
from app.grading.freetext.grader import has_evidence
from app.grading.freetext.learned_evidence import loosened
from app.grading.results import GradeResult
from tests.grading.core_questions import misconception_of, question


def test_a_claim_of_three_roles_may_miss_any_one_and_keeps_its_exclusions() -> None:
    assert loosened(r"\ba\b & \bb\b & \bc\b & !(\bd\b)") == [
        r"\ba\b & \bb\b & \bc\b & !(\bd\b)",
        r"\ba\b & \bb\b & \bc\b & !(\bd\b)",
        r"\bb\b & \bc\b & !(\bd\b)",
        r"\ba\b & \bc\b & !(\bd\b)",
        r"\ba\b & \bb\b & !(\bd\b)",
    ]


def test_an_ordered_phrasing_is_read_as_roles_in_any_order() -> None:
    assert loosened(r"\ba\b ~ \bb\b") == [r"\ba\b ~ \bb\b", r"\ba\b & \bb\b"]


def test_a_gap_inside_a_group_is_not_a_role_boundary() -> None:
    assert loosened(r"(\ba\b ~ \bb\b|\bc\b)") == [r"(\ba\b ~ \bb\b|\bc\b)"]


BN_FREEZE = ("training-flag", "inference-mode-freezes-bn-params")


@pytest.mark.parametrize(
    "text",
    [
        "In inference mode BatchNorm's gamma and beta are still trained by the optimizer; what "
        "changes is which statistics it normalises with.",
        "Setting bn.trainable = False freezes gamma and beta and, in Keras, also runs the layer "
        "in inference mode.",
    ],
)
def test_a_true_statement_in_the_tell_s_words_is_no_evidence(text: str) -> None:
    assert not has_evidence(misconception_of(*BN_FREEZE), text)


SPARED = "During evaluation BatchNorm's gamma and beta are frozen."  # no flag, no omission


def test_the_tell_with_one_role_to_spare_is_evidence() -> None:
    assert has_evidence(misconception_of(*BN_FREEZE), SPARED)
    assert (
        BN_FREEZE[1]
        not in grader.grade_freetext(
            question(BN_FREEZE[0]), SPARED, neighbours=False
        ).misconceptions
    )


def _suggesting(tag: str):
    """A learned part that names `tag` on any answer (grader.add_suggestion's place)."""

    def suggest(question, answer, result: GradeResult, caps=None) -> GradeResult:
        return dataclasses.replace(result, misconceptions=[tag], details={"neighbours": tag})

    return suggest


def test_grading_names_no_learned_tell_without_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grader, "add_suggestion", _suggesting(BN_FREEZE[1]))
    text = "In inference mode gamma and beta are still trained; only the statistics differ."
    result = grader.grade_freetext(question(BN_FREEZE[0]), text, neighbours=True)
    assert result.misconceptions == []


def test_grading_names_a_learned_tell_with_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grader, "add_suggestion", _suggesting(BN_FREEZE[1]))
    result = grader.grade_freetext(question(BN_FREEZE[0]), SPARED, neighbours=True)
    assert result.misconceptions == [BN_FREEZE[1]]
