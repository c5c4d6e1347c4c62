"""A concept whose only words are the tell's own claim is not shown as covered (round 8).

"Every gradient in the whole model becomes None" carries the words of the concept "the
variables before the conversion get None gradients": the score keeps that credit (the
labelled data grades identically), but the feedback must not say "Covered" right under the
misconception that contradicts it.
"""

from __future__ import annotations

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

ALL_NONE = (
    "Once you call .numpy() inside the tape, every gradient in the whole model becomes None,"
    " so the network stops learning entirely. Keep it in tf ops."
)


def test_a_concept_said_only_by_the_tell_is_partly_covered_not_covered() -> None:
    result = grade_freetext(question("numpy-inside-tape"), ALL_NONE)
    notes = [f.message for f in result.feedback if f.message.startswith("Partly covered:")]
    covered = [f.message for f in result.feedback if f.kind == "correct"]
    assert result.misconceptions == ["numpy-kills-all-gradients"]
    assert len(notes) == 1 and "before the conversion" in notes[0]
    assert "misconception above" in notes[0]
    assert not any("before the conversion" in m for m in covered)
    assert any("TensorFlow ops" in m for m in covered)  # the other sentence's concept


def test_the_score_keeps_the_credit() -> None:
    result = grade_freetext(question("numpy-inside-tape"), ALL_NONE)
    assert "chain-broken" in result.details["concepts_found"]


def test_a_right_clause_beside_the_tell_stays_covered() -> None:
    text = (
        "First I call tape.gradient and the weights are updated, then apply_gradients adds"
        " momentum."
    )
    result = grade_freetext(question("gradient-vs-apply"), text)
    assert result.misconceptions == ["gradient-updates-weights"]
    assert [f.message for f in result.feedback if f.message.startswith("Partly")] == []
    assert any(f.kind == "correct" and "optimizer's rule" in f.message for f in result.feedback)


def test_an_answer_without_a_tell_has_no_partly_covered_note() -> None:
    text = (
        "Only the variables before the .numpy() call get None gradients; the later layers"
        " still learn, because the tape cannot see NumPy maths. No error is raised."
    )
    result = grade_freetext(question("numpy-inside-tape"), text)
    assert result.misconceptions == []
    assert not any(f.message.startswith("Partly covered") for f in result.feedback)
