"""JSON API parity: start, answer, hint, summary, progress, history, reviews, with the
cookie identity; documented in OpenAPI; CSRF-guarded by requiring JSON."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


def start(client: TestClient, **body: object) -> dict[str, object]:
    reply = client.post("/api/sessions", json={"question_ids": ["mini-single"], **body})
    assert reply.status_code == 201, reply.text
    return reply.json()


def test_start_returns_the_first_question_without_its_answer(web: TestClient) -> None:
    current = start(web)["current"]
    assert current["id"] == "mini-single" and "correct" not in str(current["choices"])  # type: ignore[index]


def test_answer_returns_verdict_and_advances(web: TestClient) -> None:
    sid = start(web)["id"]
    reply = web.post(f"/api/sessions/{sid}/answers", json={"answer": "session"}).json()
    assert (reply["attempt"]["verdict"], reply["session"]["finished"]) == ("incorrect", True)


def test_summary_progress_history_and_reviews_agree(web: TestClient) -> None:
    sid = start(web)["id"]
    web.post(f"/api/sessions/{sid}/answers", json={"answer": "session"})
    summary = web.get(f"/api/sessions/{sid}/summary").json()
    progress = web.get("/api/progress").json()
    history = web.get("/api/progress/attempts").json()
    queue = web.get("/api/reviews").json()
    assert (summary["correct"], progress["attempts"], history[0]["answer"]) == (0, 1, "session")
    assert [q["id"] for q in queue["due"]] == ["mini-single"]


def test_review_mode_starts_a_session_over_due_questions(web: TestClient) -> None:
    sid = start(web)["id"]
    web.post(f"/api/sessions/{sid}/answers", json={"answer": "session"})
    review = start(web, mode="review")
    assert (review["mode"], review["current"]["id"]) == ("review", "mini-single")  # type: ignore[index]


def test_hint_is_recorded_on_the_attempt(web: TestClient) -> None:
    sid = start(web)["id"]
    web.post(f"/api/sessions/{sid}/hints", json={})
    reply = web.post(f"/api/sessions/{sid}/answers", json={"answer": "tape"}).json()
    assert reply["attempt"]["hints_used"] == 1


def test_code_answer_without_grader_is_501(web: TestClient) -> None:
    sid = start(web, question_ids=["mini-code"])["id"]
    reply = web.post(f"/api/sessions/{sid}/answers", json={"answer": "def f(): pass"})
    assert (reply.status_code, reply.json()["error"]) == (501, "grader_unavailable")


@pytest.mark.parametrize(
    ("path", "body"), [("/api/sessions", b"{}"), ("/api/sessions/1/answers", b'{"answer": 1}')]
)
def test_api_write_without_json_content_type_is_forbidden(
    web: TestClient, path: str, body: bytes
) -> None:
    reply = web.post(path, content=body, headers={"content-type": "text/plain"})
    assert reply.status_code == 403


@pytest.mark.parametrize("suffix", ["", "/summary"])
def test_other_identity_gets_404(web: TestClient, suffix: str) -> None:
    sid = start(web)["id"]
    web.cookies.clear()
    assert web.get(f"/api/sessions/{sid}{suffix}").status_code == 404


def test_other_identity_sees_no_history(web: TestClient) -> None:
    sid = start(web)["id"]
    web.post(f"/api/sessions/{sid}/answers", json={"answer": "tape"})
    web.cookies.clear()
    assert web.get("/api/progress/attempts").json() == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/sessions",
        "/api/sessions/{session_id}/answers",
        "/api/sessions/{session_id}/summary",
        "/api/progress",
        "/api/progress/attempts",
        "/api/reviews",
    ],
)
def test_openapi_documents_the_endpoint(web: TestClient, path: str) -> None:
    assert path in web.get("/openapi.json").json()["paths"]


def test_pages_are_not_in_openapi(web: TestClient) -> None:
    assert "/sessions/{session_id}" not in web.get("/openapi.json").json()["paths"]


def test_attempts_page_below_one_is_422(web: TestClient) -> None:
    for page in ("-1", "0"):
        assert web.get(f"/api/progress/attempts?page={page}").status_code == 422


def test_attempts_pages_follow_each_other(web: TestClient) -> None:
    for answer in ("session", "tape", "session"):
        sid = start(web)["id"]
        web.post(f"/api/sessions/{sid}/answers", json={"answer": answer})
    everything = [a["id"] for a in web.get("/api/progress/attempts").json()]
    pages = [
        [a["id"] for a in web.get(f"/api/progress/attempts?limit=2&page={n}").json()]
        for n in (1, 2, 3)
    ]
    assert pages == [everything[:2], everything[2:], []]


def test_double_submit_409_says_where_the_session_is(web: TestClient) -> None:
    sid = web.post("/api/sessions", json={"question_ids": ["mini-single", "mini-tf"]}).json()["id"]
    body = {"answer": "session", "question_id": "mini-single"}
    assert web.post(f"/api/sessions/{sid}/answers", json=body).status_code == 201
    again = web.post(f"/api/sessions/{sid}/answers", json=body)
    assert again.status_code == 409
    assert "here is the current one" in again.json()["message"]
    assert again.json()["details"] == [
        {"session_id": sid, "position": 1, "total": 2, "question_id": "mini-tf", "finished": False}
    ]


@pytest.mark.parametrize(
    ("body", "requested"),
    [
        ({"question_ids": None, "pack": "mini", "count": 30}, 30),  # the pack has fewer
        ({"question_ids": ["mini-single", "mini-single", "mini-tf"]}, 2),  # distinct ids
        ({"question_ids": None, "type": "single-choice", "count": 1}, 1),
    ],
)
def test_start_reports_questions_asked_for_beside_total(
    web: TestClient, body: dict[str, object], requested: int
) -> None:
    started = start(web, **body)
    assert started["requested"] == requested
    assert started["total"] == min(requested, len(web.get("/api/questions?pack=mini").json()))


def test_start_in_review_mode_reports_count_asked_for(web: TestClient) -> None:
    sid = start(web)["id"]
    web.post(f"/api/sessions/{sid}/answers", json={"answer": "session"})
    review = start(web, mode="review", count=5)
    assert (review["requested"], review["total"]) == (5, 1)
