"""A correct free-text answer reads as correct on the feedback page and in the JSON API: a
score from 70% and concepts not covered as optional extras, never as misses (issue 14,
round 23, app/grading/freetext/shown.py)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.routes.quiz.conftest import answer, start

# no-zero-grad counts 0.214 of its concept weight as correct: this is 0.286 of it.
FRESH_ONLY = "tape.gradient returns a new list of gradient tensors every step."


def test_the_api_shows_a_correct_answer_with_a_score_from_70_and_no_miss(
    client: TestClient,
) -> None:
    body = client.post("/api/questions/no-zero-grad/grade", json={"answer": FRESH_ONLY}).json()
    assert body["verdict"] == "correct"
    assert body["score"] >= 0.7
    kinds = [f["kind"] for f in body["feedback"]]
    assert "missing" not in kinds and "correct" in kinds
    assert any(f["message"].startswith("Could also mention: ") for f in body["feedback"])


def test_the_feedback_page_shows_a_correct_answer_without_misses(client: TestClient) -> None:
    url = start(client, "no-zero-grad")
    reply = answer(client, url, "no-zero-grad", "free-text", answer=FRESH_ONLY)
    assert reply.status_code == 303  # type: ignore[attr-defined]
    page = client.get(reply.headers["location"]).text  # type: ignore[attr-defined]
    assert 'class="verdict correct"' in page
    shown = re.search(r"score (\d+)%", page)
    assert shown and int(shown.group(1)) >= 70
    assert 'class="missing"' not in page and "Not covered yet" not in page
    assert "Could also mention: " in page
