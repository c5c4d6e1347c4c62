"""Route an answer to the grader for its question type and time the grading.

The single entry point for API, quiz sessions and interviews: they never need to know
which grader a type uses, nor that code grading happens in sandboxed worker processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Protocol

from app.errors import AnswerInvalid, GraderUnavailable
from app.grading import choice
from app.grading.freetext import grade_freetext
from app.grading.freetext.shown import as_shown
from app.grading.results import GradeResult
from app.packs.loader import LoadedQuestion
from app.packs.schema import (
    Code,
    CodeFix,
    FreeText,
    MultipleChoice,
    Ordering,
    PredictOutput,
    SingleChoice,
    TrueFalse,
)

MAX_FREE_TEXT_CHARS = 10_000  # characters (code points), what a learner sees and counts
# Only a safety net: 10,000 characters are at most 40,000 UTF-8 bytes, so a byte cap at the
# characters' limit refused Chinese or Japanese answers at ~3,300 characters (QA round 10).
MAX_FREE_TEXT_BYTES = 64 * 1024
MAX_SOURCE_BYTES = 64 * 1024


class CodeGraderLike(Protocol):
    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult: ...


@dataclass(frozen=True)
class Graded:
    result: GradeResult
    elapsed_ms: float


def _text(answer: object, limit: int, what: str) -> str:
    if not isinstance(answer, str):
        raise AnswerInvalid(f"answer must be a string ({what})")
    if len(answer.encode("utf-8", "surrogatepass")) > limit:
        raise AnswerInvalid(f"{what} is too long: the limit is {limit // 1024} KiB")
    return answer


def source_of(answer: object) -> str:
    """A code answer's source, or AnswerInvalid (422) if it cannot be one."""
    return _text(answer, MAX_SOURCE_BYTES, "source code")


def _explanation(answer: object) -> str:
    if isinstance(answer, str) and len(answer) > MAX_FREE_TEXT_CHARS:
        limit = f"{MAX_FREE_TEXT_CHARS:,}"
        raise AnswerInvalid(f"explanation is too long: the limit is {limit} characters")
    return _text(answer, MAX_FREE_TEXT_BYTES, "explanation")


def _grade_free_text(question: FreeText, answer: object) -> GradeResult:
    """Graded, then as a learner is shown it: a score and feedback that agree with the
    verdict (shown.py, round 23)."""
    return as_shown(question.rubric, grade_freetext(question, _explanation(answer)))


def grade_closed(question: object, answer: object) -> GradeResult | None:
    """Grade the types that need no external grader; None for free-text and code."""
    match question:
        case SingleChoice() | PredictOutput():
            return choice.grade_single(question, answer)
        case MultipleChoice():
            return choice.grade_multiple(question, answer)
        case TrueFalse():
            return choice.grade_true_false(question, answer)
        case Ordering():
            return choice.grade_ordering(question, answer)
    return None


async def grade_answer(
    item: LoadedQuestion, answer: object, *, code_grader: CodeGraderLike | None
) -> Graded:
    started = time.perf_counter()
    question = item.question
    result = grade_closed(question, answer)
    if result is None and isinstance(question, FreeText):
        result = _grade_free_text(question, answer)
    if result is None and isinstance(question, Code | CodeFix):
        source = source_of(answer)
        if code_grader is None:
            raise GraderUnavailable("code grading is switched off on this server")
        result = await code_grader.grade(question, source)
    if result is None:
        raise GraderUnavailable(f"no grader for question type {question.type!r}")
    result = replace(result, score=min(1.0, max(0.0, result.score)))
    return Graded(result=result, elapsed_ms=round((time.perf_counter() - started) * 1000, 1))
