"""Refuse oversized request bodies before any handler buffers them (413).

Answers are small (code is capped at 64 KiB); a body several times larger is a mistake or
an attack, and reading it into memory first would already be the damage. The API answers
JSON; a browser form gets a page (`page`), not a JSON body shown as text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from fastapi import UploadFile
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TooLargePage = Callable[[Request, int], Awaitable[Response]]


def upload_paths(routes: Iterable[BaseRoute]) -> list[str]:
    """Paths of the routes that take an uploaded file: the ones a larger limit is for.

    Read from the routes themselves, so a new upload form cannot be missed (issue: the
    instructor page's form posted to a path the hand-written list did not name)."""
    return [
        route.path
        for route in routes
        if isinstance(route, APIRoute)
        and any(p.field_info.annotation is UploadFile for p in route.dependant.body_params)
    ]


class BodySizeLimit:
    """`max_bytes` for every path except those in `larger` (e.g. pack uploads)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        larger: dict[str, int] | None = None,
        page: TooLargePage | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}
        self.page = page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared, chunked = _body_headers(scope)
        if declared is None and not chunked and scope.get("method") in ("GET", "HEAD"):
            await self.app(scope, receive, send)  # no body can come: nothing to count
            return
        limit = self.larger.get(scope.get("path", ""), self.max_bytes)
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise _TooLarge
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:  # a handler that already answered keeps its answer
                await self._refuse(scope, receive, send, limit)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        path = scope.get("path", "")
        response: Response
        if self.page is not None and not (path.startswith("/api/") or path == "/api"):
            response = await self.page(Request(scope), limit)
        else:
            message = f"request body over {limit // 1024} KiB"
            response = JSONResponse({"error": "too_large", "message": message}, status_code=413)
        await response(scope, receive, send)


def _body_headers(scope: Scope) -> tuple[bytes | None, bool]:
    """The declared length and whether the body is chunked, found without building a dict
    of every header on each request."""
    declared, chunked = None, False
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            declared = bytes(value)
        elif name == b"transfer-encoding":
            chunked = True
    return declared, chunked


class _TooLarge(Exception):
    pass
