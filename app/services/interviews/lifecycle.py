"""Mock interviews: start one, answer against a server-side deadline, finish, read the report.

The server owns time (an injectable Clock): an answer that arrives after the deadline (plus a
short grace for the network) is refused and the interview finishes itself; any later access
to an expired interview finishes it too. An answer is stored when it arrives and graded at
once, or (code, with the server's background drain) soon after: the next question depends
on it, so the answer's request waits a bounded time for that grade (waiting.py, holding no
thread) and the clock stops meanwhile; the result is stored and never returned until the
report. Storage, grading and recording of answers live in answers.py, the background
grading in drain.py, endings in endings.py, the choice of questions in plans.py.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.clock import Clock, as_utc
from app.errors import AnswerInvalid, Conflict, NotFound
from app.models.interviews import (
    Interview,
    InterviewAnswer,
    InterviewQuestion,
    InterviewReport,
    InterviewStarted,
    InterviewStatus,
    NextQuestion,
)
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.services import questions
from app.services.interviews import answers, endings, followups, plans
from app.services.interviews.answers import Graders

log = logging.getLogger("tapequiz.interviews")


class DeadlinePassed(Conflict):
    code = "deadline_passed"


def _public(catalog: Catalog, row: InterviewAnswer) -> InterviewQuestion:
    detail = questions.get_question(catalog, row.question_id)
    return InterviewQuestion(**detail.model_dump(), position=row.position)


def _owned(session: Session, user: User, interview_id: str) -> Interview:
    """The interview if it belongs to this user; anyone else learns nothing (404)."""
    interview = session.get(Interview, interview_id[:32])
    if interview is None or interview.user_id != user.id:
        raise NotFound(f"no interview with id {interview_id[:32]!r}")
    return interview


def _minutes_left(interview: Interview, now: datetime) -> float:
    return max(0.0, (as_utc(interview.ends_at) - as_utc(now)).total_seconds() / 60)


def _serve(
    session: Session, interview: Interview, choice: plans.Choice, position: int, now: datetime
) -> InterviewAnswer:
    row = InterviewAnswer(
        interview_id=interview.id,
        position=position,
        question_id=choice.item.question.id,
        question_version=choice.item.version,
        kind=choice.kind,
        reason=choice.reason[:300],
        served_at=as_utc(now),
    )
    session.add(row)
    return row


def _may_follow_up(interview: Interview, outcome: plans.Outcome) -> bool:
    """Follow-ups on warm-ups never use those kept for half the explanations and code left."""
    if outcome.kind != "warm-up":
        return interview.followups_left > 0
    weighty = sum(1 for kind in interview.plan if kind != "warm-up")
    return interview.followups_left > weighty // 2


def _next_choice(
    interview: Interview,
    pool: list[LoadedQuestion],
    *,
    asked: set[str],
    basis: list[followups.Basis],
    now: datetime,
) -> plans.Choice | None:
    """A follow-up when one is due on an answer of `basis` and fits, else the next planned
    slot that fits."""
    left = _minutes_left(interview, now)
    rng = random.Random(f"{interview.id}:{len(asked)}")  # noqa: S311 (variety, not secrecy)
    for weighed in basis:
        if not _may_follow_up(interview, weighed.outcome):
            continue
        choice = plans.choose_followup(weighed.outcome, pool, asked=asked, minutes_left=left)
        if choice is not None:
            interview.followups_left -= 1
            return replace(choice, reason=weighed.preface + choice.reason)
    while interview.plan:
        kind, interview.plan = interview.plan[0], list(interview.plan[1:])
        choice = plans.pick_for_slot(
            kind, pool, asked=asked, difficulty=interview.difficulty, minutes_left=left, rng=rng
        ) or plans.pick_filler(
            pool, asked=asked, difficulty=interview.difficulty, minutes_left=left, rng=rng
        )
        if choice is not None:
            return choice
    return None


async def start_interview(
    session: Session,
    *,
    graders: Graders,
    user: User,
    pack: str,
    minutes: int,
    difficulty: str | None,
    clock: Clock,
) -> InterviewStarted:
    if minutes not in plans.LENGTHS:
        raise AnswerInvalid(f"minutes must be one of {', '.join(map(str, plans.LENGTHS))}")
    if difficulty not in (None, *plans.DIFFICULTY_RANK):
        raise AnswerInvalid("difficulty must be easy, medium or hard (or left out)")
    if pack not in graders.catalog.packs:
        raise NotFound(f"no pack with id {pack[:80]!r}")
    now = clock.now()
    await endings.finish_expired(session, graders=graders, user=user, now=now)
    assert user.id is not None
    interview = Interview(
        id=secrets.token_hex(8),
        user_id=user.id,
        pack_id=pack,
        minutes=minutes,
        difficulty=difficulty,
        started_at=as_utc(now),
        ends_at=as_utc(now + timedelta(minutes=minutes)),
        plan=list(plans.PLANS[minutes]),
        followups_left=plans.FOLLOWUPS[minutes],
    )
    pool = plans.pack_pool(graders.catalog.questions.values(), pack)
    choice = _next_choice(interview, pool, asked=set(), basis=[], now=now)
    if choice is None:
        raise Conflict(f"pack {pack!r} has no question that fits a {minutes}-minute interview")
    session.add(interview)
    row = _serve(session, interview, choice, 0, now)
    session.commit()
    return InterviewStarted(
        id=interview.id,
        ends_at=as_utc(interview.ends_at),
        question=_public(graders.catalog, row),
    )


@dataclass(frozen=True)
class Taken:
    """An answer stored (and, unless queued for the drain, graded) by `take`."""

    row_id: int
    queued: bool  # pending: the background drain grades it
    now: datetime  # when it was taken (the interview clock stops from here)
    matters: bool = True  # the next question may rest on its grade (worth waiting for)


async def take(
    session: Session,
    *,
    graders: Graders,
    user: User,
    interview_id: str,
    question_id: str,
    answer: object,
    clock: Clock,
) -> Taken:
    """Store the answer to the current question (`None` skips it) and grade it, or leave it
    pending for the drain; a malformed answer is a 422 and stores nothing."""
    interview = _owned(session, user, interview_id)
    now = clock.now()
    await _refuse_if_over(session, interview, graders=graders, user=user, now=now)
    current = _current(session, interview, question_id)
    await answers.take_answer(session, current, graders, answer=answer, now=now)
    session.refresh(interview)
    if interview.finished_at is not None and current.status == "graded":
        endings.graded_late(session, current, graders.catalog)  # a finish came meanwhile
    assert current.id is not None
    queued = current.status == "pending"
    matters = queued and _grade_can_matter(session, interview, current, graders.catalog, now)
    return Taken(row_id=current.id, queued=queued, now=now, matters=matters)


def _grade_can_matter(
    session: Session, interview: Interview, row: InterviewAnswer, catalog: Catalog, now: datetime
) -> bool:
    """Whether the next question may rest on this answer's grade: a follow-up is still
    allowed after it and an unasked question fits the time left. Otherwise its request need
    not wait for the grade (round 17: most of a class's code answers were an interview's
    last, its follow-up spent, and each waited the whole 15 s for nothing)."""
    outcome = answers.outcome_of(row, catalog)
    if outcome is None or not _may_follow_up(interview, outcome):
        return False
    pool = plans.pack_pool(catalog.questions.values(), interview.pack_id)
    asked = {r.question_id for r in answers.rows_of(session, interview.id)}
    left = _minutes_left(interview, now)
    return any(i.question.id not in asked and plans.minutes_for(i) <= left for i in pool)


async def move_on(
    session: Session, *, graders: Graders, user: User, interview_id: str, taken: Taken, clock: Clock
) -> NextQuestion:
    """After `take` (and any wait for the drain): the next question, or null at the end."""
    interview = _owned(session, user, interview_id)
    session.refresh(interview)  # another request may have finished it meanwhile
    if interview.finished_at is not None:
        return NextQuestion(next=None)
    if as_utc(taken.now) >= as_utc(interview.ends_at):  # taken in the grace: the clock ended it
        await endings.close(
            session, interview, graders=graders, user=user, now=taken.now, reason="deadline"
        )
        return NextQuestion(next=None)
    # The clock stops while the answer is graded: sandboxed code can take seconds, and
    # that is the server's time, not the candidate's.
    interview.ends_at = as_utc(interview.ends_at) + (clock.now() - taken.now)
    rows = answers.rows_of(session, interview.id)
    if rows[-1].id != taken.row_id:  # a read of the interview moved it on meanwhile (_resume)
        session.rollback()
        latest = rows[-1] if rows[-1].status == "open" else None
        return NextQuestion(next=_public(graders.catalog, latest) if latest else None)
    return await _advance(session, interview, rows, graders=graders, user=user, clock=clock)


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
    """Record (and quietly grade) the answer to the current question; `None` skips it.
    Routes use waiting.submit_answer, which waits for the drain holding no thread."""
    taken = await take(
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        question_id=question_id,
        answer=answer,
        clock=clock,
    )
    return await move_on(
        session, graders=graders, user=user, interview_id=interview_id, taken=taken, clock=clock
    )


async def _refuse_if_over(
    session: Session, interview: Interview, *, graders: Graders, user: User, now: datetime
) -> None:
    """409 after the finish; after the deadline, finish the interview first, then refuse."""
    if interview.finished_at is not None:
        raise Conflict("this interview is finished: answers are no longer accepted")
    if not endings.expired(interview, now):
        return
    await endings.close(session, interview, graders=graders, user=user, now=now, reason="deadline")
    late = (as_utc(now) - as_utc(interview.ends_at)).total_seconds()
    raise DeadlinePassed(
        f"Time is up: the interview ended at {as_utc(interview.ends_at):%H:%M:%S} UTC and "
        f"this answer arrived {late:.0f} s later, so it was not recorded. The interview "
        "has finished itself; its report is ready."
    )


def _current(session: Session, interview: Interview, question_id: str) -> InterviewAnswer:
    current = answers.rows_of(session, interview.id)[-1]
    if current.status != "open" or current.question_id != question_id:
        raise Conflict(
            f"question {question_id[:64]!r} is not the one being asked; "
            f"the current question is {current.question_id!r}"
        )
    return current


async def _advance(
    session: Session,
    interview: Interview,
    rows: list[InterviewAnswer],
    *,
    graders: Graders,
    user: User,
    clock: Clock,
) -> NextQuestion:
    now = clock.now()  # grading may have taken a while
    pool = plans.pack_pool(graders.catalog.questions.values(), interview.pack_id)
    basis = list(followups.weighable(rows, graders.catalog))
    last = answers.outcome_of(rows[-1], graders.catalog)
    could_follow = last is not None and _may_follow_up(interview, last)
    asked = {r.question_id for r in rows}
    choice = _next_choice(interview, pool, asked=asked, basis=basis, now=now)
    if choice is None:
        await endings.close(
            session, interview, graders=graders, user=user, now=now, reason="completed"
        )
        return NextQuestion(next=None)
    if could_follow:  # else nothing could rest on the last answer, graded or not
        choice = replace(choice, reason=followups.awaited_note(rows) + choice.reason)
    for weighed in basis:  # each answer is weighed once, on its settled result
        weighed.row.weighed = True
        session.add(weighed.row)
    session.add(interview)
    if not _still_running(session, interview):
        session.rollback()  # finished by another request while this answer was graded
        return NextQuestion(next=None)
    served = _served_at(session, interview, len(rows))
    if served is not None:  # another request advanced first (a resumed grading, below)
        session.rollback()
        return NextQuestion(next=_public(graders.catalog, served))
    row = _serve(session, interview, choice, len(rows), now)
    session.commit()
    return NextQuestion(next=_public(graders.catalog, row))


def _served_at(session: Session, interview: Interview, position: int) -> InterviewAnswer | None:
    query = select(InterviewAnswer).where(
        InterviewAnswer.interview_id == interview.id, InterviewAnswer.position == position
    )
    return session.exec(query).first()


def _stalled(last: InterviewAnswer) -> bool:
    """The interview runs but nothing will move it on: its last answer's grading died with
    its process, or it was stored and the request that should have served the next question
    failed after that (a locked database answered 503)."""
    return answers.abandoned(last) or last.status in ("graded", "skipped", "ungraded", "pending")


async def _resume(
    session: Session,
    interview: Interview,
    rows: list[InterviewAnswer],
    *,
    graders: Graders,
    user: User,
    clock: Clock,
) -> None:
    """Grade an answer whose grading died (a restart mid-interview) and serve the next
    question, as the answer's own request would have. Without this the interview shows no
    question until its deadline. A request still serving it meanwhile is harmless: the
    second to serve finds the first one's question (_served_at)."""
    if rows[-1].status == "grading" and graders.drain is not None:
        answers.settle_grading(session, rows[-1], status="pending")  # the drain grades it
        graders.drain.poke()
    elif rows[-1].status == "grading":
        try:
            await answers.regrade(session, rows[-1], graders)
        except AnswerInvalid:
            return  # the question is open again
    session.refresh(interview)
    if interview.finished_at is None and rows[-1].status != "open":
        await _advance(session, interview, rows, graders=graders, user=user, clock=clock)


