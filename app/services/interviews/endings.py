"""How a mock interview ends: by the candidate, by running out of questions, or by the clock.

Closing settles what is still open (an unanswered question becomes a miss; an answer the
background drain has not graded yet stays pending and is marked so in the report), builds
the report from the stored rows, keeps the overall and per-topic scores for later
comparisons and feeds the answers into the progress history. An answer graded after the
finish enters the history then, and the stored scores follow (graded_late). Reading an
expired interview closes it too, so the deadline holds even when nobody sends another answer.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.clock import as_utc
from app.models.interviews import Interview, InterviewAnswer, InterviewReport
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.interviews import answers
from app.services.interviews.answers import Graders
from app.services.interviews.reports import History, build_report, red_flags

GRACE_SECONDS = 2  # the countdown's last answer may take this long to arrive
HISTORY = 5  # earlier interviews compared in a report
GRADING_STATUSES = ("pending", "grading")  # stored, the drain has not graded it yet


def expired(interview: Interview, now: datetime) -> bool:
    """Past the deadline and the grace: no answer is taken any more."""
    return as_utc(now) > as_utc(interview.ends_at) + timedelta(seconds=GRACE_SECONDS)


async def finish_expired(session: Session, *, graders: Graders, user: User, now: datetime) -> None:
    """Close this user's interviews whose time ran out while nobody was looking."""
    query = select(Interview).where(
        Interview.user_id == user.id,
        col(Interview.finished_at).is_(None),
        Interview.ends_at < as_utc(now - timedelta(seconds=GRACE_SECONDS)),
    )
    for interview in session.exec(query).all():
        await close(session, interview, graders=graders, user=user, now=now, reason="deadline")


def previous(session: Session, interview: Interview) -> list[Interview]:
    """The same user's earlier finished interviews on the same pack, newest first."""
    query = (
        select(Interview)
        .where(
            Interview.user_id == interview.user_id,
            Interview.pack_id == interview.pack_id,
            Interview.id != interview.id,
            col(Interview.finished_at).is_not(None),
            Interview.started_at < interview.started_at,
        )
        .order_by(col(Interview.started_at).desc())
        .limit(HISTORY)
    )
    return list(session.exec(query).all())


async def close(
    session: Session,
    interview: Interview,
    *,
    graders: Graders,
    user: User,
    now: datetime,
    reason: str,
) -> InterviewReport:
    """Finish now (reason: candidate | completed | deadline) and return the report.

    The finish is claimed with one conditional UPDATE, so two requests finishing at once
    (the clock and the candidate, two tabs) record the answers once."""
    ended = min(as_utc(now), as_utc(interview.ends_at)) if reason == "deadline" else now
    claimed = session.execute(
        update(Interview)
        .where(col(Interview.id) == interview.id, col(Interview.finished_at).is_(None))
        .values(finished_at=as_utc(ended), finish_reason=reason)
    )
    session.commit()
    session.refresh(interview)
    if getattr(claimed, "rowcount", 1) != 1:
        return report_of(session, interview, graders.catalog)
    rows = answers.rows_of(session, interview.id)
    await answers.settle(session, rows, graders)
    report = build_report(
        interview, rows, graders.catalog, history(session, interview, graders.catalog)
    )
    _keep_scores(interview, report)
    session.add(interview)
    answers.record_attempts(session, user, rows, graders.catalog)
    session.commit()
    return report


def _keep_scores(interview: Interview, report: InterviewReport) -> bool:
    """Store the report's scores on the interview (for comparisons); True if they changed."""
    scores = {t.topic: t.score for t in report.scores.topics if t.score is not None}
    if interview.score == report.scores.overall and interview.topic_scores == scores:
        return False
    interview.score, interview.topic_scores = report.scores.overall, scores
    return True


def report_of(session: Session, interview: Interview, catalog: Catalog) -> InterviewReport:
    """The report from the stored rows; the stored scores follow it if an answer graded
    after the finish changed it (the drain's own update may have raced the finish's)."""
    rows = answers.rows_of(session, interview.id)
    if interview.finished_at is not None:
        _record_cut_off(session, interview, rows, catalog)
    report = build_report(interview, rows, catalog, history(session, interview, catalog))
    if interview.finished_at is not None and _keep_scores(interview, report):
        session.add(interview)
        session.commit()
    return report


def _record_cut_off(
    session: Session, interview: Interview, rows: list[InterviewAnswer], catalog: Catalog
) -> None:
    """A finish commits its claim first; killed (or refused a locked database) before its
    answers entered the history, nothing would finish it again, and they were lost from the
    learner's progress (round 17, benchmarks/class_interviews.py). Any read of the report
    records them; `recorded_at` keeps it to once, whoever gets there first."""
    missed = [r for r in rows if r.status in ("graded", "skipped") and r.recorded_at is None]
    user = session.get(User, interview.user_id) if missed else None
    if user is None:
        return
    answers.record_attempts(session, user, missed, catalog)
    session.commit()


def graded_late(session: Session, row: InterviewAnswer, catalog: Catalog) -> None:
    """Commit a grading stored into `row`; if its interview had finished, the answer enters
    the history in that same commit (a crash cannot leave it graded but unrecorded) and
    the stored scores follow."""
    interview = session.get(Interview, row.interview_id)
    user = session.get(User, interview.user_id) if interview is not None else None
    finished = interview is not None and interview.finished_at is not None
    if finished and user is not None:
        answers.record_attempts(session, user, [row], catalog)
    session.commit()
    if finished and interview is not None:
        report_of(session, interview, catalog)


def history(session: Session, interview: Interview, catalog: Catalog) -> History:
    """Earlier interviews to compare with, and the tells they showed (re-read from rows)."""
    earlier = previous(session, interview)
    tells = {
        flag.tell
        for past in earlier
        for flag in red_flags(answers.rows_of(session, past.id), catalog)
        if flag.kind == "tell"
    }
    grading = still_grading(session, [p.id for p in earlier])
    return History(interviews=earlier, tells=frozenset(tells), grading=grading)


def still_grading(session: Session, interview_ids: list[str]) -> dict[str, int]:
    """By interview id, its answers the drain has not graded yet (absent: none). Their
    stored score leaves those out, so it is not final while any is."""
    if not interview_ids:
        return {}
    query = (
        select(InterviewAnswer.interview_id, func.count())
        .where(
            col(InterviewAnswer.interview_id).in_(interview_ids),
            col(InterviewAnswer.status).in_(GRADING_STATUSES),
        )
        .group_by(col(InterviewAnswer.interview_id))
    )
    return {interview_id: count for interview_id, count in session.exec(query).all()}
