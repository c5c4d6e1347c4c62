"""Log-in limiting (issue 12): back-off per account and per client instead of a lock-out,
trusted proxies only, strong passwords, CSRF tokens rotated at log-in and log-out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.errors import AnswerInvalid
from app.main import create_app
from app.security import Backoff, RateLimited, client_address
from app.services.accounts import check_password
from tests.routes.quiz.conftest import mini_settings

PASSWORD = "correct horse battery"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _wait(backoff: Backoff, key: str) -> int:
    try:
        backoff.check(key, "tries")
    except RateLimited as refused:
        return refused.retry_after
    return 0


def test_backoff_doubles_the_wait_then_lets_the_right_password_through() -> None:
    clock = FakeClock()
    backoff = Backoff(free=3, max_delay=60, clock=clock)
    waits = []
    for _ in range(6):
        backoff.failed("account:a")
        waits.append(_wait(backoff, "account:a"))
        clock.now += 60  # sit the wait out
    assert waits == [0, 0, 1, 2, 4, 8]
    assert _wait(backoff, "account:a") == 0  # no lock-out: the right password may try again


def test_backoff_waits_are_capped_and_forgotten_after_an_hour() -> None:
    clock = FakeClock()
    backoff = Backoff(free=1, max_delay=30, clock=clock)
    for _ in range(20):
        backoff.failed("k")
    with pytest.raises(RateLimited) as refused:
        backoff.check("k", "tries")
    assert refused.value.retry_after == 30
    clock.now += Backoff.FORGET_AFTER + 1
    backoff.check("k", "tries")


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "expected"),
    [
        ("10.0.0.5", "1.2.3.4", (), "10.0.0.5"),  # no trusted proxy: the header is ignored
        ("127.0.0.1", "6.6.6.6", ("10.0.0.0/8",), "127.0.0.1"),  # peer not trusted
        ("10.0.0.5", "6.6.6.6, 1.2.3.4", ("10.0.0.0/8",), "1.2.3.4"),  # right-most hop
        ("10.0.0.5", "1.2.3.4, 10.0.0.9", ("10.0.0.0/8",), "1.2.3.4"),  # skip trusted hops
        ("10.0.0.5", "", ("10.0.0.0/8",), "10.0.0.5"),
    ],
)
def test_client_address_trusts_only_configured_proxies(
    peer: str, forwarded: str, trusted: tuple[str, ...], expected: str
) -> None:
    assert client_address(peer, forwarded, trusted) == expected


@pytest.mark.parametrize(
    "password", ["password", "password12", "qwertyuiop", "aaaaaaaaaaaa", "short"]
)
def test_weak_passwords_are_refused(password: str) -> None:
    with pytest.raises(AnswerInvalid):
        check_password(password, email="ada@example.com")


def test_strong_password_is_accepted() -> None:
    check_password(PASSWORD, email="ada@example.com")


def _token(client: TestClient, page: str = "/login") -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def _sign_up(client: TestClient, email: str) -> int:
    form = {"csrf_token": _token(client, "/signup"), "email": email, "password": PASSWORD}
    return client.post("/signup", data=form, follow_redirects=False).status_code


def _log_in(client: TestClient, email: str, password: str, **headers: str) -> int:
    form = {"csrf_token": _token(client), "email": email, "password": password}
    reply = client.post("/login", data=form, headers=headers, follow_redirects=False)
    return reply.status_code


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    settings = mini_settings(tmp_path, login_attempts_per_minute=8, login_free_failures=3)
    with TestClient(create_app(settings)) as client:
        for email in ("ada@example.com", "bob@example.com"):
            assert _sign_up(client, email) == 303
            client.cookies.clear()
        yield client


def test_wrong_passwords_back_off_the_account_not_the_client(web: TestClient) -> None:
    codes = [_log_in(web, "ada@example.com", "wrong password!") for _ in range(4)]
    assert codes == [422, 422, 422, 429]
    assert _log_in(web, "bob@example.com", PASSWORD) == 303  # same client, other account


def test_forged_forwarded_for_does_not_escape_the_account_back_off(web: TestClient) -> None:
    codes = [
        _log_in(web, "ada@example.com", "wrong password!", **{"X-Forwarded-For": f"9.9.9.{i}"})
        for i in range(4)
    ]
    assert codes[-1] == 429


def test_client_backs_off_after_failures_across_accounts(web: TestClient) -> None:
    emails = [f"nobody{i}@example.com" for i in range(9)]
    codes = [_log_in(web, email, "wrong password!") for email in emails]
    assert codes[:8] == [422] * 8 and codes[8] == 429


def test_log_in_and_log_out_rotate_the_csrf_token(web: TestClient) -> None:
    before = _token(web)
    assert _log_in(web, "ada@example.com", PASSWORD) == 303
    after_login = _token(web, "/")
    assert after_login != before
    stale = web.post("/logout", data={"csrf_token": before})
    assert stale.status_code == 403
    assert (
        web.post("/logout", data={"csrf_token": after_login}, follow_redirects=False).status_code
        == 303
    )
    assert _token(web, "/") != after_login


def test_sign_up_is_limited_per_client(tmp_path: Path) -> None:
    settings = mini_settings(tmp_path, signups_per_hour=2)
    with TestClient(create_app(settings)) as client:
        codes = []
        for i in range(3):
            client.cookies.clear()
            codes.append(_sign_up(client, f"user{i}@example.com"))
    assert codes == [303, 303, 429]
