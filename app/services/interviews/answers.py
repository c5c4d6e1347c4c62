"""What happens to an interview answer: stored first, graded quietly, recorded at the end.

An answer row is committed before grading starts, so a busy or absent grader cannot lose
it. With a background drain (drain.py, what the server runs) a code answer is stored
"pending" and graded there, so its request holds no thread while the sandbox queue is
full; other answers are graded in their request (no sandbox: quick). Without one (tests of
the services alone) a busy grader is retried for a while (Graders.busy_wait_seconds), then
once more at the finish. Only a malformed answer raises (422, and the question stays open).
Every scored answer of a finished interview (a skip counts as a miss) enters the progress
history and the spaced-review queue through progress.record_attempt, once: at the finish,
or when the drain grades it after the finish (`recorded_at` marks it).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.clock import as_utc
from app.errors import AnswerInvalid, Conflict, GraderBusy, GraderUnavailable, NotFound
from app.grading.dispatch import CodeGraderLike, source_of
from app.models.interviews import InterviewAnswer
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.schema import Code, CodeFix
from app.schemas import FeedbackItem, GradeResponse
from app.services import questions
from app.services.interviews import plans
from app.services.interviews.reports import seconds_taken
from app.services.progress import history as progress

log = logging.getLogger("tapequiz.interviews")
# Rows this process is grading now, and when it started: a row left "grading" that is not
# here and was answered before this process started was being graded by a process that is
# gone (killed, restarted), and nothing would ever finish it.
IN_FLIGHT: set[int] = set()
_GAVE_UP: set[int] = set()  # graded here, but storing the result failed (database locked)
PROCESS_STARTED = datetime.now(UTC)
BUSY_RETRY_SECONDS = 2.0


def rows_of(session: Session, interview_id: str) -> list[InterviewAnswer]:
    """The questions served in an interview, in order (the last may still be open)."""
    query = select(InterviewAnswer).where(InterviewAnswer.interview_id == interview_id)
    return list(session.exec(query.order_by(col(InterviewAnswer.position))).all())


class Background(Protocol):
    """The background drain as answers see it (drain.Drain)."""

    def poke(self) -> None: ...

    async def wait(self, ids: Any, timeout: float) -> bool: ...


@dataclass(frozen=True)
class Graders:
    """What grading needs, passed together so services keep keyword-only signatures short."""

    catalog: Catalog
    code_grader: CodeGraderLike | None
    # With a drain: how long a request waits (no thread held) for a code answer's grading.
    # Without: how long an answer's request retries a full queue.
    busy_wait_seconds: float = 0.0
    drain: Background | None = None


def queued(row: InterviewAnswer, graders: Graders) -> bool:
    """Graded by the background drain rather than in the request: code, when there is one."""
    item = graders.catalog.questions.get(row.question_id)
    code = item is not None and isinstance(item.question, Code | CodeFix)
    return code and graders.drain is not None and graders.code_grader is not None


async def grading_of(row: InterviewAnswer, graders: Graders) -> dict[str, Any]:
    """The row's status, result and grading error once graded; only a malformed answer
    raises (422)."""
    try:
        response = await questions.grade(
            graders.catalog, row.question_id, row.answer, code_grader=graders.code_grader
        )
    except AnswerInvalid:
        raise
    except GraderBusy as exc:
        return {"status": "pending", "grading_error": exc.message}
    except (GraderUnavailable, NotFound) as exc:
        return {"status": "ungraded", "grading_error": exc.message}
    except Exception:
        log.exception("grading failed for interview answer %s", row.id)
        error = "The grader failed on this answer; it is kept but not scored."
        return {"status": "ungraded", "grading_error": error}
    return {"status": "graded", "result": response.model_dump(mode="json"), "grading_error": None}


async def grade_row(session: Session, row: InterviewAnswer, graders: Graders) -> None:
    """Grade a stored answer into its row; only a malformed answer raises (422)."""
    for name, value in (await grading_of(row, graders)).items():
        setattr(row, name, value)
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
    if queued(row, graders):
        source_of(answer)  # a malformed answer is refused now (422), not stored
        _claim(session, row, status="pending", answer=answer, now=now)
        assert graders.drain is not None
        graders.drain.poke()
        return
    _claim(session, row, status="grading", answer=answer, now=now)  # kept if grading never ends
    await regrade(session, row, graders)


async def _patiently(row: InterviewAnswer, graders: Graders) -> dict[str, Any]:
    """Grade, retrying a full queue for up to `busy_wait_seconds`, as the practice page
    retries after Retry-After: with a class answering code at once, one try and one retry
    at the finish left most interview code answers ungraded (benchmarks/class_interviews.py)."""
    waited = 0.0
    while True:
        grading = await grading_of(row, graders)
        if grading["status"] != "pending" or waited >= graders.busy_wait_seconds:
            return grading
        await asyncio.sleep(BUSY_RETRY_SECONDS)
        waited += BUSY_RETRY_SECONDS


def abandoned(row: InterviewAnswer) -> bool:
    """Left "grading" by a process that no longer runs (see IN_FLIGHT)."""
    if row.status != "grading" or row.id in IN_FLIGHT or row.answered_at is None:
        return False
    return row.id in _GAVE_UP or as_utc(row.answered_at) < PROCESS_STARTED


async def regrade(session: Session, row: InterviewAnswer, graders: Graders) -> None:
    """Grade a row that is "grading" and store the result (a malformed answer reopens the
    question and raises 422)."""
    assert row.id is not None
    IN_FLIGHT.add(row.id)
    try:
        grading = await _patiently(row, graders)
    except AnswerInvalid:
        settle_grading(session, row, status="open", answer=None, answered_at=None)
        raise
    finally:
        IN_FLIGHT.discard(row.id)
    try:
        settle_grading(session, row, **grading)
    except Exception:
        _GAVE_UP.add(row.id)  # the next read of the interview grades it again
        raise
    _GAVE_UP.discard(row.id)


def settle_grading(
    session: Session, row: InterviewAnswer, *, commit: bool = True, **values: Any
) -> None:
    """Write over "grading" only: a finish that came while this answer was graded has settled
    the row itself (it regrades what it finds grading) and returned its report, and what it
    stored must stay what that report said."""
    session.execute(
        update(InterviewAnswer)
        .where(col(InterviewAnswer.id) == row.id, col(InterviewAnswer.status) == "grading")
        .values(**values)
    )
    if commit:
        session.commit()
    session.refresh(row)


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
    """Scored answers enter the history and the review queue (skips as misses), each once:
    the finish and the drain grading an answer after it may both try."""
    for row in rows:
        item = catalog.questions.get(row.question_id)
        if (
            item is None
            or row.status not in ("graded", "skipped")
            or not _mark_recorded(session, row)
        ):
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


def _mark_recorded(session: Session, row: InterviewAnswer) -> bool:
    """Claim the row's one entry into the history (False: it has one already)."""
    claimed = session.execute(
        update(InterviewAnswer)
        .where(col(InterviewAnswer.id) == row.id, col(InterviewAnswer.recorded_at).is_(None))
        .values(recorded_at=as_utc(datetime.now(UTC)))
    )
    return getattr(claimed, "rowcount", 1) == 1


async def settle(session: Session, rows: list[InterviewAnswer], graders: Graders) -> None:
    """Before the report: open questions become unanswered. With a drain, answers still to
    grade stay pending for it (an abandoned grading becomes pending again); without one,
    busy gradings get one retry here."""
    for row in rows:
        if row.status == "open":
            row.status = "unanswered"
        elif graders.drain is not None and (row.status == "pending" or abandoned(row)):
            row.status = "pending"
            graders.drain.poke()
        elif graders.drain is None and row.status in ("pending", "grading"):
            try:
                await grade_row(session, row, graders)
            except AnswerInvalid as exc:
                row.status, row.grading_error = "ungraded", exc.message
            if row.status == "pending":
                row.status = "ungraded"
        session.add(row)
