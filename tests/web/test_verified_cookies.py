"""Remembered cookie verdicts (issue 16): the same answers as a fresh signature check."""

from __future__ import annotations

import pytest

from app import security
from app.security import COOKIE_MAX_AGE, VerifiedCookies, identity_serializer, read_identity

SERIALIZER = identity_serializer("test-key")


def _cookie(user_id: int, nonce: str = "n0nce") -> str:
    return SERIALIZER.dumps([user_id, 0, nonce])


def test_good_cookie_reads_as_a_fresh_check_does() -> None:
    cookies = VerifiedCookies(SERIALIZER)
    cookie = _cookie(7)
    assert cookies.read(cookie) == read_identity(SERIALIZER, cookie) == (7, 0, "n0nce")
    assert cookies.read(cookie) == (7, 0, "n0nce")  # from memory


@pytest.mark.parametrize(
    "cookie", [None, "", "junk", identity_serializer("other-key").dumps([1, 0, "n"])]
)
def test_bad_cookie_is_refused_and_not_remembered(cookie: str | None) -> None:
    cookies = VerifiedCookies(SERIALIZER)
    assert cookies.read(cookie) is None
    assert cookies._good == {}


def test_tampered_copy_of_a_remembered_cookie_is_refused() -> None:
    cookies = VerifiedCookies(SERIALIZER)
    cookie = _cookie(7)
    cookies.read(cookie)
    # Change the signature's FIRST character: all six of its bits are signed. (The last
    # character of a 27-character base64 signature carries two padding bits, so swapping
    # "A" for "B" there changes nothing that is checked: the old test failed whenever the
    # last character was "A", ~1 run in 16.)
    body, _, signature = cookie.rpartition(".")
    tampered = f"{body}.{'Q' if signature[0] == 'A' else 'A'}{signature[1:]}"
    assert cookies.read(tampered) is None


def test_remembered_cookie_expires_with_its_max_age(monkeypatch: pytest.MonkeyPatch) -> None:
    cookies = VerifiedCookies(SERIALIZER)
    cookie = _cookie(7)
    assert cookies.read(cookie) is not None
    later = security.time.time() + COOKIE_MAX_AGE + 60
    monkeypatch.setattr(security.time, "time", lambda: later)
    assert cookies.read(cookie) is None


def test_two_visitors_never_get_each_others_claims() -> None:
    cookies = VerifiedCookies(SERIALIZER)
    first, second = _cookie(1, "first"), _cookie(2, "second")
    for _ in range(3):
        assert cookies.read(first) == (1, 0, "first")
        assert cookies.read(second) == (2, 0, "second")


def test_table_keeps_its_size_and_forgotten_cookies_still_verify() -> None:
    cookies = VerifiedCookies(SERIALIZER, size=2)
    made = [_cookie(n) for n in range(1, 5)]
    for cookie in made:
        cookies.read(cookie)
    assert len(cookies._good) == 2
    assert cookies.read(made[0]) == (1, 0, "n0nce")
