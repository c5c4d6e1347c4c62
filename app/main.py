"""The ASGI application: settings, catalog, code grader, routers and error handlers.

Wiring only. The list of routers in create_app() is the URL map of the product.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

from app import ratelimits
from app.config import REPO_ROOT, Settings, get_settings
from app.db import LoopGuard, StorageHealth, make_engine, storage_fault
from app.errors import NotFound, PackInvalid, TapequizError
from app.grading.freetext.preload import preload
from app.grading.remote import code_grader
from app.identity import IdentityCookies
from app.processes import check_settings, follow_publications, prepare_schema, publish_stamp, shared
from app.routes import (
    api_instructor,
    api_interviews,
    api_progress,
    api_questions,
    api_sessions,
    apidocs,
    auth,
    health,
)
from app.routes import instructor as instructor_pages
from app.routes import interviews as interview_pages
from app.routes import pages as web_pages
from app.routes import quiz as quiz_pages
from app.services.instructor.publishing import load_serving_catalog
from app.services.interviews.answers import Graders
from app.services.interviews.drain import Drain
from app.web.htmlerrors import render_error, render_error_page
from app.web.jsonerrors import error_body, json_error
from app.web.limits import BodySizeLimit, upload_paths
from app.web.reads import PageReads
from app.web.wellformed import WellFormedText

log = logging.getLogger("tapequiz")


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    check_settings(settings)  # several processes need one signing key
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app.state.engine = make_engine(settings)
    # Each read thread keeps a connection: at most a fifth of the pool (none from a pool of
    # under 10), the rest stays for the worker threads of blocking handlers.
    connections = settings.db_pool_size + settings.db_pool_overflow
    threads, keep = max(1, min(8, connections // 5)), connections >= 10
    app.state.page_reads = PageReads(app.state.engine, threads=threads, keep=keep)
    app.state.loop = asyncio.get_running_loop()
    app.state.storage_health = StorageHealth()
    app.state.storage_health.watch(app.state.engine)
    prepare_schema(app.state.engine, settings)  # migrate once (locked), refuse if behind
    stamp = publish_stamp(app.state.engine)  # before the catalog loads: no publish missed
    app.state.catalog = load_serving_catalog(settings)  # built-in + latest published versions
    for problem in app.state.catalog.problems:
        log.error("pack problem: %s", problem)
    app.state.rate_limit_store = ratelimits.choose(settings, app.state.engine)
    grader = code_grader(settings)  # in-process pool, grading hosts via Redis, or none
    app.state.code_grader = grader
    if grader is not None:
        await grader.start()
    app.state.drain = start_drain(app, settings)
    follower = None
    if shared(settings):  # packs published through another process
        install = functools.partial(setattr, app.state, "catalog")
        follower = asyncio.create_task(
            follow_publications(app.state.engine, settings, install, stamp)
        )
    # what the first free-text answers would read (the built-in packs' phrasings too)
    preload(settings, app.state.catalog)
    app.state.loop_guard = LoopGuard(app.state.loop)  # start-up may block; serving may not
    app.state.loop_guard.watch(app.state.engine)
    try:
        yield
    finally:
        if follower is not None:
            follower.cancel()
        await app.state.drain.stop()
        if grader is not None:
            await grader.stop()
        app.state.page_reads.close()
        app.state.engine.dispose()


def start_drain(app: FastAPI, settings: Settings) -> Drain:
    """The background grader of interview code answers; it reads the catalog and the code
    grader each time (a published pack replaces one, tests the other) and keeps twice the
    sandbox workers busy, leaving the rest of the queue to practice answers."""
    state = app.state

    def graders() -> Graders:
        return Graders(catalog=state.catalog, code_grader=state.code_grader)

    busy = min(settings.sandbox_queue_size, 2 * settings.sandbox_pool_size)
    drain = Drain(state.engine, graders, concurrency=busy)
    drain.start()
    return drain


async def _domain_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TapequizError)
    return json_error(exc, list(exc.problems) if isinstance(exc, PackInvalid) else None)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Unknown URLs and wrong methods: JSON under /api, a readable page everywhere else."""
    assert isinstance(exc, StarletteHTTPException)
    error = TapequizError(str(exc.detail))
    error.status_code, error.code = (
        exc.status_code,
        "not_found" if exc.status_code == 404 else "http_error",
    )
    if request.url.path.startswith(("/api/", "/static/")) or request.url.path == "/api":
        body = error_body(error.code, error.message)
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)
    return await render_error_page(request, error)


