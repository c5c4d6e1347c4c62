"""An off-topic free-text answer is told so through the JSON API and on the feedback page
(issue 14, round 10)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.routes.quiz.conftest import answer, start

RECIPE = "To bake bread, mix flour, water, salt and yeast, knead it and let it rise for an hour."
MESSAGE = "Your answer does not address this question"


def test_the_api_says_an_off_topic_answer_does_not_address_the_question(
    mini_client: TestClient,
) -> None:
    body = mini_client.post("/api/questions/mini-explain/grade", json={"answer": RECIPE}).json()
    assert body["verdict"] == "incorrect"
    assert body["feedback"][0]["kind"] == "info"
    assert body["feedback"][0]["message"].startswith(MESSAGE)


def test_the_feedback_page_says_an_off_topic_answer_does_not_address_the_question(
    web: TestClient,
) -> None:
    url = start(web, "mini-explain")
    reply = answer(web, url, "mini-explain", "free-text", answer=RECIPE)
    assert reply.status_code == 303  # type: ignore[attr-defined]
    page = web.get(reply.headers["location"]).text  # type: ignore[attr-defined]
    assert MESSAGE in page


def test_an_on_topic_wrong_answer_gets_no_off_topic_note(mini_client: TestClient) -> None:
    body = mini_client.post(
        "/api/questions/mini-explain/grade", json={"answer": "It keeps the tensors around."}
    ).json()
    assert all(not f["message"].startswith(MESSAGE) for f in body["feedback"])
