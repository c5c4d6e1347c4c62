"""Grade stored interview answers in the background, so no request waits for the sandbox.

A code answer is stored as "pending" by its request, which then moves the interview on; this
drain, one task on the main event loop, claims pending rows from the database (pending ->
grading, one conditional UPDATE), grades them and stores the result. Because the work list is
the database, it survives a restart: the drain of the next process finds what the killed one
left pending, or left "grading" (answers.abandoned). A full grading queue puts the row back
to pending and it is tried again a little later; nothing waits in a web worker thread.

Requests that want a result soon (the answer's own request, for the follow-up it may bring;
a finish, for a complete report) await `wait()`, which holds no thread. Round 15's class
(benchmarks/class_interviews.py) left 10 of 54 interview code answers ungraded with each
waiting answer holding a web thread for up to 90 s; docs/reliability.md has the figures.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.errors import AnswerInvalid
from app.models.interviews import InterviewAnswer
from app.offload import in_thread, offload
from app.packs.schema import Code, CodeFix
from app.services.interviews import answers, endings

log = logging.getLogger("tapequiz.interviews")
POLL_SECONDS = 2.0  # look for rows left by other processes (or a restart) this often
BUSY_RETRY_SECONDS = 2.0  # a row the full queue refused is tried again after this
REMEMBERED = 10_000  # settled row ids kept for late waiters


class Drain:
    """The background grader of pending interview answers (one per process)."""

    def __init__(
        self,
        engine: Engine,
        graders: Callable[[], answers.Graders],
        *,
        concurrency: int = 4,
    ) -> None:
        self._engine = engine
        self._graders = graders  # read each time: a published pack replaces the catalog
        self._slots = asyncio.Semaphore(max(1, concurrency))
        self._wake = asyncio.Event()
        self._running: set[int] = set()
        self._retry_at: dict[int, float] = {}
        self._settled: collections.OrderedDict[int, None] = collections.OrderedDict()
        self._waiters: list[tuple[set[int], asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        for task in (self._task, *self._tasks):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in (self._task, *self._tasks) if t), return_exceptions=True)

    def poke(self) -> None:
        """Something was stored pending: look now (callable from any thread)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    async def wait(self, ids: Iterable[int], timeout: float) -> bool:
        """Until every row in `ids` was settled here, or `timeout` s; True if they were.
        Await it on the main loop (the one that started the drain)."""
        wanted = set(ids) - self._settled.keys()
        if not wanted or timeout <= 0:
            return not wanted
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (wanted, future)
        self._waiters.append(entry)
        try:
            await asyncio.wait_for(asyncio.shield(future), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)

    async def _run(self) -> None:
        while True:
            self._wake.clear()  # before reading: a poke meanwhile reads again at once
            try:
                for row_id in await in_thread(self._due, asyncio.get_running_loop().time()):
                    await self._slots.acquire()
                    self._running.add(row_id)
                    task = asyncio.create_task(self._grade(row_id))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except Exception:  # a locked database: try again at the next poll
                log.exception("the interview grading drain could not read its work")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)

    def _due(self, clock: float) -> list[int]:
        """Pending rows (and rows a dead process left grading), oldest answer first; `clock`
        is the loop's time (rows the full queue refused wait until their retry time)."""
        query = (
            select(InterviewAnswer)
            .where(col(InterviewAnswer.status).in_(("pending", "grading")))
            .order_by(col(InterviewAnswer.answered_at))
            .limit(200)
        )
        with Session(self._engine) as session:
            rows = session.exec(query).all()
        return [
            r.id
            for r in rows
            if r.id is not None
            and r.id not in self._running
            and self._retry_at.get(r.id, 0.0) <= clock
            and (r.status == "pending" or answers.abandoned(r))
        ]

    async def _grade(self, row_id: int) -> None:
        try:
            row = await in_thread(self._claim, row_id)
            if row is not None:
                await self._grade_claimed(row)
        except asyncio.CancelledError:  # the server stops: the next one grades it
            await in_thread(self._store, row_id, {"status": "pending"})
            raise
        except Exception:
            log.exception("grading interview answer %s in the background failed", row_id)
            self._retry_at[row_id] = asyncio.get_running_loop().time() + POLL_SECONDS * 5
        finally:
            self._running.discard(row_id)
            self._slots.release()

    def _claim(self, row_id: int) -> InterviewAnswer | None:
        """pending -> grading (or take over an abandoned grading), in one conditional UPDATE."""
        with Session(self._engine) as session:
            row = session.get(InterviewAnswer, row_id)
            if row is None or not (row.status == "pending" or answers.abandoned(row)):
                return None
            claimed = session.execute(
                update(InterviewAnswer)
                .where(col(InterviewAnswer.id) == row_id, col(InterviewAnswer.status) == row.status)
                .values(status="grading", grading_error=None)
            )
            session.commit()
            if getattr(claimed, "rowcount", 1) != 1:
                return None
            session.refresh(row)
            answers.IN_FLIGHT.add(row_id)
            session.expunge(row)
            return row

    async def _grade_claimed(self, row: InterviewAnswer) -> None:
        assert row.id is not None
        try:
            grading = await self._grading(row)
        finally:
            answers.IN_FLIGHT.discard(row.id)
        if grading["status"] == "pending":  # the queue is full: back to pending, try later
            self._retry_at[row.id] = asyncio.get_running_loop().time() + BUSY_RETRY_SECONDS
        else:
            self._retry_at.pop(row.id, None)
        await in_thread(self._store, row.id, grading)
        if grading["status"] != "pending":
            self._settle(row.id)

    async def _grading(self, row: InterviewAnswer) -> dict[str, Any]:
        graders = self._graders()
        item = graders.catalog.questions.get(row.question_id)
        try:
            if item is not None and isinstance(item.question, Code | CodeFix):
                return await answers.grading_of(row, graders)  # awaits the pool, on this loop
            return await offload(answers.grading_of, row, graders)  # CPU work: a thread
        except AnswerInvalid as exc:  # checked when it was taken; a pack changed since
            return {"status": "ungraded", "grading_error": exc.message}

    def _store(self, row_id: int, grading: dict[str, Any]) -> None:
        """Write the grading over "grading" only (a finish may have settled it meanwhile)."""
        with Session(self._engine) as session:
            row = session.get(InterviewAnswer, row_id)
            if row is None:
                return
            answers.settle_grading(session, row, commit=False, **grading)
            if row.status == "pending":  # busy: back on the list, nothing else changed
                session.commit()
                return
            endings.graded_late(session, row, self._graders().catalog)  # in the same commit

    def _settle(self, row_id: int) -> None:
        self._settled[row_id] = None
        while len(self._settled) > REMEMBERED:
            self._settled.popitem(last=False)
        for wanted, future in list(self._waiters):
            wanted.discard(row_id)
            if not wanted and not future.done():
                future.set_result(None)
