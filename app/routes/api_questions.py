"""JSON API over packs and questions: browse, read one question, get hints, grade an answer."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request

from app.deps import CatalogDep, CodeGraderDep, SessionDep
from app.errors import Conflict
from app.identity import GradeLimitByClientDep, UniqueKeysDep, claimed_user_id
from app.offload import offloaded
from app.packs.public import QuestionDetail, QuestionSummary
from app.schemas import ErrorBody, GradeRequest, GradeResponse, Hint, PackSummary
from app.services import questions
from app.services.interviews import secrecy as interview_secrecy

router = APIRouter(prefix="/api", tags=["questions"])
QuestionType = Literal[
    "single-choice",
    "multiple-choice",
    "true-false",
    "ordering",
    "predict-output",
    "free-text",
    "code",
    "code-fix",
]
ERRORS: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorBody, "description": "Unknown pack or question"},
    422: {"model": ErrorBody, "description": "Malformed request or answer"},
}


@router.get("/packs", response_model=list[PackSummary])
def list_packs(catalog: CatalogDep) -> list[PackSummary]:
    return questions.list_packs(catalog)


@router.get("/questions", response_model=list[QuestionSummary], responses=ERRORS)
def list_questions(
    catalog: CatalogDep,
    pack: str | None = Query(default=None, max_length=64),
    type: QuestionType | None = None,
    topic: str | None = Query(default=None, max_length=64),
    section: str | None = Query(default=None, max_length=64),
) -> list[QuestionSummary]:
    return questions.list_questions(catalog, pack=pack, type=type, topic=topic, section=section)


@router.get("/questions/{question_id}", response_model=QuestionDetail, responses=ERRORS)
def get_question(question_id: str, catalog: CatalogDep) -> QuestionDetail:
    return questions.get_question(catalog, question_id)


@router.get("/questions/{question_id}/hints/{index}", response_model=Hint, responses=ERRORS)
def get_hint(question_id: str, index: int, catalog: CatalogDep) -> Hint:
    return questions.get_hint(catalog, question_id, index)


@router.post(
    "/questions/{question_id}/grade",
    response_model=GradeResponse,
    dependencies=[UniqueKeysDep, GradeLimitByClientDep],
    responses={
        **ERRORS,
        501: {"model": ErrorBody, "description": "No grader for this type on this server"},
        409: {"model": ErrorBody, "description": "Question of your running interview"},
        429: {"model": ErrorBody, "description": "Too many answers; see Retry-After"},
        503: {"model": ErrorBody, "description": "Grading queue full; see Retry-After"},
    },
)
@offloaded
async def grade(
    request: Request,
    question_id: str,
    body: GradeRequest,
    session: SessionDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> GradeResponse:
    """Grade without recording; refused (409) for a question of the caller's running
    interview, which must not be tried out here first."""
    user_id = claimed_user_id(request)
    if user_id and interview_secrecy.in_running_interview(
        session, user_id=user_id, question_id=question_id[:64]
    ):
        raise Conflict("this question is part of your running interview; answer it there")
    return await questions.grade_unrecorded(
        catalog, question_id, body.answer, code_grader=code_grader
    )
