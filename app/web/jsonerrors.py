"""Domain errors as the JSON API's answer: one body (`error`, `message`, `details`) and the
Retry-After a 429 or 503 carries, for main.py's handlers and any route that answers JSON."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.responses import JSONResponse

from app.errors import TapequizError


def error_body(code: str, message: str, details: Sequence[object] = ()) -> dict[str, object]:
    return {"error": code, "message": message, "details": list(details)}


def json_error(exc: TapequizError, details: Sequence[object] | None = None) -> JSONResponse:
    """`exc` as JSON; `details` replaces the error's own (None: keep them)."""
    retry_after = getattr(exc, "retry_after", None)  # GraderBusy (503), RateLimited (429)
    headers = {"Retry-After": str(retry_after)} if retry_after else None
    body = error_body(exc.code, exc.message, exc.details if details is None else details)
    return JSONResponse(body, status_code=exc.status_code, headers=headers)
