"""Domain errors as HTML pages for the page routers (the JSON API keeps main.py's handler).

A route class rather than a global handler: the same NotFound must be JSON under /api and a
readable page under /sessions, and this keeps that decision with the routers that render.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from app.errors import TapequizError
from app.identity import recognise_reader
from app.web.templating import templates

TITLES = {
    403: "Not allowed",
    404: "Not found",
    409: "Not possible right now",
    413: "Too large to accept",
    422: "Please check your input",
    429: "Slow down a little",
    501: "Not available on this server",
    503: "The graders are busy",
}


def render_error(request: Request, exc: TapequizError) -> Response:
    retry_after = getattr(exc, "retry_after", None)
    headers = {"Retry-After": str(retry_after)} if retry_after else None
    context = {
        "status": exc.status_code,
        "title": TITLES.get(exc.status_code, "Something went wrong"),
        "message": exc.message,
        "retry_after": retry_after,
    }
    return templates.TemplateResponse(
        request, "errors/error.html", context, status_code=exc.status_code, headers=headers
    )


async def render_error_page(request: Request, exc: TapequizError) -> Response:
    """`render_error` for a page no route drew (404, 413, ...): no dependency has read the
    identity, so it is looked up here (in a worker thread), or the nav would show a signed-in
    instructor "Log in" and no Instructor link."""
    if getattr(request.state, "user", None) is None:
        await run_in_threadpool(recognise_reader, request)
    return render_error(request, exc)


class HtmlErrorRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                return await handler(request)
            except TapequizError as exc:
                return await render_error_page(request, exc)

        return route
