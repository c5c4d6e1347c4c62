"""How a mock interview ends: by the candidate, by running out of questions, or by the clock.

Closing settles what is still open (an unanswered question, a grading the busy sandbox
deferred), builds the report from the stored rows, keeps the overall and per-topic scores
for later comparisons and feeds the answers into the progress history. Reading an expired
interview closes it too, so the deadline holds even when nobody sends another answer.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.clock import as_utc
from app.models.interviews import Interview, InterviewReport
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.interviews import answers
from app.services.interviews.answers import Graders
from app.services.interviews.reports import History, build_report, red_flags

GRACE_SECONDS = 2  # the countdown's last answer may take this long to arrive
HISTORY = 5  # earlier interviews compared in a report


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
    interview.score = report.scores.overall
    interview.topic_scores = {t.topic: t.score for t in report.scores.topics if t.score is not None}
    session.add(interview)
    answers.record_attempts(session, user, rows, graders.catalog)
    session.commit()
    return report


def report_of(session: Session, interview: Interview, catalog: Catalog) -> InterviewReport:
    rows = answers.rows_of(session, interview.id)
    return build_report(interview, rows, catalog, history(session, interview, catalog))


def history(session: Session, interview: Interview, catalog: Catalog) -> History:
    """Earlier interviews to compare with, and the tells they showed (re-read from rows)."""
    earlier = previous(session, interview)
    tells = {
        flag.tell
        for past in earlier
        for flag in red_flags(answers.rows_of(session, past.id), catalog)
        if flag.kind == "tell"
    }
    return History(interviews=earlier, tells=frozenset(tells))
