"""The warm pool: keeps N sandboxed workers ready (TensorFlow imported, step traced once).

A submission takes a ready worker instead of waiting ~3.5 s for `import tensorflow`; the used
worker is destroyed and a replacement warms up in the background at low CPU priority. The
sandbox backend is chosen once, at start; the pool never asks which one it got. If no backend
works, or workers keep failing to start, the pool says why in plain words (for code answers)
and stops trying after its back-off, instead of retrying and logging forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.grading.code.workers import (
    Outcome,
    Worker,
    WorkerFailed,
    close,
    run,
    spawn,
    tree_name,
)
from app.grading.code.zygotes import ForkServer, Unsupported
from app.grading.sandbox import backends
from app.grading.sandbox.backends import Backend, Unavailable
from app.grading.sandbox.launcher import Limits

log = logging.getLogger(__name__)
SPAWN_PARALLEL = 2
FAILURES_BEFORE_BROKEN = 3
BACKOFF_SECONDS = 0.5  # doubled per failure: 1 s, 2 s, then the pool gives up
FAILED_TO_START = (
    "sandbox workers could not start on this server; an administrator can run "
    "`tapequiz doctor` and read the server log"
)


def _startup_log() -> logging.Logger:
    """uvicorn's own logger when serving (so the line shows without logging set-up)."""
    server = logging.getLogger("uvicorn.error")
    return server if server.hasHandlers() else log


class PoolBroken(RuntimeError):
    """Workers cannot be started on this host (no bwrap, no cgroups, no user namespaces...)."""


class WorkerPool:
    def __init__(
        self,
        *,
        size: int,
        uid_base: int,
        limits: Limits,
        backend: str = "auto",
        fork_server: bool = False,
        zygote_max_forks: int = 500,
    ) -> None:
        self.size, self.uid_base, self.limits = size, uid_base, limits
        self.wanted_backend = backend
        self.backend: Backend | None = None
        self.fork_server, self.zygote_max_forks = fork_server, zygote_max_forks
        self.forks: ForkServer | None = None  # set at start when the fork server is on
        self._ready: asyncio.Queue[Worker] = asyncio.Queue()
        self._spawning = 0
        self._waiting = 0
        self._wanted = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing: set[asyncio.Task[None]] = set()
        self._failures = 0
        self._stopping = False
        self.broken: str = ""

    async def start(self) -> None:
        """Choose the backend and begin filling the pool in the background."""
        self.backend, refused = await asyncio.to_thread(
            backends.choose, self.wanted_backend, uid_base=self.uid_base
        )
        _startup_log().info(backends.describe(self.backend, refused))
        if self.backend is None:
            self.broken = "no sandbox can run on this server: " + "; ".join(
                f"{name}: {reason}" for name, reason in refused.items()
            )
            return
        try:
            await asyncio.to_thread(self.backend.sweep)
        except OSError as err:
            log.warning("could not sweep stale sandbox trees: %s", err)
        if self.fork_server:  # workers are forked from a zygote instead of exec-spawned
            self.forks = ForkServer(self.backend, self.limits, max_forks=self.zygote_max_forks,
                                    max_children=self.size + SPAWN_PARALLEL + 2)  # fmt: skip
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
        if self.forks is not None:
            await self.forks.close()  # the zygote exits once its children are gone
        if self.backend is not None:
            await asyncio.to_thread(self.backend.close)

    def status(self) -> dict[str, object]:
        """For /healthz: which backend, how many workers are ready, how many jobs wait."""
        state = "unavailable" if self.broken else "ready" if self._ready.qsize() else "starting"
        facts: dict[str, object] = {
            "backend": self.backend.name if self.backend else None,
            "state": state,
            "ready_workers": self._ready.qsize(),
            "queue_depth": self._waiting,
        }
        if self.broken:
            facts["reason"] = self.broken
        return facts

    def ready_workers(self) -> list[Worker]:
        """The workers waiting for a job now, oldest first (a copy: the pool's own is not
        handed out). For tests and benchmarks that look at them from the host."""
        return list(self._ready._queue)  # type: ignore[attr-defined]

    async def run(self, job: dict[str, Any], wall: float) -> Outcome:
        """Run one job on a fresh ready worker (waiting for one if needed)."""
        if self.forks is not None:
            self.forks.saw(job.get("contract"))  # children forked next prebuild its scenarios
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
        """Wait until every used worker is gone (its tree killed and released)."""
        while self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)

    async def _take(self) -> Worker:
        self._waiting += 1
        try:
            while True:
                if self.broken:
                    raise PoolBroken(self.broken)
                getter = asyncio.create_task(self._ready.get())
                done, _ = await asyncio.wait({getter}, timeout=1.0)
                if getter in done:
                    self._wanted.set()
                    worker = getter.result()
                    if worker.process.returncode is not None:  # died while ready (its zygote
                        await self._retire(worker)  # died, say): never hand it a job
                        continue
                    return worker
                getter.cancel()
        finally:
            self._waiting -= 1

    async def _fill(self) -> None:
        assert self.backend is not None
        while not self._stopping and not self.broken:
            await self._wanted.wait()
            if self._stopping or self.broken:
                return
            if self._ready.qsize() + self._spawning >= self.size:
                self._wanted.clear()
                continue
            self._spawning += 1
            name = tree_name("w")  # unique in the process: a finished tree stays gone
            try:
                if self.forks is not None:
                    try:
                        worker = await self.forks.spawn(name, step=not self._awaited())
                    except Unsupported as err:
                        log.warning("fork server off: %s", err)
                        self.forks = None
                        worker = await spawn(self.backend, self.limits, name)
                else:
                    worker = await spawn(self.backend, self.limits, name)
            except (WorkerFailed, OSError, Unavailable) as err:
                await self._failed(err)
                continue
            finally:
                self._spawning -= 1
            self._failures = 0
            self._ready.put_nowait(worker)  # stop() retires it if we are stopping

    def _awaited(self) -> bool:
        """Whether a job will wait for the worker about to start: one already waits, or none is
        ready (start-up, a burst). A forked one then skips its warm step: in a burst the step
        costs more CPU than it saves, and the job wants the worker as soon as possible."""
        return self._waiting > 0 or self._ready.qsize() == 0

    async def _failed(self, err: Exception) -> None:
        self._failures += 1
        if self._failures >= FAILURES_BEFORE_BROKEN:
            log.error("sandbox workers cannot start; giving up until restart: %s", err)
            self.broken = FAILED_TO_START
            return
        log.warning("sandbox worker failed to start (%d): %s", self._failures, err)
        await asyncio.sleep(BACKOFF_SECONDS * 2**self._failures)
        # The slot is still empty: another filler may have seen it taken by this spawn and
        # cleared `_wanted`, and nothing else would set it (the pool then waited forever).
        self._wanted.set()

    async def _retire(self, worker: Worker) -> None:
        await close(worker)
        self._wanted.set()
