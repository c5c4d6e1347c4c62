"""JSON API over packs and questions: browse, read one question, get hints, grade an answer."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query

from app.deps import CatalogDep, CodeGraderDep
from app.identity import GradeLimitByClientDep
from app.offload import offloaded
from app.packs.public import QuestionDetail, QuestionSummary
from app.schemas import ErrorBody, GradeRequest, GradeResponse, Hint, PackSummary
from app.services import questions

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
    dependencies=[GradeLimitByClientDep],
    responses={
        **ERRORS,
        501: {"model": ErrorBody, "description": "No grader for this type on this server"},
        429: {"model": ErrorBody, "description": "Too many answers; see Retry-After"},
        503: {"model": ErrorBody, "description": "Grading queue full; see Retry-After"},
    },
)
@offloaded
async def grade(
    question_id: str, body: GradeRequest, catalog: CatalogDep, code_grader: CodeGraderDep
) -> GradeResponse:
    return await questions.grade(catalog, question_id, body.answer, code_grader=code_grader)
