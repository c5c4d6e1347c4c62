"""What a learner is shown agrees with the verdict (issue 14, round 23, shown.py): a correct
verdict shows a score from 70% and no concept as missed; a partial one 25-69%; an
incorrect one below 25%; verdicts never change."""

from __future__ import annotations

import asyncio

import pytest

from app.grading.dispatch import grade_answer
from app.grading.freetext import grade_freetext
from app.grading.freetext.shown import EXTRA_PREFIX, as_shown, shown_score
from app.grading.results import Feedback, GradeResult
from app.packs.loader import LoadedQuestion, load_pack
from app.packs.rubric import Thresholds
from app.packs.schema import FreeText
from tests.conftest import CORE_PACK

# no-zero-grad's fitted line counts 0.214 as correct: this states fresh-gradients alone
# (1 of 3.5 weight, 0.286), three concepts missed.
FRESH_ONLY = "tape.gradient returns a new list of gradient tensors every step."
PARTIAL = "TensorFlow has no zero_grad; you never call it."


def loaded(qid: str) -> LoadedQuestion:
    pack = load_pack(CORE_PACK).pack
    assert pack is not None
    return next(q for q in pack.questions if q.question.id == qid)


def question(qid: str) -> FreeText:
    found = loaded(qid).question
    assert isinstance(found, FreeText)
    return found


def test_a_correct_answer_with_a_low_rubric_score_is_graded_as_the_report_says() -> None:
    graded = grade_freetext(question("no-zero-grad"), FRESH_ONLY)
    assert graded.verdict == "correct" and graded.score < 0.3
    assert any(f.kind == "missing" for f in graded.feedback)  # what the learner used to see


def test_shown_a_correct_answer_lists_no_miss_and_a_score_from_70() -> None:
    q = question("no-zero-grad")
    graded = grade_freetext(q, FRESH_ONLY)
    shown = as_shown(q.rubric, graded)
    assert shown.verdict == "correct"
    assert shown.score >= 0.7
    assert not [f for f in shown.feedback if f.kind == "missing"]
    extras = [f.message for f in shown.feedback if f.message.startswith(EXTRA_PREFIX)]
    labels = {c.id: c.label for c in q.rubric.concepts}
    assert extras == [f"{EXTRA_PREFIX}{labels[c]}." for c in graded.details["concepts_missed"]]  # type: ignore[union-attr]
    assert shown.details["concepts_missed"] == graded.details["concepts_missed"]
    assert shown.details["rubric_score"] == graded.score


def test_a_partial_answer_keeps_its_misses() -> None:
    q = question("no-zero-grad")
    graded = grade_freetext(q, PARTIAL)
    shown = as_shown(q.rubric, graded)
    assert graded.verdict == shown.verdict == "partial"
    assert [f for f in shown.feedback if f.kind == "missing"] == [
        f for f in graded.feedback if f.kind == "missing"
    ]
    assert 0.25 <= shown.score < 0.7


def test_the_web_entry_point_grades_as_shown() -> None:
    result = asyncio.run(grade_answer(loaded("no-zero-grad"), FRESH_ONLY, code_grader=None)).result
    assert result.verdict == "correct" and result.score >= 0.7
    assert all(f.kind != "missing" for f in result.feedback)


@pytest.mark.parametrize(
    ("correct", "partial"), [(0.7, 0.25), (0.214, 0.071), (0.4, 0.062), (0.65, 0.3), (1.0, 0.5)]
)
def test_each_verdict_shows_a_score_inside_its_own_band(correct: float, partial: float) -> None:
    line = Thresholds(correct=correct, partial=partial)
    for i in range(101):
        score = i / 100
        verdict = "correct" if score >= correct else "partial" if score >= partial else "incorrect"
        shown = shown_score(line, verdict, score)
        assert round(shown * 100) >= 70 if verdict == "correct" else True
        assert 25 <= round(shown * 100) < 70 if verdict == "partial" else True
        assert round(shown * 100) < 25 if verdict == "incorrect" else True


def test_the_default_line_keeps_its_scores_and_the_scale_keeps_their_order() -> None:
    line = Thresholds(correct=0.7, partial=0.25)
    assert [shown_score(line, "partial", s) for s in (0.25, 0.5, 0.69)] == [0.25, 0.5, 0.69]
    other = Thresholds(correct=0.4, partial=0.062)
    shown = [shown_score(other, "correct", s) for s in (0.4, 0.6, 0.8, 1.0)]
    assert shown == sorted(shown) and shown[-1] == 1.0


def test_a_moved_verdict_is_shown_inside_its_band() -> None:
    """A learned part may move a verdict across the rubric's line without its score."""
    line = Thresholds(correct=0.7, partial=0.25)
    assert shown_score(line, "correct", 0.3) == 0.7
    assert shown_score(line, "partial", 0.9) == 0.69
    assert shown_score(line, "incorrect", 0.5) == 0.24


def test_a_raised_note_and_other_kinds_are_kept() -> None:
    q = question("no-zero-grad")
    feedback = [
        Feedback("misconception", "m"),
        Feedback("info", "Counted as correct. To make it airtight: say more."),
        Feedback("missing", "Something no concept says."),
    ]
    result = as_shown(q.rubric, GradeResult("correct", 0.5, feedback))
    assert [f.kind for f in result.feedback] == ["misconception", "info", "info"]
    assert result.feedback[2].message == EXTRA_PREFIX + "something no concept says."


def test_an_error_result_is_left_alone() -> None:
    result = GradeResult("error", 0.0, [Feedback("missing", "x")])
    assert as_shown(question("no-zero-grad").rubric, result) is result
