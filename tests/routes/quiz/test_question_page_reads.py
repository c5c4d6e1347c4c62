"""The question page's fast path (issue 16): one query, the account read with the session on
every request, remembered cookie verdicts and question views that never cross visitors,
log-outs or role changes, and a new catalog (a publish) that shows at once."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlmodel import Session

from app.main import create_app
from app.security import COOKIE_NAME
from app.services.instructor.publishing import load_serving_catalog
from app.services.instructor.roles import set_role
from tests.routes.quiz.conftest import FIXTURES, mini_settings, start, token

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def statements(web: TestClient) -> Iterator[list[str]]:
    """Every SQL statement the app runs while the test watches."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    engine = web.app.state.engine  # type: ignore[attr-defined]
    event.listen(engine, "before_cursor_execute", count)
    yield seen
    event.remove(engine, "before_cursor_execute", count)


def _as(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, cookie)


def _visitor(client: TestClient, question: str) -> tuple[str, str]:
    """A new visitor with a session on `question`: (cookie, session URL)."""
    client.cookies.clear()
    url = start(client, question)
    return client.cookies[COOKIE_NAME], url


def _sign_up(client: TestClient, email: str) -> None:
    data = {
        "csrf_token": token(client, "/signup"),
        "email": email,
        "password": "a long pass 4 tape",
    }
    reply = client.post("/signup", data=data, follow_redirects=False)
    assert reply.status_code == 303, reply.text


def test_choice_question_page_is_one_query_once_shown(
    web: TestClient, statements: list[str]
) -> None:
    url = start(web, "mini-single")
    assert web.get(url).status_code == 200  # first display: the answer clock is written
    statements.clear()
    assert web.get(url).status_code == 200
    assert len(statements) == 1, statements
    assert "JOIN quiz_session" in statements[0]


def test_code_question_page_reads_the_last_submission_too(
    web: TestClient, statements: list[str]
) -> None:
    url = start(web, "mini-code")
    web.get(url)
    statements.clear()
    assert web.get(url).status_code == 200
    assert len(statements) == 2, statements


def test_two_visitors_alternating_each_get_their_own_page(web: TestClient) -> None:
    first, first_url = _visitor(web, "mini-code")
    second, second_url = _visitor(web, "mini-code")
    pages: dict[str, tuple[str, str]] = {}
    for cookie, url in [(first, first_url), (second, second_url)] * 3:
        _as(web, cookie)
        page = web.get(url)
        assert page.status_code == 200
        draft = re.search(r"tapequiz:draft:(\d+):mini-code", page.text)
        assert draft is not None
        seen = (draft.group(1), CSRF.findall(page.text)[0])
        assert pages.setdefault(cookie, seen) == seen  # the same on every visit
    assert pages[first][0] != pages[second][0]
    assert pages[first][1] != pages[second][1]


def test_someone_elses_session_is_not_found(web: TestClient) -> None:
    _owner, url = _visitor(web, "mini-single")
    stranger, _ = _visitor(web, "mini-single")
    _as(web, stranger)
    assert web.get(url).status_code == 404


def test_visitor_without_a_row_gets_not_found_without_a_query(
    web: TestClient, statements: list[str]
) -> None:
    _owner, url = _visitor(web, "mini-single")
    web.cookies.clear()
    statements.clear()
    reply = web.get(url)
    assert reply.status_code == 404
    assert statements == []
    assert COOKIE_NAME in reply.cookies  # a first visit still gets its cookie


def test_log_out_voids_the_old_cookie_on_the_question_page(web: TestClient) -> None:
    web.cookies.clear()
    _sign_up(web, "ada@example.com")
    url = start(web, "mini-single")
    before = web.cookies[COOKIE_NAME]
    assert web.get(url).status_code == 200
    reply = web.post("/logout", data={"csrf_token": token(web, url)}, follow_redirects=False)
    assert reply.status_code == 303
    _as(web, before)  # a copy of the cookie from before the log-out
    page = web.get(url)
    assert page.status_code == 404
    assert page.cookies.get(COOKIE_NAME) not in (None, before)  # reissued as a visitor


def test_role_change_shows_on_the_next_question_page(web: TestClient) -> None:
    web.cookies.clear()
    _sign_up(web, "grace@example.com")
    url = start(web, "mini-single")
    assert 'href="/instructor"' not in web.get(url).text
    with Session(web.app.state.engine) as session:  # type: ignore[attr-defined]
        set_role(session, email="grace@example.com", role="instructor")  # as the CLI does
    assert 'href="/instructor"' in web.get(url).text


def test_csrf_token_of_the_question_page_posts_an_answer(web: TestClient) -> None:
    url = start(web, "mini-single")
    found = CSRF.search(web.get(url).text)
    assert found is not None
    data = {
        "csrf_token": found.group(1),
        "question_id": "mini-single",
        "question_type": "single-choice",
        "answer": "tape",
    }
    assert web.post(f"{url}/answer", data=data, follow_redirects=False).status_code == 303


def test_new_catalog_shows_at_once_on_the_question_page(tmp_path: Path) -> None:
    packs = tmp_path / "packs"
    shutil.copytree(FIXTURES, packs)
    settings = mini_settings(tmp_path, packs_dir=packs)
    with TestClient(create_app(settings)) as client:
        url = start(client, "mini-single")
        assert "What records ops" in client.get(url).text
        question = packs / "mini" / "mini-single.yaml"
        question.write_text(
            question.read_text().replace("What records ops", "Which object records")
        )
        client.app.state.catalog = load_serving_catalog(settings)  # type: ignore[attr-defined]
        page = client.get(url).text  # what a publish does: a new catalog installed
    assert "Which object records" in page
    assert "What records ops" not in page
