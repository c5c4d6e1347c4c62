"""A grading worker killed from outside is not the learner's crash (round 11, Q1).

Killing the worker that graded a class's answer (`kill -9`, as the kernel's OOM killer or
an operator would) stored that answer as verdict `error`, "Code that exits the process ...
ends up here", score 0: the learner was blamed and the first try spent. A worker that dies
without a report or a limit now gets one fresh worker more; code that kills itself dies
there too and is graded as before. The real pool is replaced by a scripted one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.grading.code.grader import CodeGrader
from app.grading.code.references import Reference
from app.grading.code.workers import Outcome
from app.main import create_app
from tests.routes.quiz.conftest import mini_settings

KILLED = Outcome(None, crash="the worker process ended without reporting (exit status -9)")
WALL = Outcome(None, limit="wall time", limit_value="15 s")
STEP = "def train_step(model, optimizer, loss_fn, x, y):\n    return 0.0\n"


class ScriptedPool:
    size = 1

    def __init__(self, *outcomes: Outcome) -> None:
        self.outcomes, self.runs = list(outcomes), 0

    async def run(self, job: dict[str, Any], wall: float) -> Outcome:
        self.runs += 1
        return self.outcomes.pop(0)


def _answer(tmp_path: Path, pool: ScriptedPool) -> dict[str, Any]:
    with TestClient(create_app(mini_settings(tmp_path))) as client:
        grader = CodeGrader(mini_settings(tmp_path))
        grader.pool = pool  # type: ignore[assignment]

        async def reference(*_args: object) -> Reference:
            return Reference(run={}, known=[], broken=None)

        grader.references.get = reference  # type: ignore[method-assign]
        client.app.state.code_grader = grader  # type: ignore[attr-defined]
        quiz = client.post("/api/sessions", json={"question_ids": ["mini-code"]}).json()
        reply = client.post(f"/api/sessions/{quiz['id']}/answers", json={"answer": STEP})
        assert reply.status_code == 201, reply.text
        attempts = client.get("/api/progress/attempts").json()
    assert len(attempts) == 1
    return dict(reply.json()["attempt"])


def test_answer_whose_worker_was_killed_is_graded_on_a_fresh_worker(tmp_path: Path) -> None:
    pool = ScriptedPool(KILLED, WALL)
    attempt = _answer(tmp_path, pool)
    assert pool.runs == 2
    assert attempt["verdict"] == "incorrect"
    assert "wall time limit (15 s)" in attempt["feedback"][0]["message"]


def test_answer_that_kills_its_worker_twice_is_its_own_crash(tmp_path: Path) -> None:
    pool = ScriptedPool(KILLED, KILLED)
    attempt = _answer(tmp_path, pool)
    assert pool.runs == 2
    assert attempt["verdict"] == "error"
    assert "exit status -9" in attempt["feedback"][0]["message"]


def test_answer_stopped_at_a_limit_is_not_run_again(tmp_path: Path) -> None:
    pool = ScriptedPool(WALL, KILLED)
    attempt = _answer(tmp_path, pool)
    assert pool.runs == 1
    assert attempt["verdict"] == "incorrect"
