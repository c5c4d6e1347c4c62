"""The interview report built from stored rows: weighted scores, model answers, answers in
words, comparisons and recommendations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.models.interviews import Interview, InterviewAnswer
from app.packs.catalog import Catalog, load_catalog
from app.services.interviews.reports import History, answer_text, build_report, model_answer
from tests.services.interview_kit import FIXTURES, PACK

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ORDER_TEXT = "- loss = loss_fn(y, logits)\n- logits = model(x, training=True)"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog([FIXTURES])


def interview(score: float | None = None, topics: dict[str, float] | None = None) -> Interview:
    return Interview(
        id="i1",
        user_id=1,
        pack_id=PACK,
        minutes=20,
        started_at=T0,
        ends_at=T0 + timedelta(minutes=20),
        finished_at=T0 + timedelta(minutes=12),
        finish_reason="candidate",
        score=score,
        topic_scores=topics or {},
    )


def row(
    position: int, question_id: str, status: str, score: float | None = None
) -> InterviewAnswer:
    result: dict[str, Any] | None = None
    if score is not None:
        verdict = "correct" if score == 1 else ("partial" if score else "incorrect")
        result = {"verdict": verdict, "score": score, "feedback": [], "misconceptions": []}
    return InterviewAnswer(
        interview_id="i1",
        position=position,
        question_id=question_id,
        question_version="v",
        kind="warm-up",
        served_at=T0 + timedelta(minutes=position),
        answered_at=T0 + timedelta(minutes=position, seconds=40),
        status=status,
        result=result,
    )


def test_overall_score_weighs_code_three_times(catalog: Catalog) -> None:
    rows = [row(0, "w-records", "graded", 1.0), row(1, "k-train-step", "graded", 0.0)]
    report = build_report(interview(), rows, catalog, History())
    assert report.scores.overall == 0.25


@pytest.mark.parametrize(
    ("status", "scored"), [("skipped", True), ("ungraded", False), ("unanswered", True)]
)
def test_skipped_and_unanswered_count_as_misses_ungraded_is_not_scored(
    catalog: Catalog, status: str, scored: bool
) -> None:
    rows = [row(0, "w-records", "graded", 1.0), row(1, "w-updates", status)]
    report = build_report(interview(), rows, catalog, History())
    assert report.scores.overall == (0.5 if scored else 1.0)


def test_topic_scores_use_pack_titles(catalog: Catalog) -> None:
    rows = [row(0, "w-records", "graded", 1.0), row(1, "w-updates", "graded", 0.0)]
    topics = build_report(interview(), rows, catalog, History()).scores.topics
    assert [(t.title, t.score) for t in topics] == [
        ("Optimizers", 0.0),
        ("How the tape records", 1.0),
    ]


def test_time_per_question_is_reported(catalog: Catalog) -> None:
    report = build_report(interview(), [row(0, "w-records", "graded", 1.0)], catalog, History())
    assert (report.answers[0].seconds, report.total_seconds) == (40.0, 40.0)


@pytest.mark.parametrize(
    ("question_id", "expected"),
    [
        ("w-records", "- tf.GradientTape"),
        ("w-updates", "False."),
        ("o-lines", "1. logits = model(x, training=True)"),
        ("e-zero-grad", "Nowhere. tape.gradient returns a fresh list of gradients every step."),
        ("k-train-step", "```python\nimport tensorflow as tf"),
    ],
)
def test_model_answer_for_each_type(catalog: Catalog, question_id: str, expected: str) -> None:
    assert model_answer(catalog.questions[question_id]).startswith(expected)


@pytest.mark.parametrize(
    ("question_id", "answer", "expected"),
    [
        ("w-records", "optimizer", "The optimizer"),
        ("w-updates", True, "True"),
        ("o-lines", ["loss", "forward"], ORDER_TEXT),
        ("e-zero-grad", "Nowhere.", "Nowhere."),
        ("w-records", None, ""),
    ],
)  # fmt: skip
def test_answer_text_shows_choice_texts(
    catalog: Catalog, question_id: str, answer: object, expected: str
) -> None:
    assert answer_text(catalog.questions[question_id], answer) == expected


def test_comparison_with_previous_interview(catalog: Catalog) -> None:
    earlier = interview(score=0.25, topics={"tape-recording": 0.0})
    earlier.id = "i0"
    rows = [row(0, "w-records", "graded", 1.0)]
    comparison = build_report(interview(), rows, catalog, History([earlier])).comparison
    assert (comparison.change, comparison.topic_changes) == (0.75, {"tape-recording": 1.0})
    assert [p.id for p in comparison.previous] == ["i0"]


def past(interview_id: str, score: float, minutes_ago: int) -> Interview:
    earlier = interview(score=score, topics={"tape-recording": score})
    earlier.id = interview_id
    earlier.finished_at = T0 - timedelta(minutes=minutes_ago)
    return earlier


def test_change_skips_an_earlier_interview_still_being_graded(catalog: Catalog) -> None:
    """i0's stored 0.1 leaves out its code answer still in the drain: the change is measured
    from i9, the newest one fully graded, and i0 is listed as still grading."""
    history = History([past("i0", 0.1, 5), past("i9", 0.5, 60)], grading={"i0": 1})
    rows = [row(0, "w-records", "graded", 1.0)]
    comparison = build_report(interview(), rows, catalog, history).comparison
    assert (comparison.change, comparison.compared_with) == (0.5, "i9")
    assert comparison.topic_changes == {"tape-recording": 0.5}
    assert [(p.id, p.grading) for p in comparison.previous] == [("i0", 1), ("i9", 0)]


def test_no_change_while_every_earlier_interview_is_being_graded(catalog: Catalog) -> None:
    history = History([past("i0", 0.1, 5)], grading={"i0": 2})
    rows = [row(0, "w-records", "graded", 1.0)]
    comparison = build_report(interview(), rows, catalog, history).comparison
    assert (comparison.change, comparison.compared_with, comparison.topic_changes) == (
        None,
        None,
        {},
    )


def test_no_change_while_this_interview_is_being_graded(catalog: Catalog) -> None:
    history = History([past("i0", 0.25, 5)])
    rows = [row(0, "w-records", "graded", 1.0), row(1, "k-train-step", "pending")]
    comparison = build_report(interview(), rows, catalog, history).comparison
    assert (comparison.change, comparison.topic_changes, comparison.waiting_for) == (None, {}, 1)


def test_missed_and_skipped_questions_are_recommended(catalog: Catalog) -> None:
    rows = [
        row(0, "w-records", "graded", 1.0),
        row(1, "w-updates", "graded", 0.0),
        row(2, "c-sources", "skipped"),
    ]
    reviews = build_report(interview(), rows, catalog, History()).recommended_reviews
    assert [(r.question_id, r.reason) for r in reviews] == [
        ("w-updates", "You missed it."),
        ("c-sources", "You skipped it."),
    ]


def test_summary_names_the_tells(catalog: Catalog) -> None:
    rows = [row(0, "w-updates", "graded", 0.0)]
    rows[0].answer = True
    report = build_report(interview(), rows, catalog, History())
    assert '"tape.gradient updates the weights"' in report.summary
    assert report.red_flags[0].evidence == "Answered true to: `tape.gradient` updates the weights."


def test_tell_shown_before_is_called_recurring(catalog: Catalog) -> None:
    rows = [row(0, "w-updates", "graded", 0.0)]
    rows[0].answer = True
    history = History([interview(score=0.0)], frozenset({"gradient-updates-weights"}))
    report = build_report(interview(), rows, catalog, history)
    assert report.comparison.recurring_tells == ['"tape.gradient updates the weights"']
    assert "Shown before too" in report.summary


def test_planned_questions_not_reached_count_as_misses(catalog: Catalog) -> None:
    """One right true/false, then Finish with a code slot still planned: not 100%."""
    ended_early = interview()
    ended_early.plan = ["explanation", "code"]
    rows = [row(0, "w-records", "graded", 1.0)]
    report = build_report(ended_early, rows, catalog, History())
    assert report.scores.overall == round(1 / (1 + 2 + 3), 3)
    assert report.scores.unreached == 2
    assert report.signal is not None and report.signal.label == "not yet"
    assert any("not answered" in gap for gap in report.gaps)


def test_a_completed_plan_leaves_nothing_unreached(catalog: Catalog) -> None:
    done = interview()
    done.finish_reason, done.plan = "completed", ["code"]
    report = build_report(done, [row(0, "w-records", "graded", 1.0)], catalog, History())
    assert report.scores.overall == 1.0 and report.scores.unreached == 0


def test_signal_needs_evidence_and_names_strengths_per_dimension(catalog: Catalog) -> None:
    rows = [
        row(i, q, "graded", 1.0) for i, q in enumerate(["w-records", "w-updates", "k-train-step"])
    ]
    report = build_report(interview(), rows, catalog, History())
    assert report.signal is not None and report.signal.label == "strong"
    dims = {d.id: d for d in report.dimensions}
    assert dims["code"].standing == "strength" and dims["explanation"].standing == "untested"
    assert any(s.startswith("Code:") for s in report.strengths)


def test_one_easy_answer_is_too_thin_to_be_a_strength(catalog: Catalog) -> None:
    rows = [row(0, "w-records", "graded", 1.0), row(1, "w-updates", "unanswered")]
    report = build_report(interview(), rows, catalog, History())
    dims = {d.id: d for d in report.dimensions}
    assert dims["concepts"].standing == "mixed"  # 1 right, 1 not answered (counted 0): 50%
    solo = build_report(interview(), rows[:1], catalog, History())
    assert {d.id: d for d in solo.dimensions}["concepts"].standing == "thin"
    assert not solo.strengths
    assert any(r.question_id == "w-updates" for r in report.recommended_reviews)


def test_skipped_questions_are_not_counted_as_answered(catalog: Catalog) -> None:
    ids = ["w-records", "w-updates", "k-train-step"]
    rows = [row(i, q, "skipped") for i, q in enumerate(ids)] + [row(3, "w-records", "unanswered")]
    report = build_report(interview(), rows, catalog, History())
    assert report.signal is not None
    assert report.signal.reasons[0] == "Answered 0 of 4 planned question(s)."
    assert any(g.startswith("Coverage: 4 planned question(s) not answered") for g in report.gaps)
    assert "4 planned question(s) went unanswered" in report.summary


def test_fast_wrong_answers_make_no_speed_strength(catalog: Catalog) -> None:
    ids = ["w-records", "w-updates", "k-train-step"]
    wrong = [row(i, q, "graded", 0.0) for i, q in enumerate(ids)]  # 40 s each: fast
    dims = {d.id: d for d in build_report(interview(), wrong, catalog, History()).dimensions}
    assert dims["speed"].standing != "strength" and "Not a strength" in dims["speed"].evidence
    right = [row(i, q, "graded", 1.0) for i, q in enumerate(ids)]
    dims = {d.id: d for d in build_report(interview(), right, catalog, History()).dimensions}
    assert dims["speed"].standing == "strength"


def test_code_still_being_graded_is_grading_not_untested(catalog: Catalog) -> None:
    """Round 17: a finish returns at once, so its report often holds a code answer the drain
    has not graded yet; until round 16 the Code dimension then read "untested: Not asked"."""
    rows = [
        row(0, "w-records", "graded", 1.0),
        row(1, "w-updates", "graded", 1.0),
        row(2, "k-train-step", "pending"),
    ]
    report = build_report(interview(), rows, catalog, History())
    code = {d.id: d for d in report.dimensions}["code"]
    assert (code.standing, code.score) == ("grading", None)
    assert code.evidence == "1 answer(s) still being graded."
    assert report.signal is not None
    assert report.signal.reasons[0] == "Answered 3 of 3 planned question(s)."
    assert "still being graded: this signal may change" in report.signal.reasons[1]


@pytest.mark.parametrize("status", ["pending", "grading"])
def test_strong_needs_the_code_answer_graded(catalog: Catalog, status: str) -> None:
    ids = ["w-records", "w-updates", "c-sources", "k-train-step"]
    rows = [row(i, q, "graded", 1.0) for i, q in enumerate(ids[:3])] + [row(3, ids[3], status)]
    report = build_report(interview(), rows, catalog, History())
    assert report.signal is not None and report.signal.label != "strong"
    rows[3] = row(3, ids[3], "graded", 1.0)
    graded = build_report(interview(), rows, catalog, History())
    assert graded.signal is not None and graded.signal.label == "strong"


def test_a_dimension_with_one_answer_still_grading_is_not_called_yet(catalog: Catalog) -> None:
    rows = [
        row(0, "w-records", "graded", 1.0),
        row(1, "k-train-step", "graded", 1.0),
        row(2, "k-clip-step", "pending"),
    ]
    code = {d.id: d for d in build_report(interview(), rows, catalog, History()).dimensions}["code"]
    assert (code.standing, code.score) == ("grading", 1.0)
    assert code.evidence == "1 of 1 fully right so far, 1 still being graded."
