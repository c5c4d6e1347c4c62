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
