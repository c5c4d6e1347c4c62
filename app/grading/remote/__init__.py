"""Grading as a service: web processes submit code jobs to Redis, `tapequiz grader` hosts
run them on their own sandbox pools (see docs/scaling.md).

`code_grader(settings)` is the one choice, made at start-up: with TAPEQUIZ_REDIS_URL the web
process grades through the queue and starts no sandbox; without it, today's in-process pool
(or none when the sandbox is switched off).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.config import Settings
from app.grading.code import CodeGrader

if TYPE_CHECKING:
    from app.grading.remote.submitter import RemoteCodeGrader


def code_grader(settings: Settings) -> CodeGrader | RemoteCodeGrader | None:
    if settings.redis_url:
        from app.grading.remote.submitter import RemoteCodeGrader

        return RemoteCodeGrader(settings)
    return CodeGrader(settings) if settings.sandbox_enabled else None
