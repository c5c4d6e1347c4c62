"""What a learner did: quiz sessions, graded attempts and the FSRS review state per question.

Attempts keep the answer, the grader's full verdict and the question version they were graded
against, so history stays truthful after a pack is edited. Review state holds one FSRS card
per (user, question); the scheduler itself lives in app/services/progress/reviews.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.models.users import utcnow


class QuizSession(SQLModel, table=True):
    __tablename__ = "quiz_session"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    mode: str = Field(default="practice", max_length=20)  # practice | review
    pack_id: str | None = Field(default=None, max_length=64)
    topic: str | None = Field(default=None, max_length=64)
    qtype: str | None = Field(default=None, max_length=32)
    question_ids: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    position: int = Field(default=0)
    hints_shown: int = Field(default=0)  # hints revealed for the current question
    shown_at: datetime | None = Field(default=None)  # when the current question was first shown
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = Field(default=None)


class Attempt(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    quiz_session_id: int | None = Field(
        default=None, foreign_key="quiz_session.id", index=True, ondelete="SET NULL"
    )
    source: str = Field(default="quiz", max_length=20)  # quiz | interview | review
    question_id: str = Field(index=True, max_length=64)
    question_version: str = Field(max_length=64)
    pack_id: str = Field(max_length=64)
    topic: str = Field(max_length=64)
    qtype: str = Field(max_length=32)
    answer: Any = Field(default=None, sa_column=Column(JSON))
    verdict: str = Field(max_length=20)
    score: float = Field(default=0.0)
    feedback: list[dict[str, str]] = Field(default_factory=list, sa_column=Column(JSON))
    misconceptions: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    details: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    hints_used: int = Field(default=0)
    elapsed_ms: int = Field(default=0)  # time the learner took to answer
    grading_ms: float = Field(default=0.0)
    created_at: datetime = Field(default_factory=utcnow, index=True)


class ReviewState(SQLModel, table=True):
    """One FSRS card: the columns mirror fsrs.Card so due reviews are a plain indexed query."""

    __tablename__ = "review_state"
    __table_args__ = (UniqueConstraint("user_id", "question_id"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    question_id: str = Field(max_length=64)
    state: int = Field(default=1)
    step: int | None = Field(default=0)
    stability: float | None = Field(default=None)
    difficulty: float | None = Field(default=None)
    due: datetime = Field(default_factory=utcnow, index=True)
    last_review: datetime | None = Field(default=None)
    last_rating: int | None = Field(default=None)
    reviews: int = Field(default=0)
    lapses: int = Field(default=0)
