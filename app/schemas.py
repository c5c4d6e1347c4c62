"""Request and response bodies of the JSON API that are not database tables.

Declared once here so OpenAPI documents them and routes, services and tests share them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.grading.results import GradeResult


class PackSummary(BaseModel):
    id: str
    title: str
    description: str
    question_count: int
    version: str


class RequestBody(BaseModel):
    """A JSON request body. A number or a boolean must be one: `"5"`, `true` or `5.5` for a
    count, `"yes"` or `1` for a flag are 422, not read as 5, 1 or true. Answers keep their
    documented shapes (`answer` is free-form: a true/false question still takes `"true"`).
    A field the endpoint does not have is ignored, as before: clients written against the
    API may send more than it reads (a public contract), so the body is read as if it were
    not there."""

    model_config = ConfigDict(extra="ignore", strict=True)


class GradeRequest(RequestBody):
    answer: Any = Field(
        description="A choice id, a list of ids, an ordered list of item ids, true/false, "
        "or a string for free-text and code questions."
    )
    hints_used: int = Field(default=0, ge=0, le=10)


class FeedbackItem(BaseModel):
    kind: str
    message: str


class GradeResponse(BaseModel):
    question_id: str
    verdict: Literal["correct", "partial", "incorrect", "error"]
    score: float = Field(ge=0, le=1)
    feedback: list[FeedbackItem]
    misconceptions: list[str]
    explanation: str
    section: str
    details: dict[str, Any] = Field(default_factory=dict)
    elapsed_ms: float
    errors: list[str] = Field(
        default_factory=list,
        description="POST /api/questions/{id}/grade: why the answer failed to run or check "
        "(syntax error, exception, wrong numbers, sandbox limit, ...) in words, as a session's "
        "attempt shows them; such tags are never misconceptions.",
    )
    solution: Any = Field(
        default=None,
        description="The right answer in the answer's shape: the right choice id(s), the right "
        "order of item ids, true/false, or the right predicted output's choice id; null for "
        "free-text and code questions.",
    )

    @classmethod
    def build(
        cls,
        *,
        question_id: str,
        result: GradeResult,
        explanation: str,
        section: str,
        elapsed_ms: float,
        solution: Any = None,
    ) -> GradeResponse:
        return cls(
            question_id=question_id,
            verdict=result.verdict,
            score=result.score,
            feedback=[FeedbackItem(kind=f.kind, message=f.message) for f in result.feedback],
            misconceptions=list(result.misconceptions),
            explanation=explanation,
            section=section,
            details=dict(result.details),
            elapsed_ms=elapsed_ms,
            solution=solution,
        )


class Hint(BaseModel):
    question_id: str
    index: int
    count: int
    text: str


class ErrorBody(BaseModel):
    error: str
    message: str
    details: list[Any] = Field(default_factory=list)
