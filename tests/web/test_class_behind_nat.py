"""A class behind one address (a school's NAT) against the per-client limits (round 13, P2).

The TestClient is one address ("testclient") for every request, as a NAT makes a class.
Sign-ups were 20 an hour per address and the stateless grade endpoint 30 answers a minute
per address: the 21st learner could not sign up, the 31st answer of the class was refused.
A learner with an identity is now limited as themselves, with a per-address ceiling sized
for a class; a client without one is limited by address, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.routes.quiz.conftest import mini_settings

CLASS = 40
ANSWER = {"answer": True}
GRADE = "/api/questions/mini-tf/grade"


def _app(tmp_path: Path, **overrides: object) -> Iterator[TestClient]:
    with TestClient(create_app(mini_settings(tmp_path, **overrides))) as client:
        yield client


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    yield from _app(tmp_path)


def _new_learner(client: TestClient) -> None:
    """A fresh browser that has practised (a stored guest identity)."""
    client.cookies.clear()
    assert client.post("/api/sessions", json={"count": 1}).status_code == 201


def _sign_up(client: TestClient, email: str) -> int:
    client.cookies.clear()
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/signup").text)
    assert found
    form = {"csrf_token": found.group(1), "email": email, "password": "correct horse battery"}
    return client.post("/signup", data=form, follow_redirects=False).status_code


def test_a_class_of_40_behind_one_address_signs_up(web: TestClient) -> None:
    codes = [_sign_up(web, f"learner{i}@class.example") for i in range(CLASS)]
    assert codes == [303] * CLASS


def test_a_class_of_40_behind_one_address_answers(web: TestClient) -> None:
    codes = []
    for _ in range(CLASS):
        _new_learner(web)
        codes.append(web.post(GRADE, json=ANSWER).status_code)
    assert codes == [200] * CLASS


def test_a_learner_is_limited_as_themselves(tmp_path: Path) -> None:
    for client in _app(tmp_path, grades_per_minute=2):
        _new_learner(client)
        mine = [client.post(GRADE, json=ANSWER).status_code for _ in range(3)]
        assert mine == [200, 200, 429]
        _new_learner(client)  # a classmate on the same address is not refused
        assert client.post(GRADE, json=ANSWER).status_code == 200


def test_an_anonymous_client_is_limited_by_address(tmp_path: Path) -> None:
    for client in _app(tmp_path, grades_per_minute=2):
        codes = []
        for _ in range(3):
            client.cookies.clear()  # no identity: a new cookie jar changes nothing
            codes.append(client.post(GRADE, json=ANSWER).status_code)
        assert codes == [200, 200, 429]


def test_one_address_minting_identities_meets_the_address_ceiling(tmp_path: Path) -> None:
    for client in _app(tmp_path, grades_per_minute_per_address=3):
        codes = []
        for _ in range(4):
            _new_learner(client)
            codes.append(client.post(GRADE, json=ANSWER).status_code)
        assert codes == [200, 200, 200, 429]


def _log_in(client: TestClient, email: str, password: str) -> int:
    """A log-in from a fresh browser (its own cookie and CSRF nonce) at the class's address."""
    client.cookies.clear()
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").text)
    assert found
    form = {"csrf_token": found.group(1), "email": email, "password": password}
    return client.post("/login", data=form, follow_redirects=False).status_code


def test_classmates_mistyping_do_not_lock_the_class_out(tmp_path: Path) -> None:
    """Round 14: eleven learners behind one address mistyping once each made the address
    back off (10 free failures, then 2 s, 4 s, ... 900 s, forgotten only after a quiet
    hour), so the twelfth, with the right password, got 429."""
    for client in _app(tmp_path, login_attempts_per_minute=10):
        emails = [f"learner{i}@example.com" for i in range(12)]
        assert [_sign_up(client, e) for e in emails] == [303] * 12
        assert [_log_in(client, e, "mistyped password") for e in emails[:11]] == [422] * 11
        assert _log_in(client, emails[11], "correct horse battery") == 303


def test_one_address_of_many_browsers_still_backs_off(tmp_path: Path) -> None:
    """A guesser minting a browser (cookie and nonce) per guess meets the address ceiling."""
    for client in _app(tmp_path, login_failures_per_address=5):
        codes = [_log_in(client, f"nobody{i}@example.com", "a guessed password") for i in range(6)]
        assert codes == [422] * 5 + [429]
