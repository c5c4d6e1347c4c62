"""One warm sandbox pool for the whole session, driven from a background event loop.

Starting a worker costs ~3 CPU-seconds (TensorFlow import and warm-up), so every sandbox test
shares this grader instead of starting its own; limits are tightened (CPU 3 s, wall 30 s) so
that the runaway cases finish quickly on a 2-core CI machine; the wall limit stays far above
the CPU one so that a busy-looping case still meets its CPU limit first, and a reference step
still finishes, on a machine loaded ~8x (at 8 s, a load of ~2.7x let the wall clock fire
first; at 14 s, a load of 13-15 on 2 cores did, for the busy loop and gan-step's reference).
The backend is the one the server would pick here (`TAPEQUIZ_SANDBOX_BACKEND` forces one):
cgroup1 as root on this CI host, rootless when `scripts/test-rootless` runs the same suites
as an ordinary user.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml

from app.config import REPO_ROOT, Settings
from app.grading.code import CodeGrader
from app.grading.results import GradeResult
from app.grading.sandbox import backends
from app.packs.schema import Code, CodeFix

T = TypeVar("T")
PACK = REPO_ROOT / "questions" / "gradient-tape"


def sandbox_missing() -> str:
    wanted = os.environ.get("TAPEQUIZ_SANDBOX_BACKEND", "auto")
    backend, refused = backends.choose(wanted, uid_base=Settings().sandbox_uid_base)
    return "" if backend is not None else backends.describe(None, refused)


class LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 240.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class SandboxGrader:
    """Synchronous face of a session-wide CodeGrader for tests."""

    def __init__(self, grader: CodeGrader, loop: LoopThread, data_dir: Path) -> None:
        self.grader, self.loop, self.data_dir = grader, loop, data_dir

    def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        result = self.loop.run(self.grader.grade(question, source))
        self.loop.run(self.grader.pool.settle())  # used workers are torn down after answering
        return result

    def reference(self, question: Code | CodeFix) -> Any:
        return self.loop.run(self.grader.references.get(question, self.grader._trusted))


def load_question(qid: str) -> Code | CodeFix:
    data = yaml.safe_load((PACK / f"{qid}.yaml").read_text())
    return (CodeFix if data["type"] == "code-fix" else Code).model_validate(data)


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxGrader]:
    reason = sandbox_missing()
    if reason:
        pytest.skip(reason)
    data_dir = tmp_path_factory.mktemp("sandbox-data")
    settings = Settings(
        data_dir=data_dir,
        sandbox_pool_size=2,
        sandbox_queue_size=64,
        sandbox_cpu_seconds=3,
        sandbox_wall_seconds=30.0,
    )
    loop = LoopThread()
    grader = CodeGrader(settings)
    loop.run(grader.start())
    yield SandboxGrader(grader, loop, data_dir)
    loop.run(grader.stop())
    loop.close()
