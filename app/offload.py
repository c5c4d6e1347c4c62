"""Keep blocking work off the event loop: run an async handler in a worker thread.

Some handlers are `async def` only because code grading awaits the sandbox pool, which lives
on the event loop. The use cases around that await make synchronous database calls and
CPU-bound free-text grading; run on the loop, one of them stalls every request of the
process (issue 12: 50 answers at once froze the server for 30 s). So such a handler is
decorated with `@offloaded`: it runs in a worker thread, on an event loop of its own, while
the code grader (wrapped in `OnLoop` by the dependency that hands it out) still runs every
coroutine of its own on the main loop, where its pool and queue live. `offload()` and
`in_thread()` do the same for one call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import anyio.to_thread
from starlette.requests import Request

from app.grading.results import GradeResult
from app.packs.schema import Code, CodeFix

P = ParamSpec("P")
T = TypeVar("T")


async def offload(fn: Callable[P, Awaitable[T]], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Await `fn(*args, **kwargs)` run in a worker thread on a private event loop."""
    call = functools.partial(fn, *args, **kwargs)
    return await anyio.to_thread.run_sync(_run_private, call)


async def in_thread(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Await a blocking function (a database query, a page render) run in a worker thread."""
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def offloaded(endpoint: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Decorate an `async def` route handler that makes blocking calls (a database session,
    CPU grading, template rendering): FastAPI still sees its signature (via __wrapped__)."""

    @functools.wraps(endpoint)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        for value in kwargs.values():
            if isinstance(value, Request) and _has_form(value):
                await value.form()  # read (and cache) the body on the loop that owns it
        return await offload(endpoint, *args, **kwargs)

    return run


def offloads_itself(endpoint: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Mark an `async def` route handler that must await something on the main loop holding
    no thread (the interview grading drain) and so runs each blocking call itself through
    `offload()` or `in_thread()`. Changes nothing at run time: the lint in
    tests/web/test_event_loop.py accepts it in place of `@offloaded`, and LoopGuard, which
    every route test runs with, fails a blocking call it missed."""
    return endpoint


def _has_form(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind in ("application/x-www-form-urlencoded", "multipart/form-data")


def _run_private(call: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await call()

    return asyncio.run(main())


class OnLoop:
    """A code grader whose coroutines always run on `loop` (the main one), wherever the
    caller awaits them from. Other attributes pass through unchanged."""

    def __init__(self, target: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._target = target
        self._loop = loop

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        result: GradeResult = await self._on_loop(self._target.grade, question, source)
        return result

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not inspect.iscoroutinefunction(attr):
            return attr
        return functools.partial(self._on_loop, attr)

    async def _on_loop(
        self, method: Callable[..., Coroutine[Any, Any, Any]], *args: Any, **kw: Any
    ) -> Any:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover (always awaited from some loop)
            running = None
        if running is self._loop or self._loop.is_closed():
            return await method(*args, **kw)
        future: concurrent.futures.Future[Any]
        future = asyncio.run_coroutine_threadsafe(method(*args, **kw), self._loop)
        return await asyncio.wrap_future(future)
