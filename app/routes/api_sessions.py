"""JSON API for quiz sessions: the same use cases as the pages, with the same cookie identity.

Writes need `Content-Type: application/json` (see app/identity.py for why that is the CSRF
defence here) and are rate limited like the pages.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.deps import CatalogDep, CodeGraderDep, RowId, SessionDep
from app.identity import CurrentUserDep, GradeLimitDep, JsonBodyDep
from app.offload import offloaded
from app.schemas import ErrorBody, Hint, RequestBody
from app.services.practice import sessions
from app.services.practice.summaries import (
    AttemptView,
    SessionView,
    SummaryView,
    attempt_view,
    session_view,
    summarize_session,
)

router = APIRouter(prefix="/api/sessions", tags=["sessions"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "Not JSON (CSRF guard)"},
    404: {"model": ErrorBody, "description": "No such session for this identity"},
    409: {"model": ErrorBody, "description": "Session finished, or nothing due for review"},
    422: {"model": ErrorBody, "description": "Malformed request or answer"},
}


class StartRequest(RequestBody):
    mode: Literal["practice", "review"] = "practice"
    pack: str | None = Field(default=None, max_length=64)
    topic: str | None = Field(default=None, max_length=64)
    type: str | None = Field(default=None, max_length=32)
    count: int = Field(default=10, ge=1, le=30)
    question_ids: list[str] | None = Field(default=None, max_length=30)


class StartedSession(SessionView):
    requested: int = Field(
        description="How many questions were asked for (`count`, or the number of distinct"
        " `question_ids`); `total` is how many the session has: fewer when fewer match or"
        " are due."
    )


class AnswerRequest(RequestBody):
    answer: Any = Field(description="Same shapes as POST /api/questions/{id}/grade.")
    question_id: str | None = Field(
        default=None, max_length=64, description="If given, must be the current question."
    )


class AnswerResult(BaseModel):
    attempt: AttemptView
    session: SessionView


@router.post(
    "", response_model=StartedSession, status_code=201, responses=ERRORS, dependencies=[JsonBodyDep]
)
def start(
    body: StartRequest, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep
) -> StartedSession:
    if body.mode == "review":
        quiz = sessions.start_review(session, catalog, user=user, count=body.count)
    else:
        quiz = sessions.start_session(
            session,
            catalog,
            user=user,
            pack=body.pack,
            topic=body.topic,
            qtype=body.type,
            count=body.count,
            question_ids=body.question_ids,
        )
    asked = body.count
    if body.mode == "practice" and body.question_ids is not None:
        asked = len(set(body.question_ids))
    return StartedSession(**session_view(catalog, quiz).model_dump(), requested=asked)


@router.get("/{session_id}", response_model=SessionView, responses=ERRORS)
def get(
    session_id: RowId, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep
) -> SessionView:
    quiz, _item = sessions.show_current(session, catalog, user=user, session_id=session_id)
    return session_view(catalog, quiz)


@router.post(
    "/{session_id}/answers",
    response_model=AnswerResult,
    status_code=201,
    responses={
        **ERRORS,
        429: {"model": ErrorBody, "description": "Too many answers; see Retry-After"},
        501: {"model": ErrorBody, "description": "No grader for this type on this server"},
        503: {"model": ErrorBody, "description": "Grading queue full; see Retry-After"},
    },
    dependencies=[JsonBodyDep, GradeLimitDep],
)
@offloaded
async def answer(
    session_id: RowId,
    body: AnswerRequest,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> AnswerResult:
    attempt = await sessions.answer_current(
        session,
        catalog,
        user=user,
        session_id=session_id,
        answer=body.answer,
        code_grader=code_grader,
        question_id=body.question_id,
    )
    quiz = sessions.get_session(session, user=user, session_id=session_id)
    return AnswerResult(attempt=attempt_view(catalog, attempt), session=session_view(catalog, quiz))


@router.post(
    "/{session_id}/hints", response_model=Hint, responses=ERRORS, dependencies=[JsonBodyDep]
)
def hint(session_id: RowId, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep) -> Hint:
    return sessions.reveal_hint(session, catalog, user=user, session_id=session_id)


@router.get("/{session_id}/summary", response_model=SummaryView, responses=ERRORS)
def summary(
    session_id: RowId, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep
) -> SummaryView:
    return summarize_session(session, catalog, user=user, session_id=session_id)
