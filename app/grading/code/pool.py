"""The warm pool: keeps N sandboxed workers ready (TensorFlow imported, step traced once).

A submission takes a ready worker instead of waiting ~3.5 s for `import tensorflow`; the used
worker is destroyed and a replacement warms up in the background at low CPU priority. Workers
get distinct slots, so no two live workers ever share a uid (RLIMIT_NPROC counts per uid).
If workers repeatedly fail to start, the pool records why, so grading can say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.grading.code.workers import Outcome, Worker, WorkerFailed, close, run, spawn
from app.grading.sandbox import cgroups, uids
from app.grading.sandbox.launcher import Limits

log = logging.getLogger(__name__)
SPAWN_PARALLEL = 2
FAILURES_BEFORE_BROKEN = 3


class PoolBroken(RuntimeError):
    """Workers cannot be started on this host (no bwrap, no cgroups, not root, ...)."""


class WorkerPool:
    def __init__(self, *, size: int, uid_base: int, limits: Limits) -> None:
        self.size, self.uid_base, self.limits = size, uid_base, limits
        self._ready: asyncio.Queue[Worker] = asyncio.Queue()
        self._free_slots = set(range(size * 2 + SPAWN_PARALLEL))
        self._uids: dict[int, uids.UidClaim] = {}
        self._spawning = 0
        self._wanted = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing: set[asyncio.Task[None]] = set()
        self._failures = 0
        self._spawned = 0
        self._stopping = False
        self.broken: str = ""

    async def start(self) -> None:
        """Begin filling the pool in the background; returns at once."""
        try:
            await asyncio.to_thread(cgroups.sweep_stale)
        except OSError as err:  # not root, no cgroups: the fill loop will report why
            log.warning("could not sweep stale sandbox cgroups: %s", err)
        self._wanted.set()
        self._tasks = [asyncio.create_task(self._fill()) for _ in range(SPAWN_PARALLEL)]

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()  # a cancelled spawn closes its half-warm worker itself
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        while not self._ready.empty():
            await self._retire(self._ready.get_nowait())
        await self.settle()
        await asyncio.to_thread(cgroups.remove_instance)

    async def run(self, job: dict[str, Any], wall: float) -> Outcome:
        """Run one job on a fresh ready worker (waiting for one if needed)."""
        worker = await self._take()
        try:
            outcome = await run(worker, job, self.limits, wall)
        except BaseException:
            await self._retire(worker)
            raise
        task = asyncio.create_task(self._retire(worker))  # kill + cleanup after answering
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return outcome

    async def settle(self) -> None:
        """Wait until every used worker is gone (its cgroup removed, its uid released)."""
        while self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)

    async def _take(self) -> Worker:
        while True:
            if self.broken:
                raise PoolBroken(self.broken)
            getter = asyncio.create_task(self._ready.get())
            done, _ = await asyncio.wait({getter}, timeout=1.0)
            if getter in done:
                self._wanted.set()
                return getter.result()
            getter.cancel()

    async def _fill(self) -> None:
        while not self._stopping:
            await self._wanted.wait()
            if self._stopping:
                return
            if self._ready.qsize() + self._spawning >= self.size or not self._free_slots:
                self._wanted.clear()
                continue
            slot = self._free_slots.pop()
            self._spawning += 1
            try:
                self._uids[slot] = uids.claim(self.uid_base)
                self._spawned += 1
                name = f"s{slot}-{self._spawned}"  # unique: a finished worker's group stays gone
                worker = await spawn(slot, self._uids[slot].uid, self.limits, name)
            except (WorkerFailed, OSError, cgroups.CgroupUnavailable) as err:
                self._release_slot(slot)
                await self._failed(err)
                continue
            finally:
                self._spawning -= 1
            self._failures, self.broken = 0, ""
            self._ready.put_nowait(worker)  # stop() retires it if we are stopping

    async def _failed(self, err: Exception) -> None:
        self._failures += 1
        log.warning("sandbox worker failed to start (%d): %s", self._failures, err)
        if self._failures >= FAILURES_BEFORE_BROKEN:
            self.broken = f"sandbox workers cannot start on this host: {err}"
        await asyncio.sleep(min(30.0, 0.5 * 2**self._failures))

    def _release(self, worker: Worker) -> None:
        self._release_slot(worker.slot)
        self._wanted.set()

    def _release_slot(self, slot: int) -> None:
        claim = self._uids.pop(slot, None)
        if claim is not None:
            claim.release()
        self._free_slots.add(slot)

    async def _retire(self, worker: Worker) -> None:
        await close(worker)
        self._release(worker)
