"""The web side of grading as a service: submit a job to Redis, await its verdict.

Used instead of the in-process CodeGrader when TAPEQUIZ_REDIS_URL is set (chosen once at
start-up). It starts no sandbox: `tapequiz grader` processes, on this or other hosts, own
the pools. Callers see the same interface (grade, trial, queue, pool.status()), so routes and
services never ask which one they have. Admission uses the deployment's real queue depth
(jobs waiting or running in the stream) against the capacity the live graders announce; a
request that gives up (time-out, client gone) cancels its job so no grader keeps running it.
The waiting page's place in line counts the same shared stream (positions.SharedQueue).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import uuid
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.config import Settings
from app.errors import GraderBusy
from app.grading.code.grader import infrastructure_error, limits_from, precheck
from app.grading.remote import jobs
from app.grading.remote.positions import SharedQueue
from app.grading.results import GradeResult
from app.packs.schema import Code, CodeFix

log = logging.getLogger(__name__)
REFRESH_SECONDS = 1.0
UNREACHABLE = "the grading queue (Redis) is unreachable"
NO_GRADER = (
    "no grading host with a working sandbox is connected (an administrator starts `tapequiz "
    "grader` and reads its log)"
)


class Fleet:
    """What the graders announced, refreshed in the background: /healthz reads it as a pool."""

    def __init__(self) -> None:
        self.graders: dict[str, int] = {}
        self.depth = 0
        self.reachable = False

    @property
    def workers(self) -> int:
        return sum(self.graders.values())

    def status(self) -> dict[str, object]:
        state = "ready" if self.workers else "starting" if self.reachable else "unavailable"
        facts: dict[str, object] = {
            "backend": "remote",
            "state": state,
            "ready_workers": self.workers,
            "queue_depth": self.depth,
            "graders": len(self.graders),
        }
        if not self.reachable:
            facts["reason"] = "Redis is unreachable"
        return facts


class RemoteCodeGrader:
    def __init__(self, settings: Settings) -> None:
        self.limits = limits_from(settings)
        self.redis: Redis = jobs.client(settings.redis_url)
        self.queue_size = settings.sandbox_queue_size
        self.timeout = settings.grading_timeout_seconds
        self.pool = Fleet()  # named like the in-process grader's pool for /healthz
        self.queue = SharedQueue(self.redis)  # places in the deployment's queue
        self._submit = self.redis.register_script(jobs.SUBMIT)
        self._refresher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        with contextlib.suppress(Exception):  # the group may exist; Redis may come up later
            await self.redis.xgroup_create(jobs.STREAM, jobs.GROUP, id="0", mkstream=True)
        await self.refresh()
        self._refresher = asyncio.create_task(self._refresh_forever())

    async def stop(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._refresher, jobs.STOP_SECONDS)
        await jobs.tidy(self.redis.aclose())

    async def refresh(self) -> None:
        try:
            names = [key async for key in self.redis.scan_iter(match=jobs.GRADERS + "*")]
            sizes = await self.redis.mget(names) if names else []
            self.pool.depth = int(await self.redis.xlen(jobs.STREAM))
            await self.queue.refresh(workers=sum(int(s) for s in sizes if s), depth=self.pool.depth)
        except Exception as err:  # any Redis fault
            self.pool.reachable = False
            log.warning("grading queue unreachable: %s", err)
            return
        self.pool.reachable = True
        self.pool.graders = {
            name.removeprefix(jobs.GRADERS): int(size)
            for name, size in zip(names, sizes, strict=True)
            if size
        }

    async def _refresh_forever(self) -> None:
        while True:
            jobs.stop_if_cancel_requested()
            await asyncio.sleep(REFRESH_SECONDS)
            await self.refresh()

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        began = time.monotonic()
        refused = precheck(source, self.limits)
        if refused:
            return refused
        reply = await self._run("grade", question, source)
        if isinstance(reply, str):
            return infrastructure_error(reply)
        assert isinstance(reply, GradeResult)
        reply.details.setdefault("elapsed_ms", round((time.monotonic() - began) * 1000))
        return reply

    async def trial(self, question: Code | CodeFix, source: str) -> dict[str, Any]:
        refused = precheck(source, self.limits)
        if refused:
            return {"error": {"type": "refused", "message": refused.feedback[0].message}}
        reply = await self._run("trial", question, source)
        if isinstance(reply, str):
            return {"error": {"type": "unavailable", "message": reply}}
        assert isinstance(reply, dict)
        return reply

    async def _run(
        self, kind: str, question: Code | CodeFix, source: str
    ) -> GradeResult | dict[str, Any] | str:
        """The reply, or a plain reason why there is none (no grader, Redis down, time-out)."""
        if not self.pool.reachable:
            return UNREACHABLE
        if not self.pool.workers:
            return NO_GRADER
        job_id = uuid.uuid4().hex
        deadline = time.time() + self.timeout
        try:
            entry, ahead = await self._enqueue(job_id, kind, question, source, deadline)
        except (RedisError, OSError) as err:
            log.warning("could not queue a grading job: %s", err)
            return UNREACHABLE
        try:
            with self.queue.holding(entry, ahead) as ticket:
                shared = await self.queue.share(ticket, entry, deadline - time.time())
                try:
                    payload = await self._wait(job_id, deadline)
                finally:
                    if shared:
                        await asyncio.shield(self.queue.unshare(ticket, entry))
        except (RedisError, OSError) as err:
            log.warning("lost the grading queue while waiting: %s", err)
            await asyncio.shield(self._cancel(job_id, entry))
            return UNREACHABLE
        except BaseException:
            await asyncio.shield(self._cancel(job_id, entry))
            raise
        if payload is None:
            await asyncio.shield(self._cancel(job_id, entry))
            return f"no grading host answered within {self.timeout:.0f} s"
        return jobs.decode_reply(payload)

    async def _enqueue(
        self, job_id: str, kind: str, question: Code | CodeFix, source: str, deadline: float
    ) -> tuple[str, int]:
        """The job's stream entry and how many jobs (any web process's) are ahead of it."""
        capacity = self.pool.workers + self.queue_size
        fields = jobs.encode_job(
            job_id=job_id, kind=kind, question=question, source=source, deadline=deadline
        )
        pairs = [item for pair in fields.items() for item in pair]
        queued = await self._submit(keys=[jobs.STREAM], args=[capacity, *pairs])
        if not queued:
            raise GraderBusy("The code checker is busy; try again shortly.", self._retry_after())
        entry, ahead = queued
        return str(entry), int(ahead)

    async def _wait(self, job_id: str, deadline: float) -> str | None:
        while (left := deadline - time.time()) > 0:
            popped = await self.redis.blpop([jobs.reply_key(job_id)], timeout=min(2, left))
            if popped:
                return str(popped[1])
        return None

    async def _cancel(self, job_id: str, entry: str) -> None:
        """Mark the job cancelled (a grader running it stops it) and drop it from the queue
        if no grader has taken it yet."""
        with contextlib.suppress(Exception):
            await self.redis.set(jobs.cancel_key(job_id), "1", ex=jobs.RESULT_TTL)
            await self.redis.xdel(jobs.STREAM, entry)

    def _retry_after(self) -> int:
        return max(1, math.ceil(self.pool.depth / max(1, self.pool.workers)))
