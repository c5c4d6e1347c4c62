"""A few threads of its own for the short database reads of `async def` page handlers.

The question page is an `async def` handler that makes one thread hop for its reads and
renders on the loop. Through anyio's default pool (40 threads) that hop cost ~40 us of CPU
under 50 concurrent requests and woke a crowd of threads contending for the GIL; through a
`ThreadPoolExecutor` ~16 us (a concurrent Future, a Condition and a chained asyncio Future
per call); handing the call over on a `SimpleQueue` and the result back with
`call_soon_threadsafe` ~4 us (issue 16, measured with uvloop, 50 at once). Reads are short
(one indexed query), so a handful of threads keeps up with one process's CPU, and a slow
database queues page reads here without taking threads from the blocking handlers' pool.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Engine

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger("tapequiz.reads")
Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]


class PageReads:
    """`await reads.run(fn, ...)` calls `fn(engine, ...)` in one of the read threads."""

    def __init__(self, engine: Engine, threads: int) -> None:
        self.engine = engine
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._serve, name=f"tapequiz-read-{n}", daemon=True)
            for n in range(max(1, threads))
        ]
        for thread in self._threads:
            thread.start()

    async def run(
        self, fn: Callable[Concatenate[Engine, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, lambda: fn(self.engine, *args, **kwargs)))
        return await future

    def close(self) -> None:
        """Let each thread finish the read it is on, then stop (no new reads are taken)."""
        for _ in self._threads:
            self._jobs.put(None)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, call = job
            try:
                outcome: tuple[Any, BaseException | None] = (call(), None)
            except BaseException as exc:  # handed to the awaiting request, raised there
                outcome = (None, exc)
            try:
                loop.call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:  # the loop closed while the read ran: nobody waits
                log.debug("a page read finished after its event loop closed")


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # the request gave up (client gone): drop the result
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
