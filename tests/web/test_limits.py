"""The body-size guard: one limit for every route, a larger one only for upload paths."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, Router

from app.web.limits import BodySizeLimit


async def _echo_size(request: Request) -> PlainTextResponse:
    return PlainTextResponse(str(len(await request.body())))


def _client() -> TestClient:
    app = Router(routes=[Route("/{path:path}", _echo_size, methods=["POST", "GET"])])
    return TestClient(BodySizeLimit(app, max_bytes=1024, larger={"/upload": 4096}))


@pytest.mark.parametrize(
    ("path", "size", "status"),
    [
        ("/answer", 1024, 200),
        ("/answer", 1025, 413),
        ("/upload", 4096, 200),
        ("/upload", 4097, 413),
    ],
)
def test_body_size_limit_per_path(path: str, size: int, status: int) -> None:
    response = _client().post(path, content=b"x" * size)
    assert response.status_code == status


def test_body_size_limit_counts_chunked_bodies_without_content_length() -> None:
    def chunks() -> object:
        for _ in range(4):
            yield b"x" * 512

    response = _client().post("/answer", content=chunks())
    assert response.status_code == 413
    assert response.json()["message"] == "request body over 1 KiB"


def test_get_with_a_body_is_limited_like_a_post() -> None:
    def chunks() -> object:
        for _ in range(4):
            yield b"x" * 512

    client = _client()
    assert client.request("GET", "/answer", content=b"x" * 2048).status_code == 413
    assert client.request("GET", "/answer", content=chunks()).status_code == 413
    assert client.get("/answer").text == "0"  # no body: passed straight through
