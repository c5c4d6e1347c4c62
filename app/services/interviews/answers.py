"""What happens to an interview answer: stored first, graded quietly, recorded at the end.

An answer row is committed before grading starts, so a busy or absent grader cannot lose
it: a busy grader's answers are retried once when the interview finishes, the rest are
reported as ungraded. Only a malformed answer raises (422, and the question stays open).
At the finish every scored answer (a skip counts as a miss) enters the progress history
and the spaced-review queue through progress.record_attempt.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.clock import as_utc
from app.errors import AnswerInvalid, Conflict, GraderBusy, GraderUnavailable, NotFound
from app.grading.dispatch import CodeGraderLike
from app.models.interviews import InterviewAnswer
from app.models.users import User
from app.packs.catalog import Catalog
from app.schemas import FeedbackItem, GradeResponse
from app.services import questions
from app.services.interviews import plans
from app.services.interviews.reports import seconds_taken
from app.services.progress import history as progress

log = logging.getLogger("tapequiz.interviews")


def rows_of(session: Session, interview_id: str) -> list[InterviewAnswer]:
    """The questions served in an interview, in order (the last may still be open)."""
    query = select(InterviewAnswer).where(InterviewAnswer.interview_id == interview_id)
    return list(session.exec(query.order_by(col(InterviewAnswer.position))).all())


@dataclass(frozen=True)
class Graders:
    """What grading needs, passed together so services keep keyword-only signatures short."""

    catalog: Catalog
    code_grader: CodeGraderLike | None


async def grade_row(session: Session, row: InterviewAnswer, graders: Graders) -> None:
    """Grade a stored answer into its row; only a malformed answer raises (422)."""
    try:
        response = await questions.grade(
            graders.catalog, row.question_id, row.answer, code_grader=graders.code_grader
        )
    except AnswerInvalid:
        raise
    except GraderBusy as exc:
        row.status, row.grading_error = "pending", exc.message
    except (GraderUnavailable, NotFound) as exc:
        row.status, row.grading_error = "ungraded", exc.message
    except Exception:
        log.exception("grading failed for interview answer %s", row.id)
        row.status = "ungraded"
        row.grading_error = "The grader failed on this answer; it is kept but not scored."
    else:
        row.status, row.result, row.grading_error = "graded", response.model_dump(mode="json"), None
    session.add(row)


def outcome_of(row: InterviewAnswer, catalog: Catalog) -> plans.Outcome | None:
    item = catalog.questions.get(row.question_id)
    if item is None:
        return None
    result = row.result or {}
    return plans.Outcome(
        item=item,
        verdict=result.get("verdict") if row.status == "graded" else None,
        skipped=row.status == "skipped",
        misconceptions=tuple(result.get("misconceptions", [])),
        concepts_missed=tuple(result.get("details", {}).get("concepts_missed", [])),
        kind=row.kind,
    )


def _claim(
    session: Session, row: InterviewAnswer, *, status: str, answer: object, now: datetime
) -> None:
    """Move the row out of "open" in one conditional UPDATE, so a double submit (two tabs, a
    double click without JavaScript) answers once and the other request gets a 409."""
    claimed = session.execute(
        update(InterviewAnswer)
        .where(col(InterviewAnswer.id) == row.id, col(InterviewAnswer.status) == "open")
        .values(status=status, answer=answer, answered_at=as_utc(now))
    )
    session.commit()
    if getattr(claimed, "rowcount", 1) != 1:
        raise Conflict("this question was answered already (by another tab or a double submit)")
    session.refresh(row)


async def take_answer(
    session: Session, row: InterviewAnswer, graders: Graders, *, answer: object, now: datetime
) -> None:
    if answer is None:
        _claim(session, row, status="skipped", answer=None, now=now)
        return
    _claim(session, row, status="grading", answer=answer, now=now)  # kept if grading never ends
    try:
        await grade_row(session, row, graders)
    except AnswerInvalid:
        row.answer, row.answered_at, row.status = None, None, "open"
        session.commit()
        raise
    session.commit()


def skip_response(catalog: Catalog, row: InterviewAnswer) -> GradeResponse:
    item = questions.find_question(catalog, row.question_id)
    return GradeResponse(
        question_id=row.question_id,
        verdict="incorrect",
        score=0.0,
        feedback=[FeedbackItem(kind="info", message="Skipped in a mock interview.")],
        misconceptions=[],
        explanation=item.question.explanation,
        section=questions.section_title(catalog, item),
        details={"skipped": True},
        elapsed_ms=0.0,
    )


def record_attempts(
    session: Session, user: User, rows: list[InterviewAnswer], catalog: Catalog
) -> None:
    """Scored answers enter the history and the review queue (skips as misses)."""
    for row in rows:
        item = catalog.questions.get(row.question_id)
        if item is None or row.status not in ("graded", "skipped"):
            continue
        if row.status == "graded":
            response = GradeResponse.model_validate(row.result)
        else:
            response = skip_response(catalog, row)
        progress.record_attempt(
            session,
            user=user,
            question=item,
            response=response,
            answer=row.answer,
            elapsed_ms=int((seconds_taken(row) or 0) * 1000),
            hints_used=0,
            source="interview",
            commit=False,
        )


async def settle(session: Session, rows: list[InterviewAnswer], graders: Graders) -> None:
    """Before the report: open questions become unanswered, busy gradings get one retry."""
    for row in rows:
        if row.status == "open":
            row.status = "unanswered"
        elif row.status in ("pending", "grading"):
            try:
                await grade_row(session, row, graders)
            except AnswerInvalid as exc:
                row.status, row.grading_error = "ungraded", exc.message
            if row.status == "pending":
                row.status = "ungraded"
        session.add(row)
