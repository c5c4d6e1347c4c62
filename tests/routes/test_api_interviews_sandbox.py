"""An interview through the API with the real sandboxed code grader: a passing training
step is graded (not just stored) and brings the harder clipping step as its follow-up, also
while another pool runs in the same process (as the sandbox suites' session pool does)."""

from __future__ import annotations

import asyncio
import gc
import os
from asyncio import base_subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import FakeClock
from app.config import Settings
from app.grading.code import CodeGrader
from app.grading.sandbox import backends
from app.main import create_app
from tests.sandbox.conftest import LoopThread
from tests.services.interview_kit import FIXTURES, PACK, RIGHT

pytestmark = pytest.mark.sandbox
JSON = {"Content-Type": "application/json"}


def sandbox_missing() -> str:
    """Why no backend can run here (the server's own choice: rootless works as a user)."""
    wanted = os.environ.get("TAPEQUIZ_SANDBOX_BACKEND", "auto")
    backend, refused = backends.choose(wanted, uid_base=Settings().sandbox_uid_base)
    return "" if backend is not None else backends.describe(None, refused)


async def release_workers(grader: Any) -> None:
    """Stop the pool and drop its subprocess transports while the app's loop still runs
    (otherwise they are collected after TestClient closes the loop: an unraisable error).
    Only this loop's: closing a transport kills its process, and the sandbox suites' session
    pool (another loop, same process) kept its zygote in one; killing it made
    tests/sandbox/test_fork_isolation.py fail when it ran after this file."""
    await grader.stop()
    loop = asyncio.get_running_loop()
    for obj in gc.get_objects():
        if (
            isinstance(obj, base_subprocess.BaseSubprocessTransport)
            and getattr(obj, "_loop", None) is loop
            and not obj.is_closing()
        ):
            obj.close()
    await asyncio.sleep(0.1)


def test_passing_train_step_is_graded_and_followed_by_clip_step(tmp_path: Path) -> None:
    if reason := sandbox_missing():
        pytest.skip(reason)
    step = _interview_code_answer(tmp_path)
    assert (step["status"], step["verdict"]) == ("graded", "correct")


@pytest.mark.timeout(300, method="thread")  # a hang fails the run
def test_code_is_graded_while_another_pool_runs_in_the_process(tmp_path: Path) -> None:
    """Run after tests/sandbox/test_golden_code.py in one pytest process, the interview above
    hung: that suite's session pool still held the trees `z1`, `w3`, `w4`, this app's pool
    counted from 1 as well, its zygote `z1` failed ('File exists') and the pool never filled."""
    if reason := sandbox_missing():
        pytest.skip(reason)
    other = CodeGrader(Settings(data_dir=tmp_path / "other", sandbox_pool_size=1))
    loop = LoopThread()
    try:
        loop.run(other.start())
        loop.run(_until_ready(other))
        step = _interview_code_answer(tmp_path / "app")
    finally:
        loop.run(other.stop())
        loop.close()
    assert (step["status"], step["verdict"]) == ("graded", "correct")


async def _until_ready(grader: CodeGrader) -> None:
    while grader.pool.status()["state"] != "ready":
        await asyncio.sleep(0.2)


def _interview_code_answer(tmp_path: Path) -> dict[str, Any]:
    """A 45-minute interview up to its code question, answered with the reference: its
    report's row for that answer."""
    settings = Settings(
        data_dir=tmp_path / "data",
        packs_dir=FIXTURES,
        sandbox_enabled=True,
        sandbox_pool_size=1,
        secret_key="test-secret-key-not-for-production",
    )
    with TestClient(create_app(settings)) as api:
        api.app.state.clock = FakeClock()  # type: ignore[attr-defined]
        reference = api.app.state.catalog.questions["k-train-step"].question.reference  # type: ignore[attr-defined]
        body = api.post("/api/interviews", json={"pack": PACK, "minutes": 45}).json()
        question = body["question"]
        while question["type"] != "code":
            reply = api.post(
                f"/api/interviews/{body['id']}/answers",
                json={"question_id": question["id"], "answer": RIGHT[question["id"]]},
            )
            question = reply.json()["next"]
        assert question["id"] == "k-train-step"
        reply = api.post(
            f"/api/interviews/{body['id']}/answers",
            json={"question_id": "k-train-step", "answer": reference},
        )
        assert reply.json()["next"]["id"] == "k-clip-step"
        report = api.post(f"/api/interviews/{body['id']}/finish", headers=JSON).json()
        api.portal.call(release_workers, api.app.state.code_grader)  # type: ignore[attr-defined, union-attr]
    return dict(next(a for a in report["answers"] if a["question_id"] == "k-train-step"))
