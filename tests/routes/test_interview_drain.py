"""Interview code answers are stored at once and graded by the background drain: a busy or
slow grader never holds the answer's request (nor a web thread) past
TAPEQUIZ_INTERVIEW_BUSY_WAIT_SECONDS, never leaves an answer ungraded for good, and a
restart grades what the last process left pending (round 15's class left 10 of 54 code
answers ungraded, each waiting answer holding a web thread for up to 90 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update
from sqlmodel import Session, col, select

from app.config import Settings
from app.errors import GraderBusy
from app.grading.results import GradeResult
from app.main import create_app
from app.models.interviews import Interview, InterviewAnswer
from app.models.progress import Attempt
from app.packs.schema import Code, CodeFix
from app.services.interviews.drain import Drain
from tests.services.interview_kit import FIXTURES, PACK, RIGHT, ScriptedCodeGrader

JSON = {"Content-Type": "application/json"}


class GatedGrader(ScriptedCodeGrader):
    """Grades only once `open()` is called (a sandbox queue that does not move), or after
    `give_up` seconds, so the code before the drain returns at last instead of hanging."""

    def __init__(self, give_up: float = 12.0) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.give_up = give_up

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.gate.wait(), self.give_up)
        return await super().grade(question, source)


class BusyThenGrades(ScriptedCodeGrader):
    """The queue is full for the first `busy` calls (503 grader_busy), then it grades."""

    def __init__(self, busy: int) -> None:
        super().__init__()
        self.busy = busy

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        if self.busy > 0:
            self.busy -= 1
            raise GraderBusy("the code checker is busy", retry_after=1)
        return await super().grade(question, source)


def settings_for(data: Path, wait: float) -> Settings:
    return Settings(
        data_dir=data,
        packs_dir=FIXTURES,
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
        interview_busy_wait_seconds=wait,
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def app_client(data: Path, grader: Any, wait: float = 1.0) -> TestClient:
    client = TestClient(create_app(settings_for(data, wait)))
    client.__enter__()
    client.app.state.code_grader = grader  # type: ignore[attr-defined]
    return client


@pytest.fixture
def gated(data: Path) -> Iterator[tuple[TestClient, GatedGrader]]:
    grader = GatedGrader()
    client = app_client(data, grader)
    yield client, grader
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    client.__exit__(None, None, None)


def to_code(client: TestClient) -> tuple[str, dict[str, Any]]:
    """Start a 45-minute interview and answer right up to its code question."""
    started = client.post("/api/interviews", json={"pack": PACK, "minutes": 45}, headers=JSON)
    assert started.status_code == 201
    interview, question = started.json()["id"], started.json()["question"]
    while question["type"] != "code":
        body = {"question_id": question["id"], "answer": RIGHT[question["id"]]}
        reply = client.post(f"/api/interviews/{interview}/answers", json=body, headers=JSON)
        question = reply.json()["next"]
    return interview, question


def answer(client: TestClient, interview: str, question: dict[str, Any]) -> Any:
    body = {"question_id": question["id"], "answer": RIGHT[question["id"]]}
    return client.post(f"/api/interviews/{interview}/answers", json=body, headers=JSON)


def stored(data: Path, query: Any) -> list[Any]:
    """What the database holds now (read apart from the app, as an operator would)."""
    engine = create_engine(f"sqlite:///{data / 'tapequiz.db'}")
    with Session(engine) as session:
        found = list(session.exec(query).all())
    engine.dispose()
    return found


def code_row(data: Path, interview: str) -> InterviewAnswer:
    query = select(InterviewAnswer).where(
        InterviewAnswer.interview_id == interview, InterviewAnswer.kind == "code"
    )
    return stored(data, query)[0]


def report_when_graded(client: TestClient, interview: str, within: float = 20.0) -> Any:
    deadline = time.monotonic() + within
    while True:
        report = client.get(f"/api/interviews/{interview}/report").json()
        if not report["scores"].get("grading") or time.monotonic() > deadline:
            return report
        time.sleep(0.2)


def test_code_answer_to_a_stuck_grader_moves_on_within_the_wait(
    gated: tuple[TestClient, GatedGrader], data: Path
) -> None:
    client, _grader = gated
    interview, question = to_code(client)
    began = time.monotonic()
    reply = answer(client, interview, question)
    took = time.monotonic() - began
    assert reply.status_code == 200 and reply.json()["next"] is not None
    assert took < 5, f"the answer's request waited {took:.1f} s for a stuck grader"
    row = code_row(data, interview)
    assert (row.status, row.answer) in {("pending", RIGHT[question["id"]]),
                                        ("grading", RIGHT[question["id"]])}  # fmt: skip


def test_finish_while_code_is_graded_marks_it_then_the_report_includes_it(
    gated: tuple[TestClient, GatedGrader], data: Path
) -> None:
    client, grader = gated
    interview, question = to_code(client)
    answer(client, interview, question)
    finished = client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON).json()
    shown = next(a for a in finished["answers"] if a["type"] == "code")
    assert (shown["status"], shown["score"]) == ("pending", None)
    assert "Still being graded" in shown["grading_error"]
    assert finished["scores"]["grading"] == 1 and "still being graded" in finished["summary"]
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    report = report_when_graded(client, interview)
    shown = next(a for a in report["answers"] if a["type"] == "code")
    assert (shown["status"], shown["verdict"], report["scores"]["grading"]) == (
        "graded",
        "correct",
        0,
    )
    client.get(f"/api/interviews/{interview}/report")  # read again: recorded once all the same
    attempts = stored(data, select(Attempt).where(Attempt.question_id == question["id"]))
    assert len(attempts) == 1  # entered the history once, after the finish


def test_a_full_queue_is_retried_until_the_code_answer_is_graded(data: Path) -> None:
    client = app_client(data, BusyThenGrades(busy=4))
    try:
        interview, question = to_code(client)
        assert answer(client, interview, question).status_code == 200
        client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON)
        report = report_when_graded(client, interview)
    finally:
        client.__exit__(None, None, None)
    shown = next(a for a in report["answers"] if a["type"] == "code")
    assert (shown["status"], shown["verdict"]) == ("graded", "correct")


def test_a_restarted_server_grades_what_the_last_one_left_pending(data: Path) -> None:
    first = app_client(data, GatedGrader(give_up=60))
    interview, question = to_code(first)
    answer(first, interview, question)
    first.__exit__(None, None, None)  # the server stops with the answer still to grade
    assert code_row(data, interview).status == "pending"
    second = app_client(data, ScriptedCodeGrader())
    try:
        deadline = time.monotonic() + 15
        while code_row(data, interview).status != "graded" and time.monotonic() < deadline:
            time.sleep(0.2)  # no request: the drain finds it by itself
    finally:
        second.__exit__(None, None, None)
    assert code_row(data, interview).status == "graded"


def test_malformed_code_answer_is_422_and_stores_nothing(
    gated: tuple[TestClient, GatedGrader], data: Path
) -> None:
    client, _grader = gated
    interview, question = to_code(client)
    body = {"question_id": question["id"], "answer": ["not", "source"]}
    reply = client.post(f"/api/interviews/{interview}/answers", json=body, headers=JSON)
    assert reply.status_code == 422 and "source code" in reply.json()["message"]
    assert code_row(data, interview).status == "open"


def test_report_page_marks_code_still_being_graded_and_fills_it_in(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, _grader = gated
    interview, question = to_code(client)
    answer(client, interview, question)
    client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON)
    page = client.get(f"/interviews/{interview}/report").text
    assert 'id="grading-notice" data-grading="1"' in page and "Grading…" in page
    assert f'data-report-url="/api/interviews/{interview}/report"' in page  # interview.js
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in page
    assert '<span class="standing still-grading">grading…</span>' in page  # not "untested"
    assert (
        "untested"
        not in page.split('id="dimensions"')[1]
        .split("</table>")[0]
        .split('data-dimension="code"')[1]
        .split("</tr>")[0]
    )


def test_finish_and_report_reads_do_not_wait_for_the_grading(
    gated: tuple[TestClient, GatedGrader], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 16's finish waited up to the answer wait (15 s) for code still being graded:
    with a class finishing at once, every finish (p50 0.14 s -> 15.4 s)."""
    client, _grader = gated
    interview, question = to_code(client)
    answer(client, interview, question)
    waits: list[set[int]] = []
    original = Drain.wait

    async def recorded(self: Drain, ids: Any, timeout: float) -> bool:
        waits.append(set(ids))
        return await original(self, ids, timeout)

    monkeypatch.setattr(Drain, "wait", recorded)
    finished = client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON).json()
    again = client.get(f"/api/interviews/{interview}/report").json()
    assert waits == []
    assert finished["scores"]["grading"] == again["scores"]["grading"] == 1


