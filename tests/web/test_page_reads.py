"""The read threads of async page handlers (issue 16)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine

from app.web.reads import PageReads


def _answer(conn: Connection, value: int) -> tuple[int, str]:
    found = conn.execute(text("SELECT :v"), {"v": value}).scalar_one()
    return found, threading.current_thread().name


def _fail(_conn: Connection) -> None:
    raise LookupError("no such row")


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    found = create_engine(f"sqlite:///{tmp_path / 'reads.db'}")
    with found.begin() as conn:
        conn.execute(text("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)"))
    return found


@pytest.fixture
def reads(engine: Engine) -> Iterator[PageReads]:
    found = PageReads(engine, threads=2)
    yield found
    found.close()


def _run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_read_runs_off_the_loop_and_returns_its_result(reads: PageReads) -> None:
    value, thread = _run(reads.run(_answer, 41))  # type: ignore[misc]
    assert value == 41
    assert thread.startswith("tapequiz-read-")


def test_failed_read_raises_in_the_awaiting_request(reads: PageReads) -> None:
    with pytest.raises(LookupError, match="no such row"):
        _run(reads.run(_fail))


def test_thread_serves_again_after_a_failed_read(reads: PageReads) -> None:
    async def main() -> int:
        for _ in range(3):
            with pytest.raises(LookupError):
                await reads.run(_fail)
        return (await reads.run(_answer, 5))[0]

    assert _run(main()) == 5


def test_many_concurrent_reads_each_get_their_own_result(reads: PageReads) -> None:
    async def main() -> list[int]:
        found = await asyncio.gather(*(reads.run(_answer, n) for n in range(200)))
        return [value for value, _ in found]

    assert _run(main()) == list(range(200))


def test_a_kept_connection_sees_every_later_write(reads: PageReads, engine: Engine) -> None:
    def count(conn: Connection) -> int:
        return int(conn.execute(text("SELECT count(*) FROM note")).scalar_one())

    async def main() -> list[int]:
        seen = []
        for n in range(4):
            seen.append(await reads.run(count))
            with engine.begin() as conn:  # a write between two reads, elsewhere
                conn.execute(text("INSERT INTO note (body) VALUES (:b)"), {"b": str(n)})
        return seen

    assert _run(main()) == [0, 1, 2, 3]


def test_no_transaction_is_left_open_between_reads(reads: PageReads) -> None:
    def open_transaction(conn: Connection) -> bool:
        return conn.in_transaction()

    async def main() -> list[bool]:
        await reads.run(_answer, 1)
        return [await reads.run(open_transaction) for _ in range(4)]

    assert _run(main()) == [False] * 4


def test_a_cancelled_request_leaves_the_threads_serving(reads: PageReads) -> None:
    def slow(_conn: Connection) -> int:
        time.sleep(0.2)
        return 1

    async def main() -> int:
        waiting = asyncio.ensure_future(reads.run(slow))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return (await reads.run(_answer, 7))[0]

    assert _run(main()) == 7


def test_close_stops_every_thread_and_returns_its_connection(engine: Engine) -> None:
    reads = PageReads(engine, threads=3)

    async def main() -> None:
        await asyncio.gather(*(reads.run(_answer, n) for n in range(30)))

    _run(main())
    reads.close()
    for thread in reads._threads:
        thread.join(timeout=5)
        assert not thread.is_alive()
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_failed_read_gives_every_connection_back(engine: Engine) -> None:
    # One thread, so the failing reads run on the thread that kept the first read's
    # connection (with two, a thread that only ever succeeded rightly keeps its own).
    reads = PageReads(engine, threads=1)

    async def main() -> None:
        await reads.run(_answer, 1)  # a kept connection now
        for _ in range(5):
            with pytest.raises(LookupError):
                await reads.run(_fail)

    _run(main())
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    reads.close()


def test_reads_that_keep_nothing_give_each_connection_back(engine: Engine) -> None:
    reads = PageReads(engine, threads=2, keep=False)

    async def main() -> list[int]:
        return [(await reads.run(_answer, n))[0] for n in range(5)]

    assert _run(main()) == [0, 1, 2, 3, 4]
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    reads.close()


def test_question_page_on_a_one_connection_pool_leaves_it_for_writes(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.routes.quiz.conftest import mini_settings, start

    settings = mini_settings(tmp_path, db_pool_size=1, db_pool_overflow=0, db_pool_timeout=1)
    with TestClient(create_app(settings)) as client:
        url = start(client, "mini-single")
        for _ in range(3):
            assert client.get(url).status_code == 200
            assert client.post("/api/sessions", json={"question_ids": ["mini-tf"]}).is_success
