"""Refuse text that is not well-formed Unicode at the edge (422), before any handler sees it.

JSON may legally carry `"\\ud800"`, a lone UTF-16 surrogate that Python accepts as a str but
UTF-8 cannot encode: stored, it broke every page that showed it (issue 12). NUL characters
are refused too (PostgreSQL cannot store them in text). JSON bodies are parsed a second time
only when their bytes contain such an escape; form bodies and query strings are checked for
an encoded NUL (their other bytes are decoded leniently by Starlette, never into surrogates).
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import AnswerInvalid

_SUSPECT_JSON = re.compile(rb"\\u[dD][89a-fA-F]|\\u0000|\x00")
_BAD = re.compile("[\ud800-\udfff\x00]")
_NUL_ENCODED = re.compile(rb"%00|\x00")


def first_bad_text(value: Any, path: str = "body") -> str | None:
    """Where the first lone surrogate or NUL is in a parsed JSON value, else None."""
    if isinstance(value, str):
        found = _BAD.search(value)
        return f"{path} (character {found.start() + 1})" if found else None
    if isinstance(value, list):
        items: Any = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        return None
    for key, item in items:
        where = first_bad_text(key, f"{path} key") if isinstance(key, str) else None
        where = where or first_bad_text(item, f"{path}.{key}")
        if where:
            return where
    return None


def _problem(scope: Scope, body: bytes) -> str | None:
    if _NUL_ENCODED.search(scope.get("query_string", b"")):
        return "the query string"
    kind = dict(scope.get("headers", [])).get(b"content-type", b"").split(b";")[0].strip()
    if kind == b"application/json" and _SUSPECT_JSON.search(body):
        try:
            return first_bad_text(json.loads(body))
        except ValueError:
            return None  # not JSON at all: FastAPI answers that itself
    if kind == b"application/x-www-form-urlencoded" and _NUL_ENCODED.search(body):
        return "a form field"
    return None


class WellFormedText:
    """ASGI middleware: buffers the (already size-limited) body, checks it, replays it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            if scope["type"] == "http" and _NUL_ENCODED.search(scope.get("query_string", b"")):
                await self._refuse(scope, receive, send, "the query string")
                return
            await self.app(scope, receive, send)
            return
        if _is_multipart(scope):  # uploads: zip bytes, checked by the pack validator
            await self.app(scope, receive, send)
            return
        messages, body = await _read_all(receive)
        where = _problem(scope, body)
        if where is not None:
            await self._refuse(scope, receive, send, where)
            return
        await self.app(scope, _replay(messages, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, where: str) -> None:
        message = (
            f"{where} is not well-formed Unicode text (a lone UTF-16 surrogate such as "
            "\\ud800, or a NUL character); send valid UTF-8 text"
        )
        response: Response
        if scope.get("path", "").startswith("/api"):
            body = {"error": "invalid_text", "message": message, "details": []}
            response = JSONResponse(body, status_code=422)
        else:
            from app.web.htmlerrors import render_error_page

            response = await render_error_page(Request(scope, receive), AnswerInvalid(message))
        await response(scope, receive, send)


def _is_multipart(scope: Scope) -> bool:
    kind = dict(scope.get("headers", [])).get(b"content-type", b"")
    return kind.startswith(b"multipart/")


async def _read_all(receive: Receive) -> tuple[list[Message], bytes]:
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return messages, b"".join(chunks)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
