"""Record graded attempts and read a learner's progress back (mastery, misconceptions, history).

`record_attempt` is the one way an answer enters the history: quiz sessions, review sessions
and interviews all call it, so mastery, the misconception timeline and the FSRS review queue
see every graded answer exactly once.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, func, select

from app.models.progress import Attempt
from app.models.users import User
from app.packs.loader import LoadedQuestion
from app.schemas import GradeResponse
from app.services.progress import reviews


def record_attempt(
    session: Session,
    *,
    user: User,
    question: LoadedQuestion,
    response: GradeResponse,
    answer: Any,
    elapsed_ms: int,
    hints_used: int,
    source: str,
    quiz_session_id: int | None = None,
    commit: bool = True,
) -> Attempt:
    """Store the attempt and review the question's FSRS card with the matching rating."""
    assert user.id is not None
    first_try = quiz_session_id is None or not _answered_in(
        session, quiz_session_id=quiz_session_id, question_id=question.question.id
    )
    attempt = Attempt(
        user_id=user.id,
        quiz_session_id=quiz_session_id,
        source=source,
        question_id=question.question.id,
        question_version=question.version,
        pack_id=question.pack_id,
        topic=question.question.topic,
        qtype=question.question.type,
        answer=answer,
        verdict=response.verdict,
        score=response.score,
        feedback=[f.model_dump() for f in response.feedback],
        misconceptions=list(response.misconceptions),
        details=response.details,
        hints_used=hints_used,
        elapsed_ms=max(0, int(elapsed_ms)),
        grading_ms=response.elapsed_ms,
    )
    session.add(attempt)
    rating = reviews.rating_for(
        verdict=response.verdict, hints_used=hints_used, first_try=first_try
    )
    if rating is not None:
        reviews.schedule(session, user_id=user.id, question_id=attempt.question_id, rating=rating)
    if commit:
        session.commit()
        session.refresh(attempt)
    return attempt


def _answered_in(session: Session, *, quiz_session_id: int, question_id: str) -> bool:
    query = select(Attempt.id).where(
        Attempt.quiz_session_id == quiz_session_id, Attempt.question_id == question_id
    )
    return session.exec(query).first() is not None


def attempts_of(
    session: Session,
    *,
    user_id: int,
    limit: int = 200,
    question_id: str | None = None,
    offset: int = 0,
) -> list[Attempt]:
    """The user's attempts, newest first (never anyone else's), `offset` of them skipped."""
    query = select(Attempt).where(Attempt.user_id == user_id)
    if question_id is not None:
        query = query.where(Attempt.question_id == question_id)
    newest = query.order_by(col(Attempt.created_at).desc(), col(Attempt.id).desc())
    return list(session.exec(newest.offset(offset).limit(limit)).all())


HISTORY_PAGE = 20


def attempts_page(
    session: Session, *, user_id: int, page: int, per_page: int = HISTORY_PAGE
) -> tuple[list[Attempt], int]:
    """One page (1-based) of the user's history, newest first, and the number of pages."""
    total = session.exec(select(func.count()).where(Attempt.user_id == user_id)).one()
    pages = max(1, -(-int(total) // per_page))
    page = min(max(1, page), pages)
    query = (
        select(Attempt)
        .where(Attempt.user_id == user_id)
        .order_by(col(Attempt.created_at).desc(), col(Attempt.id).desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    )
    return list(session.exec(query).all()), pages
