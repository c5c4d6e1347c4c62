"""FSRS review scheduling: outcome -> rating, and which questions are due when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fsrs import Rating
from sqlmodel import Session

from app.models.users import utcnow
from app.services.progress import reviews
from tests.services.quiz.conftest import new_user


@pytest.mark.parametrize(
    ("verdict", "hints", "first_try", "rating"),
    [
        ("correct", 0, True, Rating.Good),
        ("correct", 1, True, Rating.Hard),
        ("correct", 0, False, Rating.Hard),
        ("partial", 0, True, Rating.Again),
        ("incorrect", 0, True, Rating.Again),
        ("error", 0, True, None),
    ],
)
def test_rating_for_maps_outcomes(
    verdict: str, hints: int, first_try: bool, rating: Rating | None
) -> None:
    assert reviews.rating_for(verdict=verdict, hints_used=hints, first_try=first_try) == rating


def test_missed_question_is_due_within_minutes(db: Session) -> None:
    user = new_user(db)
    assert user.id is not None
    reviews.schedule(db, user_id=user.id, question_id="q1", rating=Rating.Again)
    db.commit()
    assert reviews.due_question_ids(db, user_id=user.id) == ["q1"]


def test_first_try_correct_is_not_due_for_days(db: Session) -> None:
    user = new_user(db)
    assert user.id is not None
    row = reviews.schedule(db, user_id=user.id, question_id="q1", rating=Rating.Good)
    db.commit()
    assert reviews.due_question_ids(db, user_id=user.id) == []
    assert row.due - utcnow() > timedelta(days=1)


def test_due_reviews_come_most_overdue_first(db: Session) -> None:
    user = new_user(db)
    assert user.id is not None
    now = utcnow()
    reviews.schedule(db, user_id=user.id, question_id="late", rating=Rating.Again, at=now)
    reviews.schedule(
        db, user_id=user.id, question_id="early", rating=Rating.Again, at=now - timedelta(hours=1)
    )
    db.commit()
    assert reviews.due_question_ids(db, user_id=user.id) == ["early", "late"]


def test_due_reviews_are_per_user(db: Session) -> None:
    alice, bob = new_user(db), new_user(db)
    assert alice.id is not None and bob.id is not None
    reviews.schedule(db, user_id=alice.id, question_id="q1", rating=Rating.Again)
    db.commit()
    assert reviews.due_question_ids(db, user_id=bob.id) == []


def test_second_miss_counts_a_lapse(db: Session) -> None:
    user = new_user(db)
    assert user.id is not None
    reviews.schedule(db, user_id=user.id, question_id="q1", rating=Rating.Again)
    row = reviews.schedule(db, user_id=user.id, question_id="q1", rating=Rating.Again)
    assert (row.reviews, row.lapses) == (2, 1)
