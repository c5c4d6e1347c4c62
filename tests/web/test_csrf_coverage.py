"""Every state-changing route is guarded: HTML forms by a CSRF token, JSON calls by
requiring application/json (see app/identity.py). New routes are checked automatically."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi.routing import APIRoute

from app.identity import require_custom_header, require_json, verify_csrf_form
from app.main import create_app

# Stateless: grades and stores nothing, reads no identity.
STATELESS = {"/api/questions/{question_id}/grade"}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
GUARDS = {verify_csrf_form, require_json, require_custom_header}


def _routes(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        inner = getattr(route, "original_router", None)  # routers included by FastAPI
        yield from _routes(inner.routes) if inner is not None else [route]


def _calls(dependant: Any) -> list[Callable[..., Any]]:
    return [dependant.call, *(c for d in dependant.dependencies for c in _calls(d))]


def _unguarded() -> set[str]:
    return {
        route.path
        for route in _routes(create_app().routes)
        if isinstance(route, APIRoute)
        and route.methods & WRITES
        and not GUARDS & set(_calls(route.dependant))
    }


def test_every_state_changing_route_is_guarded() -> None:
    assert _unguarded() <= STATELESS


def test_the_check_sees_the_quiz_forms() -> None:
    guarded = {r.path for r in _routes(create_app().routes) if isinstance(r, APIRoute)}
    assert {"/sessions/{session_id}/answer", "/login", "/api/sessions"} <= guarded
