"""The read threads of async page handlers (issue 16)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from app.web.reads import PageReads


def _answer(engine: Engine, value: int) -> tuple[int, str]:
    with engine.connect() as conn:
        return conn.execute(
            text("SELECT :v"), {"v": value}
        ).scalar_one(), threading.current_thread().name


def _fail(_engine: Engine) -> None:
    raise LookupError("no such row")


@pytest.fixture
def reads() -> Iterator[PageReads]:
    found = PageReads(create_engine("sqlite://"), threads=2)
    yield found
    found.close()


def test_read_runs_off_the_loop_and_returns_its_result(reads: PageReads) -> None:
    async def main() -> tuple[int, str]:
        return await reads.run(_answer, 41)

    value, thread = asyncio.run(main())
    assert value == 41
    assert thread.startswith("tapequiz-read-")


def test_failed_read_raises_in_the_awaiting_request(reads: PageReads) -> None:
    async def main() -> None:
        await reads.run(_fail)

    with pytest.raises(LookupError, match="no such row"):
        asyncio.run(main())


def test_many_concurrent_reads_each_get_their_own_result(reads: PageReads) -> None:
    async def main() -> list[int]:
        found = await asyncio.gather(*(reads.run(_answer, n) for n in range(200)))
        return [value for value, _ in found]

    assert asyncio.run(main()) == list(range(200))


def test_a_cancelled_request_leaves_the_threads_serving(reads: PageReads) -> None:
    def slow(engine: Engine) -> int:
        time.sleep(0.2)
        return 1

    async def main() -> tuple[int, str]:
        waiting = asyncio.ensure_future(reads.run(slow))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return await reads.run(_answer, 7)

    assert asyncio.run(main())[0] == 7


def test_close_stops_every_thread() -> None:
    reads = PageReads(create_engine("sqlite://"), threads=3)
    reads.close()
    for thread in reads._threads:
        thread.join(timeout=5)
        assert not thread.is_alive()
