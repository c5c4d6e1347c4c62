"""Code and code-fix grading: the supervisor side of the sandboxed TensorFlow checker.

`CodeGrader` (async, one per web process) and `grade_code_blocking` (for the CLI) are the
public interface. Nothing imported here imports TensorFlow: the TF side lives in
`app.grading.sandbox.worker` and only ever runs inside the sandbox.
"""

from __future__ import annotations

import asyncio

from app.config import Settings
from app.grading.code.grader import CodeGrader
from app.grading.results import GradeResult
from app.packs.schema import Code, CodeFix

__all__ = ["CodeGrader", "grade_code_blocking"]


def grade_code_blocking(question: Code | CodeFix, source: str, settings: Settings) -> GradeResult:
    """Grade one answer from synchronous code (the CLI): start a small pool, grade, stop."""

    async def once() -> GradeResult:
        grader = CodeGrader(settings.model_copy(update={"sandbox_pool_size": 2}))
        await grader.start()
        try:
            return await grader.grade(question, source)
        finally:
            await grader.stop()

    return asyncio.run(once())
