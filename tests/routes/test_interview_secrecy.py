"""The stateless grade endpoint refuses a question of the caller's running interview (409):
trying answers there first would make the interview worthless (issue 12). After the finish,
or for anyone else, it grades as before."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.routes.test_api_interviews import api, clock, send, start  # noqa: F401 (fixtures)
from tests.services.interview_kit import RIGHT


def _grade(client: TestClient, question_id: str) -> int:
    answer = RIGHT.get(question_id, "x")
    reply = client.post(f"/api/questions/{question_id}/grade", json={"answer": answer})
    return reply.status_code


def test_question_of_a_running_interview_is_not_gradable(api: TestClient) -> None:  # noqa: F811
    started = start(api)
    question = started["question"]["id"]
    assert _grade(api, question) == 409
    api.post(f"/api/interviews/{started['id']}/finish", json={})
    assert _grade(api, question) == 200


def test_another_identity_may_grade_the_question(api: TestClient) -> None:  # noqa: F811
    question = start(api)["question"]["id"]
    api.cookies.clear()
    assert _grade(api, question) == 200
