"""The /instructor 403 page says how to become an instructor: the role is given only on the
server's command line, after signing up (there is no page for it)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.routes.quiz.test_auth import sign_up


def test_instructor_page_tells_a_guest_to_sign_up_then_be_promoted(client: TestClient) -> None:
    response = client.get("/instructor")

    assert response.status_code == 403
    assert "sign up (Save progress)" in response.text
    assert "tapequiz users promote &lt;your email&gt;" in response.text


def test_instructor_page_names_the_command_for_a_signed_up_learner(client: TestClient) -> None:
    sign_up(client, "ada@example.com")

    response = client.get("/instructor")

    assert response.status_code == 403
    assert "tapequiz users promote ada@example.com" in response.text
    assert ".venv/bin/tapequiz" in response.text
