"""The identity cookie, CSRF checks and instructor guard, on a tiny app with test routes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter, Request
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.config import Settings
from app.identity import (
    CsrfFormDep,
    CurrentUserDep,
    GradeLimitByClientDep,
    InstructorDep,
    JsonBodyDep,
    csrf_token,
)
from app.main import create_app
from app.models.users import User
from app.security import COOKIE_NAME

router = APIRouter()


@router.get("/t/me")
def me(user: CurrentUserDep) -> dict[str, object]:
    return {"id": user.id, "guest": user.is_guest}


@router.get("/t/csrf")
def grab(request: Request, user: CurrentUserDep) -> dict[str, str]:
    return {"token": csrf_token(request)}


@router.post("/t/form", dependencies=[CsrfFormDep])
def form(user: CurrentUserDep) -> dict[str, bool]:
    return {"ok": True}


@router.post("/t/json", dependencies=[JsonBodyDep])
def json_call(user: CurrentUserDep) -> dict[str, object]:
    return {"ok": True, "id": user.id}


@router.post("/t/grade", dependencies=[GradeLimitByClientDep])
def grade() -> dict[str, bool]:
    return {"ok": True}


@router.get("/t/instructor")
def instructor(user: InstructorDep) -> dict[str, bool]:
    return {"ok": True}


@pytest.fixture
def tclient(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"grades_per_minute": 2}))
    app.include_router(router)
    with TestClient(app) as test_client:
        yield test_client


def _token(client: TestClient) -> str:
    return client.get("/t/csrf").json()["token"]


def _users(client: TestClient) -> int:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        return len(session.exec(select(User)).all())


def test_first_visit_gets_a_hardened_cookie_and_stores_nothing(tclient: TestClient) -> None:
    response = tclient.get("/t/me")
    cookie = response.headers["set-cookie"]
    assert response.json() == {"id": 0, "guest": True}
    assert COOKIE_NAME in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert _users(tclient) == 0


def test_cookieless_reads_store_no_guests(tclient: TestClient) -> None:
    for _ in range(50):
        tclient.cookies.clear()
        assert tclient.get("/t/me").status_code == 200
    assert _users(tclient) == 0


def test_first_write_stores_the_guest_and_the_cookie_keeps_it(tclient: TestClient) -> None:
    tclient.get("/t/me")
    written = tclient.post("/t/json", json={}).json()["id"]
    assert written > 0 and _users(tclient) == 1
    assert tclient.get("/t/me").json()["id"] == written


def test_forged_form_stores_no_guest(tclient: TestClient) -> None:
    assert tclient.post("/t/form", data={"csrf_token": "0" * 64}).status_code == 403
    assert _users(tclient) == 0


def test_csrf_token_survives_the_first_write(tclient: TestClient) -> None:
    token = _token(tclient)  # taken before the guest row exists
    tclient.post("/t/json", json={})
    assert tclient.post("/t/form", data={"csrf_token": token}).json() == {"ok": True}


def test_tampered_cookie_is_a_new_visitor(tclient: TestClient) -> None:
    first = tclient.post("/t/json", json={}).json()["id"]
    # Replace the cookie as a browser would; a second cookie of the same name beside the
    # signed one would test which of two the server reads, not the signature check.
    tclient.cookies.clear()
    tclient.cookies.set(COOKIE_NAME, f"{first}.forged.signature")
    assert tclient.get("/t/me").json()["id"] != first


@pytest.mark.parametrize("token", [None, "", "0" * 64])
def test_form_post_without_valid_csrf_is_forbidden(tclient: TestClient, token: str | None) -> None:
    tclient.get("/t/me")
    data = {} if token is None else {"csrf_token": token}
    assert tclient.post("/t/form", data=data).status_code == 403


def test_form_post_with_csrf_token_passes(tclient: TestClient) -> None:
    token = _token(tclient)
    assert tclient.post("/t/form", data={"csrf_token": token}).json() == {"ok": True}


def test_csrf_token_of_another_identity_is_forbidden(tclient: TestClient) -> None:
    token = _token(tclient)
    tclient.cookies.clear()
    assert tclient.post("/t/form", data={"csrf_token": token}).status_code == 403


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_api_write_without_json_content_type_is_forbidden(
    tclient: TestClient, content_type: str
) -> None:
    response = tclient.post("/t/json", content=b"{}", headers={"content-type": content_type})
    assert response.status_code == 403


def test_api_write_with_json_passes(tclient: TestClient) -> None:
    assert tclient.post("/t/json", json={}).json()["ok"] is True


def test_learner_is_refused_instructor_route(tclient: TestClient) -> None:
    assert tclient.get("/t/instructor").status_code == 403


def test_grading_without_identity_is_limited_per_client(tclient: TestClient) -> None:
    codes = [tclient.post("/t/grade").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
