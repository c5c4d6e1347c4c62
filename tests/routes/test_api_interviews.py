"""The interview JSON API: the contract, hidden grading, deadlines on a fake clock, owners."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import FakeClock
from app.config import Settings
from app.main import create_app
from tests.services.interview_kit import FIXTURES, PACK, RIGHT, WRONG, ScriptedCodeGrader

JSON = {"Content-Type": "application/json"}
GRADING_KEYS = {"verdict", "score", "feedback", "misconceptions", "explanation", "details"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def api(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path / "data",
        packs_dir=FIXTURES,
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )
    with TestClient(create_app(settings)) as client:
        client.app.state.clock = clock  # type: ignore[attr-defined]
        client.app.state.code_grader = ScriptedCodeGrader()  # type: ignore[attr-defined]
        yield client


def start(api: TestClient, minutes: int = 20, **extra: Any) -> dict[str, Any]:
    response = api.post("/api/interviews", json={"pack": PACK, "minutes": minutes, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def send(api: TestClient, interview_id: str, question_id: str, answer: object, **extra: Any):
    body = {"question_id": question_id, "answer": answer, **extra}
    return api.post(f"/api/interviews/{interview_id}/answers", json=body)


def test_start_returns_id_deadline_and_question(api: TestClient, clock: FakeClock) -> None:
    body = start(api, minutes=10)
    assert set(body) == {"id", "ends_at", "question"}
    assert body["ends_at"].startswith("2026-01-05T09:10:00")
    assert not GRADING_KEYS & set(body["question"])


@pytest.mark.parametrize("minutes", [0, 15, 30, 60, "20"])
def test_start_with_other_minutes_is_422(api: TestClient, minutes: object) -> None:
    response = api.post("/api/interviews", json={"pack": PACK, "minutes": minutes})
    assert response.status_code == 422


@pytest.mark.parametrize(("difficulty", "opening"), [("hard", "hard"), (None, "easy")])
def test_interview_opens_at_the_chosen_difficulty(
    api: TestClient, difficulty: str | None, opening: str
) -> None:
    body = start(api, minutes=10, **({"difficulty": difficulty} if difficulty else {}))
    assert body["question"]["difficulty"] == opening


def test_start_with_bad_difficulty_is_422(api: TestClient) -> None:
    body = {"pack": PACK, "minutes": 10, "difficulty": "brutal"}
    assert api.post("/api/interviews", json=body).status_code == 422


def test_start_with_unknown_pack_is_404(api: TestClient) -> None:
    assert api.post("/api/interviews", json={"pack": "nope", "minutes": 10}).status_code == 404


def test_start_without_json_is_403(api: TestClient) -> None:
    response = api.post("/api/interviews", content=f"pack={PACK}&minutes=10", headers={
        "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert response.status_code == 403


@pytest.mark.parametrize("book", [RIGHT, WRONG], ids=["right", "wrong"])
def test_answer_response_is_only_the_next_question(api: TestClient, book: dict) -> None:
    body = start(api)
    response = send(api, body["id"], body["question"]["id"], book[body["question"]["id"]])
    assert response.status_code == 200
    assert set(response.json()) == {"next"}
    assert not GRADING_KEYS & set(response.json()["next"])


@pytest.mark.parametrize("extra", [{}, {"skip": True}], ids=["null", "skip-flag"])
def test_skip_is_accepted(api: TestClient, extra: dict) -> None:
    body = start(api)
    answer = None if not extra else "ignored"
    response = send(api, body["id"], body["question"]["id"], answer, **extra)
    assert response.status_code == 200
    report = api.post(f"/api/interviews/{body['id']}/finish", headers=JSON).json()
    assert report["answers"][0]["verdict"] == "skipped"


def test_late_answer_is_409_with_clear_message(api: TestClient, clock: FakeClock) -> None:
    body = start(api, minutes=10)
    clock.advance(minutes=11)
    response = send(api, body["id"], body["question"]["id"], "tape")
    assert response.status_code == 409
    assert response.json()["error"] == "deadline_passed"
    assert "Time is up" in response.json()["message"]


def test_late_answer_leaves_a_finished_report(api: TestClient, clock: FakeClock) -> None:
    body = start(api, minutes=10)
    clock.advance(minutes=11)
    send(api, body["id"], body["question"]["id"], "tape")
    report = api.get(f"/api/interviews/{body['id']}/report")
    assert report.status_code == 200
    assert report.json()["finish_reason"] == "deadline"


def test_answer_after_finish_is_409(api: TestClient) -> None:
    body = start(api)
    api.post(f"/api/interviews/{body['id']}/finish", headers=JSON)
    response = send(api, body["id"], body["question"]["id"], "tape")
    assert response.status_code == 409


def test_report_while_running_is_409(api: TestClient) -> None:
    body = start(api)
    assert api.get(f"/api/interviews/{body['id']}/report").status_code == 409


@pytest.mark.parametrize(
    ("method", "suffix"),
    [("get", ""), ("get", "/report"), ("post", "/finish"), ("post", "/answers")],
)
def test_other_identity_gets_404(api: TestClient, method: str, suffix: str) -> None:
    body = start(api)
    api.cookies.clear()  # a new visitor: a different guest
    kwargs: dict[str, Any] = {"headers": JSON}
    if suffix == "/answers":
        kwargs = {"json": {"question_id": body["question"]["id"], "answer": "tape"}}
    response = getattr(api, method)(f"/api/interviews/{body['id']}{suffix}", **kwargs)
    assert response.status_code == 404


def test_finish_returns_report_with_verdicts_and_flags(api: TestClient) -> None:
    body = start(api, minutes=45)
    question = body["question"]
    while question is not None and question["id"] != "e-zero-grad":
        question = send(api, body["id"], question["id"], RIGHT[question["id"]]).json()["next"]
    assert question is not None
    send(api, body["id"], "e-zero-grad", WRONG["e-zero-grad"])
    report = api.post(f"/api/interviews/{body['id']}/finish", headers=JSON).json()
    assert all("verdict" in a for a in report["answers"])
    assert {
        "tell": "zero-grad",
        "evidence": "You should call optimizer.zero_grad() before every step.",
    }.items() <= next(f for f in report["red_flags"] if f["tell"] == "zero-grad").items()
    assert report["scores"]["overall"] is not None


def test_status_counts_down_on_the_server_clock(api: TestClient, clock: FakeClock) -> None:
    body = start(api, minutes=10)
    clock.advance(90)
    status = api.get(f"/api/interviews/{body['id']}").json()
    assert (status["remaining_seconds"], status["finished"]) == (510.0, False)


def test_list_shows_only_my_interviews(api: TestClient) -> None:
    mine = start(api)["id"]
    api.cookies.clear()
    theirs = start(api)["id"]
    assert [i["id"] for i in api.get("/api/interviews").json()] == [theirs]
    assert mine != theirs


def test_openapi_documents_the_interview_api(api: TestClient) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    assert {
        "/api/interviews",
        "/api/interviews/{interview_id}",
        "/api/interviews/{interview_id}/answers",
        "/api/interviews/{interview_id}/finish",
        "/api/interviews/{interview_id}/report",
    } <= set(paths)


def test_solution_is_given_only_in_the_report_after_the_end(api: TestClient) -> None:
    started = start(api)
    question = started["question"]
    assert "solution" not in question and "choices" in question
    reply = send(api, started["id"], question["id"], RIGHT[question["id"]])
    assert reply.status_code == 200 and "solution" not in reply.json()
    status = api.get(f"/api/interviews/{started['id']}").json()
    assert "solution" not in str(status)
    report = api.post(f"/api/interviews/{started['id']}/finish", headers=JSON).json()
    first = report["answers"][0]
    assert first["solution"] == RIGHT[question["id"]]
    assert report["signal"]["label"] == "not yet"  # one answer cannot read interview-ready
