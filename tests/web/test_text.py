"""Text that is not well-formed Unicode (issue 12, finding 2).

One answer holding a lone UTF-16 surrogate (valid JSON: "\\ud800") used to be stored and then
break the learner's progress, history and summary and the cohort's dashboard, learner page
and CSV export with 500s. Now such text is refused at the edge with 422, and rows written
before that check are shown repaired (U+FFFD) instead of breaking the page.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.db import clean_text
from tests.routes.test_api_instructor import promote_current_user

BAD_JSON = b'{"answer": "It records \\ud800 the ops"}'


def _session(client: TestClient, question: str = "mini-explain") -> int:
    reply = client.post("/api/sessions", json={"question_ids": [question]})
    assert reply.status_code == 201, reply.text
    return int(reply.json()["id"])


def _post_raw(client: TestClient, url: str, body: bytes) -> object:
    return client.post(url, content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    "body",
    [
        BAD_JSON,
        b'{"answer": "nul \\u0000 inside"}',
        b'{"answer": ["a", {"\\udfff": 1}]}',
        b'{"answer": "low half \\udc00 alone"}',
    ],
)
def test_answer_with_malformed_text_is_422_and_not_stored(
    mini_client: TestClient, body: bytes
) -> None:
    sid = _session(mini_client)
    reply = _post_raw(mini_client, f"/api/sessions/{sid}/answers", body)
    assert reply.status_code == 422  # type: ignore[attr-defined]
    assert "well-formed Unicode" in reply.json()["message"]  # type: ignore[attr-defined]
    assert mini_client.get("/api/progress/attempts").json() == []


def test_a_proper_surrogate_pair_is_fine(mini_client: TestClient) -> None:
    sid = _session(mini_client)
    body = b'{"answer": "It records the ops \\ud83d\\ude00"}'
    assert _post_raw(mini_client, f"/api/sessions/{sid}/answers", body).status_code == 201  # type: ignore[attr-defined]


def test_form_field_with_nul_is_refused(mini_client: TestClient) -> None:
    reply = mini_client.post(
        "/sessions",
        content=b"csrf_token=x&question=mini%00single",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert reply.status_code == 422
    assert "well-formed Unicode" in reply.text


def _poison_attempts(client: TestClient) -> None:
    """What a database written before the check holds: escaped surrogates in JSON columns."""
    bad = '"It records \\ud800 the ops"'
    feedback = '[{"kind": "info", "message": "\\udfff odd"}]'
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        session.execute(
            text("UPDATE attempt SET answer = :a, feedback = :f, misconceptions = :m"),
            {"a": bad, "f": feedback, "m": '["tag-\\ud800"]'},
        )
        session.commit()


def test_pages_survive_bad_rows_already_stored(mini_client: TestClient) -> None:
    sid = _session(mini_client)
    answered = mini_client.post(f"/api/sessions/{sid}/answers", json={"answer": "It records"})
    attempt = answered.json()["attempt"]["id"]
    _poison_attempts(mini_client)
    pages = [
        "/progress",
        "/api/progress",
        "/api/progress/attempts",
        f"/sessions/{sid}/summary",
        f"/api/sessions/{sid}/summary",
        f"/sessions/{sid}/attempts/{attempt}",
    ]
    for page in pages:
        reply = mini_client.get(page)
        assert reply.status_code == 200, (page, reply.status_code)
        reply.content.decode("utf-8")  # well-formed UTF-8 all through
    assert "\ufffd" in mini_client.get("/api/progress/attempts").text


def test_cohort_pages_survive_a_learners_bad_rows(client: TestClient) -> None:
    promote_current_user(client)
    cohort = client.post(
        "/api/instructor/cohorts", json={"name": "Spring", "pack_id": "gradient-tape"}
    ).json()
    teacher = dict(client.cookies)
    client.cookies.clear()
    client.post("/api/cohorts/join", json={"code": cohort["join_code"]})
    sid = _session(client, "gradient-vs-apply")
    client.post(f"/api/sessions/{sid}/answers", json={"answer": "apply_gradients updates"})
    learner = client.get("/api/progress/attempts").json()[0]
    _poison_attempts(client)
    client.cookies.clear()
    client.cookies.update(teacher)
    board = f"/instructor/cohorts/{cohort['id']}"
    learner_id = client.get(f"/api{board}").json()["learners"][0]["user_id"]
    assert learner["question_id"] == "gradient-vs-apply"
    for page in [
        board,
        f"/api{board}",
        f"/api{board}/export.csv",
        f"{board}/learners/{learner_id}",
        f"/api{board}/learners/{learner_id}",
    ]:
        reply = client.get(page)
        assert reply.status_code == 200, (page, reply.status_code)
        reply.content.decode("utf-8")


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("a\ud800b", "a\ufffdb"),
        (["ok", {"k\udfff": ["\x00"]}], ["ok", {"k\ufffd": ["\ufffd"]}]),
        ("fine \U0001f600", "fine \U0001f600"),
        (42, 42),
    ],
)
def test_clean_text_repairs_nested_values(stored: object, shown: object) -> None:
    assert clean_text(stored) == shown


def test_clean_values_are_returned_as_they_are() -> None:
    value = ["ok", {"k": ["v"]}]
    assert clean_text(value) is value
