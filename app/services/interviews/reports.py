"""The interview report: what the candidate knows, which tells they showed, what to review.

Built from stored rows only (the grading happened while the interview ran), so the JSON
report, the page and the print view all say the same thing. Scores weigh a question by the
work it asks for (code 3, explanation 2, a concept question 1). Skipped questions, a question
shown but not answered, and planned questions never reached all count as zero, as an
interviewer would count them; questions the grader could not grade are listed, not scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from app.clock import as_utc
from app.grading.choice import solution_of
from app.models.interviews import (
    Comparison,
    Interview,
    InterviewAnswer,
    InterviewReport,
    PastInterview,
    RedFlag,
    ReportAnswer,
    Review,
    Scores,
    TopicScore,
)
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.packs.schema import ChoiceQuestionBase, Code, CodeFix, FreeText, Ordering, TrueFalse
from app.schemas import FeedbackItem
from app.services.interviews import signals
from app.services.interviews.flags import TELLS, find_red_flags
from app.services.interviews.plans import related
from app.services.practice.answer_text import answer_items, option_texts
from app.services.progress.misconceptions import without_scenario_ids

TYPE_WEIGHTS = {"free-text": 2.0, "code": 3.0, "code-fix": 3.0}
SLOT_WEIGHTS = {"warm-up": 1.0, "explanation": 2.0, "code": 3.0}
SCORED_STATUSES = ("graded", "skipped", "unanswered")


def model_answer(item: LoadedQuestion) -> str:
    q = item.question
    if isinstance(q, FreeText):
        return q.rubric.model_answer
    if isinstance(q, Code | CodeFix):
        return f"```python\n{q.reference.rstrip()}\n```"
    if isinstance(q, TrueFalse):
        return "True." if q.answer else "False."
    if isinstance(q, Ordering):
        return "\n".join(f"{n}. {i.text}" for n, i in enumerate(q.items, 1))
    if isinstance(q, ChoiceQuestionBase):
        return "\n".join(f"- {c.text}" for c in q.choices if c.correct)
    return ""


def answer_text(item: LoadedQuestion | None, answer: object) -> str:
    """The answer as the candidate saw it: choice and item texts rather than their ids."""
    if answer is None:
        return ""
    q = item.question if item else None
    texts = option_texts(q)
    if isinstance(answer, list):
        return "\n".join(f"- {texts.get(str(a), str(a))}" for a in answer)
    if isinstance(answer, bool):
        return "True" if answer else "False"
    return texts.get(str(answer), str(answer))


def seconds_taken(row: InterviewAnswer) -> float | None:
    if row.answered_at is None:
        return None
    return round((as_utc(row.answered_at) - as_utc(row.served_at)).total_seconds(), 1)


def _verdict(row: InterviewAnswer) -> str:
    if row.status == "graded" and row.result:
        return str(row.result["verdict"])
    return {"skipped": "skipped", "unanswered": "unanswered"}.get(row.status, "ungraded")


def report_answer(row: InterviewAnswer, item: LoadedQuestion | None) -> ReportAnswer:
    result = row.result or {}
    q = item.question if item else None
    return ReportAnswer(
        position=row.position,
        question_id=row.question_id,
        title=q.title if q else row.question_id,
        type=q.type if q else "",
        topic=q.topic if q else "",
        kind=row.kind,
        reason=row.reason,
        answer=row.answer,
        answer_text=answer_text(item, row.answer),
        status="pending" if row.status == "grading" else row.status,  # being graded: pending
        verdict=_verdict(row),
        score=result.get("score") if row.status == "graded" else _unscored(row),
        feedback=[
            FeedbackItem(kind=f["kind"], message=without_scenario_ids(f["message"]))
            for f in result.get("feedback", [])
        ],
        misconceptions=list(result.get("misconceptions", [])),
        model_answer=model_answer(item) if item else "",
        explanation=q.explanation if q else "",
        grading_error=row.grading_error or _still_grading(row),
        seconds=seconds_taken(row),
        solution=solution_of(q) if q else None,
        # Items may be indented code lines: as Markdown list items they became code blocks
        # under empty bullets, so the page lists them as they were shown.
        answer_items=answer_items(item, row.answer) if isinstance(q, Ordering) else [],
        model_items=[i.text for i in q.items] if isinstance(q, Ordering) else [],
    )


STILL_GRADING = (
    "Still being graded: it is kept, not scored yet; the report includes it once it is "
    "graded (read it again)."
)


def _still_grading(row: InterviewAnswer) -> str | None:
    return STILL_GRADING if row.status in ("pending", "grading") else None


def _unscored(row: InterviewAnswer) -> float | None:
    return 0.0 if row.status in ("skipped", "unanswered") else None


def _weighted(answers: list[ReportAnswer], missed_weight: float = 0.0) -> float | None:
    scored = [a for a in answers if a.status in SCORED_STATUSES and a.score is not None]
    total = sum(TYPE_WEIGHTS.get(a.type, 1.0) for a in scored) + missed_weight
    if not scored:
        return None
    return round(sum(TYPE_WEIGHTS.get(a.type, 1.0) * (a.score or 0) for a in scored) / total, 3)


def score_answers(
    answers: list[ReportAnswer], topic_titles: dict[str, str], unreached: list[str] | None = None
) -> Scores:
    """`unreached`: the kinds of planned slots the interview ended before (each a miss)."""
    topics = sorted({a.topic for a in answers if a.topic})
    missed = unreached or []
    return Scores(
        overall=_weighted(answers, sum(SLOT_WEIGHTS.get(k, 1.0) for k in missed)),
        scored=sum(1 for a in answers if a.status in SCORED_STATUSES),
        questions=len(answers),
        unreached=len(missed),
        unanswered=sum(1 for a in answers if a.status == "unanswered"),
        skipped=sum(1 for a in answers if a.status == "skipped"),
        grading=sum(1 for a in answers if a.status in ("pending", "grading")),
        topics=[
            TopicScore(
                topic=t,
                title=topic_titles.get(t, t),
                score=_weighted([a for a in answers if a.topic == t]),
                questions=sum(1 for a in answers if a.topic == t),
            )
            for t in topics
        ],
    )


def red_flags(rows: list[InterviewAnswer], catalog: Catalog) -> list[RedFlag]:
    flags: list[RedFlag] = []
    for row in rows:
        item = catalog.questions.get(row.question_id)
        if item is not None and row.status not in ("skipped", "unanswered"):
            flags += find_red_flags(item, row.position, row.answer, row.result)
    return flags


@dataclass(frozen=True)
class History:
    """The candidate's earlier interviews on the pack (newest first), the tells they showed
    and, by interview id, how many of their answers are still being graded."""

    interviews: list[Interview] = field(default_factory=list)
    tells: frozenset[str] = frozenset()
    grading: Mapping[str, int] = field(default_factory=dict)


def _baseline(history: History) -> Interview | None:
    """The newest earlier interview whose stored scores are final: one still being graded
    holds a partial score, and a change measured from it would be off by its pending
    answers (round 17: Finish returns before the code answers are graded)."""
    return next(
        (p for p in history.interviews if p.score is not None and not history.grading.get(p.id, 0)),
        None,
    )


def compare(scores: Scores, flags: list[RedFlag], history: History) -> Comparison:
    past = [
        PastInterview(
            id=p.id,
            minutes=p.minutes,
            finished_at=as_utc(p.finished_at),
            score=p.score,
            grading=history.grading.get(p.id, 0),
        )
        for p in history.interviews
        if p.finished_at is not None
    ]
    last = None if scores.grading or scores.overall is None else _baseline(history)
    recurring = sorted({f.label for f in flags if f.kind == "tell" and f.tell in history.tells})
    return Comparison(
        previous=past,
        change=_change(scores.overall, last.score) if last else None,
        topic_changes=_topic_changes(scores, last),
        recurring_tells=recurring,
        compared_with=last.id if last else None,
        waiting_for=scores.grading,
    )


def _change(now: float | None, then: float | None) -> float | None:
    return None if now is None or then is None else round(now - then, 3)


def _topic_changes(scores: Scores, last: Interview | None) -> dict[str, float]:
    if last is None:
        return {}
    return {
        t.topic: round(t.score - last.topic_scores[t.topic], 3)
        for t in scores.topics
        if t.score is not None and t.topic in last.topic_scores
    }


def _tell_reviews(
    flags: list[RedFlag], catalog: Catalog, pack_id: str, asked: set[str]
) -> list[Review]:
    """For each tell shown, a question of the pack that teaches the point (not asked yet)."""
    reviews = []
    for flag in flags:
        tell = next((t for t in TELLS if t.id == flag.tell), None)
        if tell is None:
            continue
        match = next(
            (
                i
                for i in catalog.questions.values()
                if i.pack_id == pack_id
                and i.question.id not in asked
                and any(related(tag, t) for tag in tell.tags for t in i.question.tags)
            ),
            None,
        )
        if match is not None:
            reason = f"Revisits the tell you showed: {tell.label}."
            reviews.append(
                Review(question_id=match.question.id, title=match.question.title, reason=reason)
            )
    return reviews


def recommend(
    answers: list[ReportAnswer], flags: list[RedFlag], catalog: Catalog, pack_id: str
) -> list[Review]:
    reasons = {
        "skipped": "You skipped it.",
        "unanswered": "You did not answer it before the end.",
        "incorrect": "You missed it.",
        "partial": "Your answer was only partly right.",
        "error": "Your answer did not run cleanly.",
    }
    reviews = [
        Review(question_id=a.question_id, title=a.title, reason=reasons[a.verdict])
        for a in answers
        if a.verdict in reasons
    ]
    reviews += _tell_reviews(flags, catalog, pack_id, {a.question_id for a in answers})
    unique: dict[str, Review] = {}
    for review in reviews:
        unique.setdefault(review.question_id, review)  # the first reason wins
    return list(unique.values())


def summarize(
    scores: Scores, flags: list[RedFlag], reviews: list[Review], comparison: Comparison
) -> str:
    """Two or three sentences an interviewer would say at the end."""
    if scores.overall is None and scores.grading:
        return f"{scores.grading} answer(s) are still being graded and not scored yet."
    if scores.overall is None:
        return "Nothing was scored in this interview; answer a few questions next time."
    parts = [f"Overall {scores.overall:.0%} over {scores.questions} question(s)."]
    missing = scores.unreached + scores.unanswered + scores.skipped
    if missing:
        parts.append(f"{missing} planned question(s) went unanswered and count as misses.")
    ranked = sorted((t for t in scores.topics if t.score is not None), key=lambda t: t.score or 0)
    if len(ranked) > 1 and ranked[0].score != ranked[-1].score:
        parts.append(
            f"Strongest on {ranked[-1].title} ({ranked[-1].score:.0%}), "
            f"weakest on {ranked[0].title} ({ranked[0].score:.0%})."
        )
    tells = sorted({f.label for f in flags if f.kind == "tell"})
    if tells:
        parts.append(f"Tells an interviewer would note: {'; '.join(tells)}.")
    if comparison.recurring_tells:
        again = "; ".join(comparison.recurring_tells)
        parts.append(f"Shown before too, so worth drilling: {again}.")
    if reviews:
        parts.append(f"{len(reviews)} question(s) were added to your review queue.")
    if scores.grading:
        parts.append(f"{scores.grading} answer(s) are still being graded and not scored yet.")
    return " ".join(parts)


def build_report(
    interview: Interview,
    rows: list[InterviewAnswer],
    catalog: Catalog,
    history: History,
) -> InterviewReport:
    pack = catalog.packs.get(interview.pack_id)
    topic_titles = {t.id: t.title for t in pack.meta.topics} if pack else {}
    answers = [report_answer(r, catalog.questions.get(r.question_id)) for r in rows]
    scores = score_answers(answers, topic_titles, unreached_slots(interview))
    flags = red_flags(rows, catalog)
    dims = signals.dimensions(answers)
    strengths, gaps = signals.strengths_and_gaps(dims, scores)
    reviews = recommend(answers, flags, catalog, interview.pack_id)
    comparison = compare(scores, flags, history)
    assert interview.finished_at is not None
    return InterviewReport(
        id=interview.id,
        pack=interview.pack_id,
        pack_title=pack.meta.title if pack else interview.pack_id,
        minutes=interview.minutes,
        difficulty=interview.difficulty,
        started_at=as_utc(interview.started_at),
        ends_at=as_utc(interview.ends_at),
        finished_at=as_utc(interview.finished_at),
        finish_reason=interview.finish_reason or "candidate",
        scores=scores,
        answers=answers,
        red_flags=flags,
        total_seconds=round(sum(a.seconds or 0 for a in answers), 1),
        comparison=comparison,
        recommended_reviews=reviews,
        summary=summarize(scores, flags, reviews, comparison),
        dimensions=dims,
        strengths=strengths,
        gaps=gaps,
        signal=signals.signal(scores, dims, flags),
    )


def unreached_slots(interview: Interview) -> list[str]:
    """Planned slots never served: only an interview ended early (by the candidate or the
    clock) leaves them; one that ran out of fitting questions completed its plan."""
    if interview.finish_reason == "completed":
        return []
    return list(interview.plan)
