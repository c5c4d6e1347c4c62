"""Refuse oversized request bodies before any handler buffers them (413, JSON body).

Answers are small (code is capped at 64 KiB); a body several times larger is a mistake or
an attack, and reading it into memory first would already be the damage.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodySizeLimit:
    """`max_bytes` for every path except those in `larger` (e.g. pack uploads)."""

    def __init__(self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}

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
            await self._refuse(send, limit)
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
                await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {"error": "too_large", "message": f"request body over {limit // 1024} KiB"}
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


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
