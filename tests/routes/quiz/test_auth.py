"""Sign up, log in, log out over HTTP: progress follows the learner, cookies are hardened."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.security import COOKIE_NAME
from app.services.accounts import MIN_PASSWORD
from tests.routes.quiz.conftest import answer, mini_settings, start, token

PASSWORD = "correct horse battery"


def sign_up(client: TestClient, email: str = "ada@example.com") -> object:
    form = {"csrf_token": token(client), "email": email, "password": PASSWORD}
    return client.post("/signup", data=form, follow_redirects=False)


def log_in(client: TestClient, password: str = PASSWORD) -> object:
    form = {"csrf_token": token(client), "email": "ada@example.com", "password": password}
    return client.post("/login", data=form, follow_redirects=False)


def log_out(client: TestClient) -> None:
    client.post("/logout", data={"csrf_token": token(client)})


def answered(client: TestClient) -> int:
    return int(client.get("/api/progress").json()["attempts"])


def test_sign_up_keeps_guest_progress(web: TestClient) -> None:
    answer(web, start(web, "mini-single"), "mini-single", "single-choice", answer="tape")
    reply = sign_up(web)
    assert (reply.status_code, answered(web)) == (303, 1)  # type: ignore[attr-defined]


def test_log_out_starts_a_fresh_guest(web: TestClient) -> None:
    answer(web, start(web, "mini-single"), "mini-single", "single-choice", answer="tape")
    sign_up(web)
    log_out(web)
    assert answered(web) == 0


def test_log_in_brings_back_progress_and_adopts_the_guests(web: TestClient) -> None:
    answer(web, start(web, "mini-single"), "mini-single", "single-choice", answer="tape")
    sign_up(web)
    log_out(web)
    answer(web, start(web, "mini-tf"), "mini-tf", "true-false", answer="false")
    log_in(web)
    assert answered(web) == 2


def test_wrong_password_shows_the_form_again(web: TestClient) -> None:
    sign_up(web)
    log_out(web)
    reply = log_in(web, password="not the password")
    assert reply.status_code == 422  # type: ignore[attr-defined]
    assert "do not match" in reply.text  # type: ignore[attr-defined]


def test_login_is_rate_limited(tmp_path: Path) -> None:
    settings = mini_settings(tmp_path, login_attempts_per_minute=3)
    with TestClient(create_app(settings)) as client:
        codes = [log_in(client, password="nope").status_code for _ in range(4)]  # type: ignore[attr-defined]
    assert codes == [422, 422, 422, 429]


def test_identity_cookie_is_httponly_and_samesite(web: TestClient) -> None:
    cookie = web.get("/").headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie


def test_identity_survives_a_restart(tmp_path: Path) -> None:
    settings = mini_settings(tmp_path, secret_key="")  # key generated into the data dir
    with TestClient(create_app(settings)) as client:
        answer(client, start(client, "mini-single"), "mini-single", "single-choice", answer="tape")
        cookies = dict(client.cookies)
    with TestClient(create_app(settings), cookies=cookies) as client:
        assert answered(client) == 1


def _session_cookie(client: TestClient) -> dict[str, str]:
    return {COOKIE_NAME: client.cookies[COOKIE_NAME]}


def test_guest_cookie_from_before_sign_up_does_not_open_the_account(web: TestClient) -> None:
    answer(web, start(web, "mini-single"), "mini-single", "single-choice", answer="tape")
    planted = _session_cookie(web)
    sign_up(web)
    web.cookies.clear()
    web.cookies.update(planted)
    assert answered(web) == 0


def test_log_out_voids_the_accounts_other_cookies(web: TestClient) -> None:
    answer(web, start(web, "mini-single"), "mini-single", "single-choice", answer="tape")
    sign_up(web)
    copied = _session_cookie(web)
    log_out(web)
    web.cookies.clear()
    web.cookies.update(copied)
    assert answered(web) == 0


def test_sign_up_form_states_the_servers_password_minimum(web: TestClient) -> None:
    page = web.get("/signup").text
    wanted = (f'minlength="{MIN_PASSWORD}"', f"at least {MIN_PASSWORD} characters")
    assert [w in page for w in wanted] == [True, True]


def test_sign_up_refusal_keeps_the_name_and_reads_as_a_sentence(web: TestClient) -> None:
    form = {
        "csrf_token": token(web),
        "email": "ada@example.com",
        "password": "x1y2z3w4v",  # one short of the minimum
        "display_name": "Ada L.",
    }
    reply = web.post("/signup", data=form)
    seen = (reply.status_code, 'value="Ada L."' in reply.text, "Choose a password of" in reply.text)
    assert seen == (422, True, True), reply.text