def _still_running(session: Session, interview: Interview) -> bool:
    """Hold the interview's row for this transaction if nobody has finished it: a finish
    that claimed it first would never see (or settle) a question served after its report."""
    held = session.execute(
        update(Interview)
        .where(col(Interview.id) == interview.id, col(Interview.finished_at).is_(None))
        .values(ends_at=as_utc(interview.ends_at))
    )
    return getattr(held, "rowcount", 1) == 1


async def finish_interview(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewReport:
    """End the interview now (idempotent: a finished one just returns its report)."""
    interview = _owned(session, user, interview_id)
    if interview.finished_at is not None:
        return endings.report_of(session, interview, graders.catalog)
    now = clock.now()
    reason = "deadline" if endings.expired(interview, now) else "candidate"
    return await endings.close(
        session, interview, graders=graders, user=user, now=now, reason=reason
    )


async def get_report(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewReport:
    interview = _owned(session, user, interview_id)
    if interview.finished_at is None:
        now = clock.now()
        if not endings.expired(interview, now):
            raise Conflict("the interview is still running: finish it first to see the report")
        return await endings.close(
            session, interview, graders=graders, user=user, now=now, reason="deadline"
        )
    return endings.report_of(session, interview, graders.catalog)


async def get_status(
    session: Session, *, graders: Graders, user: User, interview_id: str, clock: Clock
) -> InterviewStatus:
    """Where the interview stands (finishing it if its time ran out meanwhile)."""
    interview = _owned(session, user, interview_id)
    now = clock.now()
    if interview.finished_at is None and endings.expired(interview, now):
        await endings.close(
            session, interview, graders=graders, user=user, now=now, reason="deadline"
        )
    rows = answers.rows_of(session, interview.id)
    if interview.finished_at is None and rows and _stalled(rows[-1]):
        await _resume(session, interview, rows, graders=graders, user=user, clock=clock)
        rows = answers.rows_of(session, interview.id)
    current = rows[-1] if rows and rows[-1].status == "open" else None
    running = interview.finished_at is None
    return InterviewStatus(
        id=interview.id,
        pack=interview.pack_id,
        minutes=interview.minutes,
        difficulty=interview.difficulty,
        started_at=as_utc(interview.started_at),
        ends_at=as_utc(interview.ends_at),
        remaining_seconds=round(_minutes_left(interview, now) * 60, 1) if running else 0.0,
        finished=not running,
        question=_public(graders.catalog, current) if current and running else None,
        answered=sum(1 for r in rows if r.status != "open"),
    )


@dataclass(frozen=True)
class ListedInterview:
    """One row of "Your interviews": the interview and how many of its answers are still
    being graded (its stored score leaves them out, so it is not final while any is)."""

    interview: Interview
    grading: int


def list_interviews(session: Session, *, user: User, limit: int = 20) -> list[ListedInterview]:
    query = (
        select(Interview)
        .where(Interview.user_id == user.id)
        .order_by(col(Interview.started_at).desc())
        .limit(limit)
    )
    found = list(session.exec(query).all())
    grading = endings.still_grading(session, [i.id for i in found])
    return [ListedInterview(interview=i, grading=grading.get(i.id, 0)) for i in found]
