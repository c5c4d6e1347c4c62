"""Ids no row can have (issue 12): 2**63 and beyond in a path is a 404 or 422, never a 500
(SQLite raised OverflowError binding it). Every GET route with an integer in its path."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

import app.routes
from tests.routes.test_api_instructor import promote_current_user


def _int_get_routes() -> list[str]:
    """Every GET path with an integer parameter, from each router module of app/routes."""
    paths = []
    for info in pkgutil.iter_modules(app.routes.__path__):
        router = getattr(importlib.import_module(f"app.routes.{info.name}"), "router", None)
        for route in getattr(router, "routes", []):
            if not isinstance(route, APIRoute) or "GET" not in route.methods:
                continue
            if any(p.field_info.annotation is int for p in route.dependant.path_params):
                paths.append(route.path_format)
    return paths


@pytest.mark.parametrize("number", [2**63, 2**64 + 5, 10**30])
def test_huge_ids_in_paths_are_404_or_422(client: TestClient, number: int) -> None:
    promote_current_user(client)  # instructor routes too, past their role check
    paths = _int_get_routes()
    assert len(paths) >= 5
    for path in paths:
        url = re.sub(r"\{[^}]+\}", str(number), path)
        reply = client.get(url, follow_redirects=False)
        assert reply.status_code in (404, 422), (url, reply.status_code)


def test_huge_id_in_an_api_write_is_422(client: TestClient) -> None:
    reply = client.post(f"/api/sessions/{2**63}/answers", json={"answer": "x"})
    assert reply.status_code == 422
