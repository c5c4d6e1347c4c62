"""A sandbox killed from outside on every worker says the same thing whichever path grades.

In process, an answer whose worker is killed from outside three times is refused (503
`grader_interrupted`, Retry-After, nothing stored). Through Redis the grading host turned
that refusal into an `error` verdict, which the web process stored as the learner's attempt,
and *Run* failed outright (the host sent a verdict where a trial report was awaited). Here a
real Redis, a web app on it (TestClient), and a `tapequiz grader` service in its own thread
whose pool is scripted: every worker is killed.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.grading.code.grader import CodeGrader
from app.grading.code.references import Reference
from app.grading.remote.consumer import GraderService
from app.main import create_app
from tests.routes.quiz.conftest import mini_settings, start, token
from tests.routes.quiz.test_code_worker_death import STEP, ScriptedPool, killed


class KillingPool(ScriptedPool):
    """Every worker is killed from outside; started and stopped like the real pool."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


def _killing_grader(tmp_path: Path) -> tuple[CodeGrader, ScriptedPool]:
    grader = CodeGrader(mini_settings(tmp_path))
    pool = KillingPool(*(killed() for _ in range(3)))
    grader.pool = pool  # type: ignore[assignment]

    async def cached(*_args: object) -> Reference:
        return Reference(run={}, known=[], broken=None)

    grader.references.get = cached  # type: ignore[method-assign]
    return grader, pool


@pytest.fixture
def remote(redis_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, ScriptedPool]]:
    """A web app grading through Redis, and a grading host whose workers are all killed."""
    settings = mini_settings(tmp_path, redis_url=redis_url, sandbox_pool_size=1)
    grader, pool = _killing_grader(tmp_path)
    service = GraderService(settings, name="host", grader=grader)
    loop = asyncio.new_event_loop()
    host = threading.Thread(target=loop.run_until_complete, args=(service.serve(),))
    host.start()
    try:
        with TestClient(create_app(settings)) as client:
            _await_grader(client)
            yield client, pool
    finally:
        loop.call_soon_threadsafe(service.stop)
        host.join(15)
        loop.close()


def _await_grader(client: TestClient) -> None:
    for _ in range(100):
        if client.get("/healthz").json()["sandbox"]["ready_workers"]:
            return
        threading.Event().wait(0.1)
    raise AssertionError("the grading host never announced itself")


def test_remote_answer_killed_on_every_worker_is_refused_as_interrupted(
    remote: tuple[TestClient, ScriptedPool],
) -> None:
    client, pool = remote
    quiz = client.post("/api/sessions", json={"question_ids": ["mini-code"]}).json()
    reply = client.post(f"/api/sessions/{quiz['id']}/answers", json={"answer": STEP})
    body: dict[str, Any] = reply.json()
    stored = client.get("/api/progress/attempts").json()
    assert (reply.status_code, pool.runs, len(stored)) == (503, 3, 0), body
    assert body["error"] == "grader_interrupted"
    assert body["message"].startswith("The grader was interrupted")
    assert reply.headers["Retry-After"] == "2"


def test_remote_run_killed_on_every_worker_says_the_grader_was_interrupted(
    remote: tuple[TestClient, ScriptedPool],
) -> None:
    client, pool = remote
    url = start(client, "mini-code")
    reply = client.post(f"{url}/run", data={"csrf_token": token(client, url), "answer": STEP},
                        headers={"Accept": "application/json"})  # fmt: skip
    assert (reply.status_code, pool.runs, reply.json()["error"]) == (503, 3, "grader_interrupted")
    assert reply.headers["Retry-After"] == "2"
