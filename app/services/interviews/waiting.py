"""The interview use cases as the routes call them: database work in worker threads, waits
for the background drain on the event loop, where they hold no thread.

A code answer is stored pending and graded by the drain (drain.py). Its request waits up to
`Graders.busy_wait_seconds` for that grade, since a passing step brings a harder follow-up,
then serves the next question whatever happened (the grading carries on). A finish, and a
report read, wait as long for the interview's answers still being graded; past that the
report marks them `pending` and a later read includes them. Round 15 waited in the worker
thread itself, so a class's code answers held most of the web threads for up to 90 s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlmodel import Session

from app.clock import Clock
from app.models.interviews import InterviewReport, NextQuestion
from app.models.users import User
from app.offload import in_thread, offload
from app.services.interviews import lifecycle
from app.services.interviews.answers import Graders


async def submit_answer(
    session: Session,
    *,
    graders: Graders,
    user: User,
    interview_id: str,
    question_id: str,
    answer: object,
    clock: Clock,
) -> NextQuestion:
    """Store the answer, give the drain a bounded while to grade it, serve what is next."""
    taken = await offload(
        lifecycle.take,
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        question_id=question_id,
        answer=answer,
        clock=clock,
    )
    if taken.queued and graders.drain is not None:
        await graders.drain.wait({taken.row_id}, graders.busy_wait_seconds)
    return await offload(
        lifecycle.move_on,
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        taken=taken,
        clock=clock,
    )


async def finish_interview(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewReport:
    """End the interview; the report once its answers are graded (or the wait is over)."""
    return await _graded(
        session, lifecycle.finish_interview, interview_id, graders=graders, user=user, clock=clock
    )


async def get_report(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewReport:
    """The report (409 while the interview runs), waiting as a finish does."""
    return await _graded(
        session, lifecycle.get_report, interview_id, graders=graders, user=user, clock=clock
    )


async def _graded(
    session: Session,
    read: Callable[..., Awaitable[InterviewReport]],
    interview_id: str,
    *,
    graders: Graders,
    user: User,
    clock: Clock,
) -> InterviewReport:
    """`read` (a finish or a report read) in a thread, then the wait for its pending answers."""
    report = await offload(
        read, session, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    if not report.scores.grading or graders.drain is None:
        return report
    waiting = await in_thread(lifecycle.grading_ids, session, user=user, interview_id=report.id)
    await graders.drain.wait(waiting, graders.busy_wait_seconds)
    session.expire_all()  # the drain stored its grades through its own sessions
    return await offload(
        lifecycle.get_report,
        session,
        graders=graders,
        user=user,
        interview_id=report.id,
        clock=clock,
    )
