"""How a grading worker ended decides what the learner sees (rounds 11 and 12).

Killing the worker that graded a class's answer (`kill -9`, as the kernel's OOM killer or an
operator would) stored that answer as verdict `error`, score 0, the first try spent (round
11); a second kill did so still, and the *Run* button and the reference run were not retried
at all (round 12). Code cannot kill its own worker (the sandbox's seccomp filter ends it with
SIGSYS for any signal it sends, or an exit status from 128 up), so a SIGKILL that no limit
explains came from outside: the job runs on a fresh worker, up to three, then the answer is
refused as interrupted (503, nothing stored). What the code did itself is graded at once,
`incorrect` with words for it. The real pool is replaced by a scripted one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.grading.code.grader import CodeGrader
from app.grading.code.references import Reference
from app.grading.code.workers import Outcome
from app.main import create_app
from tests.routes.quiz.conftest import mini_settings, start, token

STEP = "def train_step(model, optimizer, loss_fn, x, y):\n    return 0.0\n"


def killed() -> Outcome:
    return Outcome(None, crash="the worker process ended without reporting (signal SIGKILL)",
                   ended="killed")  # fmt: skip


def wall() -> Outcome:
    return Outcome(None, limit="wall time", limit_value="15 s")


def ended(how: str, crash: str) -> Outcome:
    return Outcome(None, crash=f"the worker process ended without reporting {crash}", ended=how)


TRIAL = Outcome({"trial": {"scenario": "mlp-sgd", "calls": [], "error": None}})
CLEAN = {"load_error": None, "scenarios": []}
SKIPPED = {"load_error": {"kind": "missing", "message": "", "lines": []}, "scenarios": []}
REFERENCE = Outcome(
    {
        "runs": [
            {"name": "reference", **CLEAN},
            *({"name": f"wrong:{i}", **SKIPPED} for i in range(9)),
        ]
    }
)


class ScriptedPool:
    """Answers each job with the next scripted outcome: the reference's, or the answer's."""

    size = 1

    def __init__(self, *outcomes: Outcome, reference: tuple[Outcome, ...] = ()) -> None:
        self.outcomes, self.references = list(outcomes), list(reference)
        self.runs = self.reference_runs = 0

    async def run(self, job: dict[str, Any], wall: float) -> Outcome:
        if job["sources"][0].get("name") == "reference":
            self.reference_runs += 1
            return self.references.pop(0)
        self.runs += 1
        return self.outcomes.pop(0)


def _client(tmp_path: Path, pool: ScriptedPool, *, reference: bool = False) -> TestClient:
    client = TestClient(create_app(mini_settings(tmp_path)))
    client.__enter__()
    grader = CodeGrader(mini_settings(tmp_path))
    grader.pool = pool  # type: ignore[assignment]
    if not reference:  # the reference is cached already, as it is for every answer but the first

        async def cached(*_args: object) -> Reference:
            return Reference(run={}, known=[], broken=None)

        grader.references.get = cached  # type: ignore[method-assign]
    client.app.state.code_grader = grader  # type: ignore[attr-defined]
    return client


def _answer(tmp_path: Path, pool: ScriptedPool, **kw: bool) -> tuple[int, dict[str, Any], int]:
    """(status, body, attempts stored) of the code answer through the JSON API."""
    client = _client(tmp_path, pool, **kw)
    try:
        quiz = client.post("/api/sessions", json={"question_ids": ["mini-code"]}).json()
        reply = client.post(f"/api/sessions/{quiz['id']}/answers", json={"answer": STEP})
        attempts = client.get("/api/progress/attempts").json()
    finally:
        client.__exit__(None, None, None)
    return reply.status_code, reply.json(), len(attempts)


def test_answer_whose_worker_was_killed_is_graded_on_a_fresh_worker(tmp_path: Path) -> None:
    pool = ScriptedPool(killed(), wall())
    status, body, stored = _answer(tmp_path, pool)
    assert (status, pool.runs, stored) == (201, 2, 1)
    assert body["attempt"]["verdict"] == "incorrect"
    assert "wall time limit (15 s)" in body["attempt"]["feedback"][0]["message"]


def test_answer_whose_workers_keep_being_killed_is_refused_as_interrupted(tmp_path: Path) -> None:
    pool = ScriptedPool(killed(), killed(), killed())
    status, body, stored = _answer(tmp_path, pool)
    assert (status, pool.runs, stored) == (503, 3, 0)  # nothing stored: the try is not spent
    assert body["error"] == "grader_interrupted"
    assert body["message"].startswith("The grader was interrupted")
    assert "not by your code" in body["message"] and "try again" in body["message"]


def test_reference_run_killed_is_run_again_then_refused_as_interrupted(tmp_path: Path) -> None:
    pool = ScriptedPool(wall(), reference=(killed(), killed(), killed()))
    status, body, stored = _answer(tmp_path, pool, reference=True)
    assert (status, pool.reference_runs, stored) == (503, 3, 0)
    assert body["error"] == "grader_interrupted"


def test_reference_run_killed_once_grades_on_the_next_worker(tmp_path: Path) -> None:
    pool = ScriptedPool(wall(), reference=(killed(), REFERENCE))
    status, body, stored = _answer(tmp_path, pool, reference=True)
    assert (status, pool.reference_runs, stored) == (201, 2, 1)
    assert body["attempt"]["verdict"] == "incorrect"


@pytest.mark.parametrize(
    ("how", "crash", "words"),
    [
        ("forbidden", "(signal SIGSYS)", "tried to signal or end its own process"),
        ("exited", "(it exited with status 0)", "ended the checker's process"),
        ("channel", ": its report channel was closed", "closed or replaced the checker's report"),
        ("malformed", "", "report for this answer was malformed"),
    ],
)
def test_answer_that_ends_its_own_worker_is_incorrect_at_once(
    tmp_path: Path, how: str, crash: str, words: str
) -> None:
    pool = ScriptedPool(ended(how, crash), killed())
    status, body, stored = _answer(tmp_path, pool)
    attempt = body["attempt"]
    assert (status, pool.runs, stored) == (201, 1, 1)
    assert (attempt["verdict"], attempt["score"]) == ("incorrect", 0.0)
    assert words in attempt["feedback"][0]["message"]
    assert attempt["misconceptions"] == []  # an error ("Interfered with the checker"), no belief


def test_answer_that_crashes_two_fresh_workers_is_incorrect(tmp_path: Path) -> None:
    segv = ended("crashed", "(signal SIGSEGV)")
    pool = ScriptedPool(segv, ended("crashed", "(signal SIGSEGV)"))
    status, body, stored = _answer(tmp_path, pool)
    assert (status, pool.runs, stored) == (201, 2, 1)
    assert body["attempt"]["verdict"] == "incorrect"
    assert (
        "crashed the Python process (signal SIGSEGV)" in body["attempt"]["feedback"][0]["message"]
    )


def test_answer_stopped_at_a_limit_is_not_run_again(tmp_path: Path) -> None:
    pool = ScriptedPool(wall(), killed())
    status, body, _ = _answer(tmp_path, pool)
    assert (status, pool.runs) == (201, 1)
    assert body["attempt"]["verdict"] == "incorrect"


def _run(tmp_path: Path, pool: ScriptedPool) -> tuple[int, dict[str, Any]]:
    """*Run* on the question page (the page's script posts the form, JSON back)."""
    client = _client(tmp_path, pool)
    try:
        url = start(client, "mini-code")
        csrf = token(client, url)
        reply = client.post(f"{url}/run", data={"csrf_token": csrf, "answer": STEP},
                            headers={"Accept": "application/json"})  # fmt: skip
    finally:
        client.__exit__(None, None, None)
    return reply.status_code, reply.json()


def test_run_whose_worker_was_killed_runs_on_a_fresh_worker(tmp_path: Path) -> None:
    pool = ScriptedPool(killed(), TRIAL)
    status, body = _run(tmp_path, pool)
    assert (status, pool.runs) == (200, 2)
    assert not [o for o in body["observations"] if o["kind"] == "error"], body


def test_run_whose_workers_keep_being_killed_says_the_grader_was_interrupted(
    tmp_path: Path,
) -> None:
    pool = ScriptedPool(killed(), killed(), killed())
    status, body = _run(tmp_path, pool)
    assert (status, pool.runs, body["error"]) == (503, 3, "grader_interrupted")
    assert re.match(r"The grader was interrupted", body["message"])


def test_run_that_signals_itself_says_so(tmp_path: Path) -> None:
    pool = ScriptedPool(ended("forbidden", "(signal SIGSYS)"))
    status, body = _run(tmp_path, pool)
    assert (status, pool.runs) == (200, 1)
    errors = [o["text"] for o in body["observations"] if o["kind"] == "error"]
    assert errors and "tried to signal or end its own process" in errors[0]


def test_question_page_says_the_grader_was_interrupted_and_keeps_the_code(
    tmp_path: Path,
) -> None:
    pool = ScriptedPool(killed(), killed(), killed())
    client = _client(tmp_path, pool)
    try:
        url = start(client, "mini-code")
        data = {"csrf_token": token(client, url), "question_id": "mini-code",
                "question_type": "code", "answer": STEP}  # fmt: skip
        page = client.post(f"{url}/answer", data=data, follow_redirects=False)
        attempts = client.get("/api/progress/attempts").json()
    finally:
        client.__exit__(None, None, None)
    assert (page.status_code, pool.runs, len(attempts)) == (503, 3, 0)
    assert "<strong>Your answer was not graded.</strong>" in page.text
    assert "The grader was interrupted: the sandbox running your code was stopped" in page.text
    assert "The code graders are busy" not in page.text
    assert "def train_step(model, optimizer, loss_fn, x, y):" in page.text  # the code kept
