"""JSON API for a learner's progress, attempt history and review queue (cookie identity)."""

from __future__ import annotations

from fastapi import APIRouter, Query
from pydantic import BaseModel

from app.deps import CatalogDep, SessionDep
from app.identity import CurrentUserDep
from app.packs.public import QuestionSummary
from app.services import questions
from app.services.practice.summaries import AttemptView, attempt_view
from app.services.progress import history as progress
from app.services.progress import mastery, reviews
from app.services.progress.mastery import ProgressView

router = APIRouter(prefix="/api", tags=["progress"])


class ReviewQueue(BaseModel):
    due: list[QuestionSummary]
    count: int


@router.get("/progress", response_model=ProgressView)
def get_progress(user: CurrentUserDep, session: SessionDep, catalog: CatalogDep) -> ProgressView:
    return mastery.progress_of(session, catalog, user=user)


@router.get("/progress/attempts", response_model=list[AttemptView])
def list_attempts(
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    question: str | None = Query(default=None, max_length=64),
    limit: int = Query(default=100, ge=1, le=500),
    page: int = Query(default=1, ge=1, le=100_000, description="1-based page of `limit` answers"),
) -> list[AttemptView]:
    assert user.id is not None
    found = progress.attempts_of(
        session, user_id=user.id, limit=limit, question_id=question, offset=(page - 1) * limit
    )
    return [attempt_view(catalog, a) for a in found]


@router.get("/reviews", response_model=ReviewQueue)
def review_queue(user: CurrentUserDep, session: SessionDep, catalog: CatalogDep) -> ReviewQueue:
    assert user.id is not None
    due = reviews.due_question_ids(session, user_id=user.id, served=catalog.questions)
    summaries = [questions.get_question(catalog, q) for q in due]
    return ReviewQueue(due=[QuestionSummary(**s.model_dump()) for s in summaries], count=len(due))
