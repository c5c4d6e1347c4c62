"""Error pages no route drew (404, 413, a refused text) show who is signed in, as every other
page does (QA round 12: the 413 page's nav had no Instructor link and offered "Log in" to a
signed-in instructor; so did the 404 page)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.routes.quiz.test_auth import sign_up
from tests.routes.test_api_instructor import promote_current_user

INSTRUCTOR_LINK = '<a href="/instructor">Instructor</a>'


def _csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/instructor").text)
    assert found
    return found.group(1)


def _nav(page: str) -> str:
    found = re.search(r'<nav class="nav".*?</nav>', page, re.DOTALL)
    assert found
    return found.group(0)


def test_too_large_page_nav_has_instructor_link(client: TestClient) -> None:
    promote_current_user(client)
    files = {"file": ("pack.zip", b"x" * (3 * 1024 * 1024), "application/zip")}
    refused = client.post("/instructor/publishing", files=files, data={"csrf_token": _csrf(client)})
    assert refused.status_code == 413
    assert INSTRUCTOR_LINK in _nav(refused.text)


def test_not_found_page_nav_has_instructor_link(client: TestClient) -> None:
    promote_current_user(client)
    missing = client.get("/no-such-page")
    assert missing.status_code == 404
    assert INSTRUCTOR_LINK in _nav(missing.text)


def test_error_pages_nav_shows_the_signed_in_account(client: TestClient) -> None:
    sign_up(client)
    missing, refused = client.get("/no-such-page"), client.post("/login", data={"email": "\x00"})
    assert (missing.status_code, refused.status_code) == (404, 422)
    for page in (missing.text, refused.text):
        nav = _nav(page)
        assert "Log out" in nav and "ada@example.com" in nav and "/login" not in nav
        assert 'name="csrf_token" value=""' not in nav  # log-out works from there too
        assert INSTRUCTOR_LINK not in nav  # a learner


def test_error_page_for_a_visitor_stores_nothing(client: TestClient) -> None:
    missing = client.get("/no-such-page")
    assert missing.status_code == 404 and "Save progress" in _nav(missing.text)
    assert "set-cookie" not in missing.headers