def test_a_follow_up_rests_on_the_grade_once_it_is_in(
    gated: tuple[TestClient, GatedGrader], data: Path
) -> None:
    """The grade of a code answer came after the answer's wait: the next question says it
    was chosen without it, and the harder step its pass earns comes one question later."""
    client, grader = gated
    interview, question = to_code(client)
    served = answer(client, interview, question).json()["next"]
    assert served is not None and served["id"] != "k-clip-step"
    chosen = stored(
        data, select(InterviewAnswer).where(InterviewAnswer.position == served["position"])
    )[0]
    assert chosen.kind != "follow-up"
    assert chosen.reason.startswith(
        f"Chosen while question {question['position'] + 1} was still being graded"
    )
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    deadline = time.monotonic() + 15
    while code_row(data, interview).status != "graded" and time.monotonic() < deadline:
        time.sleep(0.1)
    after = answer(client, interview, served).json()["next"]
    assert after is not None and after["id"] == "k-clip-step"
    row = stored(
        data, select(InterviewAnswer).where(InterviewAnswer.position == after["position"])
    )[0]
    assert row.kind == "follow-up"
    assert row.reason == (
        f"Question {question['position'] + 1} was graded after the next question was chosen; "
        "Follow-up: train-step passed, so a harder step (clip-step)."
    )


def test_a_code_answer_no_follow_up_can_come_of_does_not_wait(
    gated: tuple[TestClient, GatedGrader], data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the interview's follow-ups spent, the next question cannot rest on the grade:
    the answer's request serves it without waiting (the class benchmark's code answers,
    mostly an interview's last, each waited the whole 15 s for nothing)."""
    client, _grader = gated
    interview, question = to_code(client)
    engine = create_engine(f"sqlite:///{data / 'tapequiz.db'}")
    with engine.begin() as connection:
        connection.execute(
            update(Interview).where(col(Interview.id) == interview).values(followups_left=0)
        )
    engine.dispose()
    waits: list[set[int]] = []
    original = Drain.wait

    async def recorded(self: Drain, ids: Any, timeout: float) -> bool:
        waits.append(set(ids))
        return await original(self, ids, timeout)

    monkeypatch.setattr(Drain, "wait", recorded)
    served = answer(client, interview, question).json()["next"]
    assert waits == [] and code_row(data, interview).status in ("pending", "grading")
    if served is not None:  # the plan went on: its reason claims nothing about the grade
        query = select(InterviewAnswer).where(InterviewAnswer.position == served["position"])
        row = stored(data, query)[0]
        assert not row.reason.startswith("Chosen while")
