"""A few threads of its own for the short database reads of `async def` page handlers.

The question page is an `async def` handler that makes one thread hop for its reads and
renders on the loop. Through anyio's default pool (40 threads) that hop cost ~40 us of CPU
under 50 concurrent requests and woke a crowd of threads contending for the GIL; through a
`ThreadPoolExecutor` ~16 us (a concurrent Future, a Condition and a chained asyncio Future
per call); handing the call over on a `SimpleQueue` and the result back with
`call_soon_threadsafe` ~4 us (issue 16, measured with uvloop, 50 at once). Reads are short
(one indexed query), so a handful of threads keeps up with one process's CPU, and a slow
database queues page reads here without taking threads from the blocking handlers' pool.

Each thread keeps one connection open between reads (checking one out of the pool and back
in cost ~30 us of the page's ~90 us query, issue 16) and ends its transaction after every
read, so no snapshot is held between reads. A kept connection skips the pool's pre-ping, so
a read that finds it broken (the database restarted) is run once more on a fresh one; any
other failure drops the connection too, and the next read opens a new one.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger("tapequiz.reads")
Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[Connection], Any]]


class PageReads:
    """`await reads.run(fn, ...)` calls `fn(connection, ...)` in one of the read threads;
    `connection.engine` is there for a read that must write (in a session of its own)."""

    def __init__(self, engine: Engine, threads: int, *, keep: bool = True) -> None:
        self.engine = engine
        self.keep = keep  # False: a connection goes back to the pool after each read
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._serve, name=f"tapequiz-read-{n}", daemon=True)
            for n in range(max(1, threads))
        ]
        for thread in self._threads:
            thread.start()

    async def run(
        self, fn: Callable[Concatenate[Connection, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, lambda conn: fn(conn, *args, **kwargs)))
        return await future

    def close(self, wait: float = 2.0) -> None:
        """Let each thread finish the read it is on and give its connection back, then stop
        (waiting up to `wait` seconds in all, so that shutdown never hangs on a slow read)."""
        for _ in self._threads:
            self._jobs.put(None)
        deadline = time.monotonic() + wait
        for thread in self._threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def _serve(self) -> None:
        kept: Connection | None = None
        while (job := self._jobs.get()) is not None:
            loop, future, call = job
            try:
                kept, result = self._call(kept, call)
                outcome: tuple[Any, BaseException | None] = (result, None)
                if not self.keep:
                    _drop(kept)
                    kept = None
            except BaseException as exc:  # handed to the awaiting request, raised there
                outcome = (None, exc)
                _drop(kept)
                kept = None
            try:
                loop.call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:  # the loop closed while the read ran: nobody waits
                log.debug("a page read finished after its event loop closed")
        _drop(kept)

    def _call(
        self, kept: Connection | None, call: Callable[[Connection], T]
    ) -> tuple[Connection, T]:
        """`call` on the kept connection; if that connection turns out broken (the server
        restarted since the last read), once more on a fresh one, as a pre-ping would have
        found it. So what runs here must be safe to run twice: reads are."""
        if kept is not None:
            try:
                return kept, self._finish(kept, call)
            except DBAPIError as exc:
                if not exc.connection_invalidated:
                    raise
                log.warning("a kept page-read connection was broken; reading on a new one")
                _drop(kept)
        fresh = self.engine.connect()
        try:
            return fresh, self._finish(fresh, call)
        except BaseException:
            _drop(fresh)
            raise

    @staticmethod
    def _finish(conn: Connection, call: Callable[[Connection], T]) -> T:
        result = call(conn)
        conn.rollback()  # no transaction (no snapshot) held until the next read
        return result


def _drop(conn: Connection | None) -> None:
    """Give a connection back (the pool resets it, or discards it if it is broken)."""
    if conn is not None:
        try:
            conn.close()
        except Exception:  # already broken: the pool has let it go
            log.debug("closing a page-read connection failed", exc_info=True)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # the request gave up (client gone): drop the result
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
