"""The interview use cases as the routes call them: database work in worker threads, waits
for the background drain on the event loop, where they hold no thread.

A code answer is stored pending and graded by the drain (drain.py). Its request waits up to
`Graders.busy_wait_seconds` for that grade, since a passing step brings a harder follow-up,
then serves the next question whatever happened (the grading carries on); it does not wait
when no follow-up could come of it (none left, or no time for one). A finish and a
report read do not wait: the report marks the answers still being graded (`pending`,
`scores.grading`) and a later read includes them; the report page reads itself again until
they are in. Round 16 made a finish wait up to the same 15 s, and with a class finishing at
once that was every finish (p50 0.14 s -> 15.4 s, benchmarks/class_interviews.py). Round 15
waited in the worker thread itself, so a class's code answers held most of the web threads
for up to 90 s.
"""

from __future__ import annotations

from sqlmodel import Session

from app.clock import Clock
from app.models.interviews import InterviewReport, NextQuestion
from app.models.users import User
from app.offload import offload
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
    if taken.queued and taken.matters and graders.drain is not None:
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
    """End the interview; the report at once, its answers still being graded marked so."""
    return await offload(
        lifecycle.finish_interview,
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        clock=clock,
    )


async def get_report(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewReport:
    """The report as stored now (409 while the interview runs); read it again for answers
    it marks as still being graded (`scores.grading`)."""
    return await offload(
        lifecycle.get_report,
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        clock=clock,
    )