def _json_or_page(request: Request, error: TapequizError) -> Response:
    if request.url.path.startswith("/api/") or request.url.path == "/api":
        return json_error(error, details=())
    return render_error(request, error)


async def _storage_error(request: Request, exc: Exception) -> Response:
    """Database faults: busy, read-only or full storage is a clear 503 + Retry-After."""
    error = storage_fault(exc)
    if error is None:
        return await _server_error(request, exc)
    log.warning("%s %s: %s", request.method, request.url.path, exc)
    return _json_or_page(request, error)


async def _id_out_of_range(request: Request, _exc: Exception) -> Response:
    """An id no row can have (>= 2**63) in a path the route did not bound itself."""
    return _json_or_page(request, NotFound("no such item: that id is out of range"))


async def _server_error(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback, answered with a readable page or JSON body."""
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    error = TapequizError("something went wrong on our side; it has been logged")
    error.status_code, error.code = 500, "internal_error"
    return _json_or_page(request, error)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = [{"loc": list(e.get("loc", ())), "message": e.get("msg", "")} for e in exc.errors()]
    readable = "; ".join(f"{'.'.join(map(str, d['loc']))}: {d['message']}" for d in details)
    return JSONResponse(error_body("invalid_request", readable, details), status_code=422)


def _too_large_page(pack_max: int) -> Callable[[Request, int], Awaitable[Response]]:
    async def page(request: Request, limit: int) -> Response:
        message = f"What was sent is over {limit // 1024} KiB, more than this page accepts."
        if limit > pack_max:  # an upload route: say what the learner can act on
            message = f"That file is too large: a zipped pack may be up to {pack_max // 1024} KiB."
        error = TapequizError(message)
        error.status_code, error.code = 413, "too_large"
        return await render_error_page(request, error)

    return page


def _add_middleware(app: FastAPI, routes: list[BaseRoute]) -> None:
    settings: Settings = app.state.settings
    # Multipart framing adds a little to the zip itself, hence the margin on upload paths.
    upload_limit = settings.pack_upload_max_bytes + 64 * 1024
    uploads = dict.fromkeys(upload_paths(routes), upload_limit)
    page = _too_large_page(settings.pack_upload_max_bytes)
    app.add_middleware(WellFormedText)  # inside the size limit: it buffers bodies
    app.add_middleware(BodySizeLimit, max_bytes=256 * 1024, larger=uploads, page=page)
    app.add_middleware(IdentityCookies, secure=settings.cookie_secure)


def create_app(settings: Settings | None = None) -> FastAPI:
    app = FastAPI(
        title="tapequiz",
        version="0.1.0",
        description="Interview practice on how a tf.GradientTape training step works.",
        lifespan=lifespan,
        docs_url=None,  # app/routes/apidocs.py serves /docs without a CDN
    )
    app.state.settings = settings or get_settings()
    app.add_exception_handler(TapequizError, _domain_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(DBAPIError, _storage_error)
    app.add_exception_handler(PoolTimeout, _storage_error)
    app.add_exception_handler(OverflowError, _id_out_of_range)
    app.add_exception_handler(Exception, _server_error)
    routes: list[BaseRoute] = []
    # Matched in this order, one route at a time (~2 us each): the pages a class hits most
    # come first. No path of one router can match another's, so the order changes nothing else.
    for router in (
        quiz_pages.router,
        web_pages.router,
        health.router,
        api_questions.router,
        api_instructor.router,
        instructor_pages.router,
        api_sessions.router,
        api_progress.router,
        auth.router,
        api_interviews.router,
        interview_pages.router,
        apidocs.router,
    ):
        app.include_router(router)
        routes.extend(router.routes)
    _add_middleware(app, routes)
    static = Path(REPO_ROOT / "static")
    app.mount("/static", StaticFiles(directory=static), name="static")
    return app


app = create_app()
