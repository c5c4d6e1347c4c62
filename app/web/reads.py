"""A few threads of its own for the short database reads of `async def` page handlers.

The question page is an `async def` handler that makes one thread hop for its reads and
renders on the loop. Through anyio's default pool (40 threads) that hop cost ~40 us of CPU
under 50 connections and woke a crowd of threads contending for the GIL; a small executor
of its own costs ~15 us (issue 16, measured with uvloop). Reads are short (one indexed
query), so a handful of threads keeps up with one process's CPU; a slow database queues
page reads here without taking threads from the blocking handlers' pool.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Engine

P = ParamSpec("P")
T = TypeVar("T")


class PageReads:
    """`await reads.run(fn, ...)` calls `fn(engine, ...)` in one of the read threads."""

    def __init__(self, engine: Engine, threads: int) -> None:
        self.engine = engine
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="tapequiz-read")

    async def run(
        self, fn: Callable[Concatenate[Engine, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        call = functools.partial(fn, self.engine, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
