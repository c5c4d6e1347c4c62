"""Spaced review with FSRS: turn a graded attempt into a rating and schedule the question.

The scheduling maths is the `fsrs` package's; this module only maps outcomes to ratings
(first-try correct -> Good, correct after hints or a retry -> Hard, partial or incorrect ->
Again) and keeps each card in a `ReviewState` row.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import ColumnElement
from sqlmodel import Session, col, func, select

from app.clock import as_utc
from app.models.progress import ReviewState
from app.models.users import utcnow

# One short learning step: a first-try correct answer graduates straight to a multi-day
# interval, while a miss (or a hinted answer) comes back within minutes. No fuzzing, so
# schedules are deterministic and testable.
_scheduler = Scheduler(
    enable_fuzzing=False,
    learning_steps=(timedelta(minutes=1),),
    relearning_steps=(timedelta(minutes=10),),
)
# Like Anki's "learn ahead" limit: cards in (re)learning due within this window are offered
# now, so a question missed a minute ago is already in the review queue.
LEARN_AHEAD = timedelta(minutes=20)


def rating_for(*, verdict: str, hints_used: int, first_try: bool) -> Rating | None:
    """None for "error": a grader that could not grade says nothing about memory."""
    if verdict == "correct":
        return Rating.Good if hints_used == 0 and first_try else Rating.Hard
    if verdict in ("partial", "incorrect"):
        return Rating.Again
    return None


def _card(state: ReviewState) -> Card:
    return Card(
        state=State(state.state),
        step=state.step,
        stability=state.stability,
        difficulty=state.difficulty,
        due=state.due,
        last_review=state.last_review,
    )


def schedule(
    session: Session, *, user_id: int, question_id: str, rating: Rating, at: datetime | None = None
) -> ReviewState:
    """Review the user's card for this question (creating it on first sight); no commit."""
    found = session.exec(
        select(ReviewState).where(
            ReviewState.user_id == user_id, ReviewState.question_id == question_id
        )
    ).first()
    row = found or ReviewState(user_id=user_id, question_id=question_id)
    card = Card() if found is None else _card(found)
    card, _log = _scheduler.review_card(card, rating, review_datetime=at or utcnow())
    row.state, row.step = int(card.state), card.step
    row.stability, row.difficulty = card.stability, card.difficulty
    row.due, row.last_review = card.due, card.last_review
    row.last_rating, row.reviews = int(rating), row.reviews + 1
    row.lapses += int(rating == Rating.Again and found is not None)
    session.add(row)
    return row


def _cards(user_id: int, served: Collection[str] | None) -> list[ColumnElement[bool]]:
    """The user's cards, of the questions still served when `served` is given: a question
    withdrawn (or dropped by a newer pack version) keeps its card but is neither due nor
    counted, so the counts agree with the queue a learner can actually start."""
    found: list[ColumnElement[bool]] = [col(ReviewState.user_id) == user_id]
    if served is not None:
        found.append(col(ReviewState.question_id).in_(list(served)))
    return found


def due_question_ids(
    session: Session,
    *,
    user_id: int,
    now: datetime | None = None,
    limit: int = 50,
    served: Collection[str] | None = None,
) -> list[str]:
    """Questions due for review, most overdue first."""
    query = (
        select(ReviewState.question_id)
        .where(*_cards(user_id, served), ReviewState.due <= (now or utcnow()) + LEARN_AHEAD)
        .order_by(col(ReviewState.due))
        .limit(limit)
    )
    return list(session.exec(query).all())


def due_count(
    session: Session,
    *,
    user_id: int,
    now: datetime | None = None,
    served: Collection[str] | None = None,
) -> int:
    query = select(func.count()).where(
        *_cards(user_id, served), ReviewState.due <= (now or utcnow()) + LEARN_AHEAD
    )
    return int(session.exec(query).one())


def next_due(
    session: Session, *, user_id: int, served: Collection[str] | None = None
) -> datetime | None:
    query = select(func.min(ReviewState.due)).where(*_cards(user_id, served))
    return session.exec(query).one()


@dataclass(frozen=True)
class Forecast:
    """How much review is coming: due now, within a day, within a week, and what is next."""

    due_now: int
    within_day: int
    within_week: int
    upcoming: list[tuple[str, datetime, float]]  # (question id, due, interval in days)


def forecast(
    session: Session,
    *,
    user_id: int,
    now: datetime | None = None,
    served: Collection[str] | None = None,
) -> Forecast:
    moment = now or utcnow()
    rows = list(session.exec(select(ReviewState).where(*_cards(user_id, served))).all())
    dues = [(r, as_utc(r.due)) for r in rows if r.due is not None]
    soon = sorted((d, r) for r, d in dues if d > moment + LEARN_AHEAD)
    return Forecast(
        due_now=sum(1 for _, d in dues if d <= moment + LEARN_AHEAD),
        within_day=sum(1 for _, d in dues if d <= moment + timedelta(days=1)),
        within_week=sum(1 for _, d in dues if d <= moment + timedelta(days=7)),
        upcoming=[(r.question_id, d, _interval_days(r)) for d, r in soon[:8]],
    )


def _interval_days(row: ReviewState) -> float:
    if row.last_review is None or row.due is None:
        return 0.0
    return round((as_utc(row.due) - as_utc(row.last_review)).total_seconds() / 86400, 1)
