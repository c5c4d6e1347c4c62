"""`tapequiz grader`: a grading host that takes jobs from Redis and runs them on its own pool.

It owns an ordinary CodeGrader (warm sandbox pool, reference cache on this host's disk) and
feeds it from the `graders` consumer group of the jobs stream. Delivery is at-least-once:
a job stays pending until its verdict is stored; while this grader works on a job it renews
the job's idle time every second, so a job whose idle time passes CLAIM_IDLE belongs to a
dead grader and another grader claims it (XAUTOCLAIM). The first stored verdict wins (FINISH
in jobs.py), so a job graded twice is still answered once. A job past its deadline or
cancelled by its web process is dropped, and one that is cancelled while running is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import time
import uuid
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from app.config import Settings
from app.errors import GraderBusy
from app.grading.code.grader import CodeGrader, infrastructure_error
from app.grading.remote import jobs

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 1.0
CLAIM_IDLE_MS = 5_000  # a pending job untouched this long belongs to a dead grader
MAX_ATTEMPTS = 3  # deliveries before a job is answered with an error instead


def grader_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class GraderService:
    def __init__(self, settings: Settings, *, name: str | None = None, grader: Any = None) -> None:
        self.settings = settings
        self.name = name or grader_name()
        self.slots = settings.sandbox_pool_size
        self.redis: Redis = jobs.client(settings.redis_url)
        self.grader = grader or CodeGrader(settings)  # tests pass a stand-in
        self.claim_idle_ms = CLAIM_IDLE_MS
        self._finish = self.redis.register_script(jobs.FINISH)
        self._running: dict[str, asyncio.Task[None]] = {}  # stream entry id -> its job
        self._stopping = asyncio.Event()

    async def serve(self) -> None:
        """Run until stop(): announce, take jobs, keep them alive, claim dead graders' jobs."""
        await self._join()
        await self.grader.start()
        beat = asyncio.create_task(self._heartbeat())
        log.info("grader %s taking jobs (%d workers)", self.name, self.slots)
        try:
            await self._consume()
        finally:
            beat.cancel()
            for task in list(self._running.values()):
                task.cancel()  # their jobs stay pending: another grader claims them
            # Bounded: a stop must never hang on a wedged task or connection.
            await jobs.tidy(asyncio.gather(beat, *self._running.values(), return_exceptions=True))
            await jobs.tidy(self.redis.delete(jobs.GRADERS + self.name))
            await self.grader.stop()
            await jobs.tidy(self.redis.aclose())

    def stop(self) -> None:
        self._stopping.set()

    async def _join(self) -> None:
        """Create the consumer group if needed, waiting for Redis if it is not up yet."""
        while not self._stopping.is_set():
            jobs.stop_if_cancel_requested()
            try:
                await self.redis.xgroup_create(jobs.STREAM, jobs.GROUP, id="0", mkstream=True)
                return
            except ResponseError:  # BUSYGROUP: it exists already
                return
            except (RedisError, OSError) as err:
                log.warning("waiting for the grading queue: %s", err)
                await asyncio.sleep(1.0)

    async def _consume(self) -> None:
        while not self._stopping.is_set():
            jobs.stop_if_cancel_requested()
            free = self.slots - len(self._running)
            if free <= 0:
                await asyncio.sleep(0.05)
                continue
            try:
                entries = await self._claim(free) or await self._read(free)
            except (RedisError, OSError) as err:  # Redis restarting: wait, do not die
                log.warning("grading queue unreachable, retrying: %s", err)
                await asyncio.sleep(1.0)
                continue
            for entry_id, fields in entries:
                task = asyncio.create_task(self._handle(entry_id, fields))
                self._running[entry_id] = task
                task.add_done_callback(functools.partial(self._forget, entry_id))

    def _forget(self, entry_id: str, _task: asyncio.Task[None]) -> None:
        self._running.pop(entry_id, None)

    async def _read(self, count: int) -> list[tuple[str, dict[str, str]]]:
        reply: Any = await self.redis.xreadgroup(
            jobs.GROUP, self.name, {jobs.STREAM: ">"}, count=count, block=500
        )
        return [(entry, fields) for _stream, entries in reply or [] for entry, fields in entries]

    async def _claim(self, count: int) -> list[tuple[str, dict[str, str]]]:
        """Jobs of graders that stopped renewing them (killed, frozen, cut off)."""
        reply = await self.redis.xautoclaim(
            jobs.STREAM, jobs.GROUP, self.name, self.claim_idle_ms, "0-0", count=count
        )
        claimed = [(entry_id, fields) for entry_id, fields in reply[1] if fields]
        for entry_id, _ in claimed:
            log.warning(
                "grader %s took over job entry %s from a silent grader", self.name, entry_id
            )
        return claimed

    async def _heartbeat(self) -> None:
        while True:
            jobs.stop_if_cancel_requested()
            try:
                await self._beat()
            except (RedisError, OSError) as err:
                log.warning("heartbeat not sent: %s", err)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def _beat(self) -> None:
        """Announce this grader's workers and renew the jobs it is running."""
        broken = getattr(getattr(self.grader, "pool", None), "broken", "")
        if broken:  # offers no workers: web processes answer "no grader" at once
            await self.redis.delete(jobs.GRADERS + self.name)
        else:
            await self.redis.set(jobs.GRADERS + self.name, self.slots, ex=3)
        if self._running:  # renew: these jobs are alive, nobody may claim them
            await self.redis.xclaim(
                jobs.STREAM, jobs.GROUP, self.name, 0, list(self._running), justid=True
            )

    async def _handle(self, entry_id: str, fields: dict[str, str]) -> None:
        job_id = fields.get("id", entry_id)
        try:
            payload = await self._answer(job_id, fields)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug or a broken host: answered, never left hanging
            log.exception("job %s failed", job_id)
            payload = jobs.encode_result(infrastructure_error(f"the grading host failed: {err}"))
        if payload is None:  # abandoned: acknowledged and gone, no verdict
            await self.redis.xack(jobs.STREAM, jobs.GROUP, entry_id)
            await self.redis.xdel(jobs.STREAM, entry_id)
            return
        keys = [jobs.result_key(job_id), jobs.reply_key(job_id), jobs.STREAM]
        await self._finish(keys=keys, args=[payload, jobs.RESULT_TTL, jobs.GROUP, entry_id])

    async def _answer(self, job_id: str, fields: dict[str, str]) -> str | None:
        """The reply payload, or None when nobody waits for it any more."""
        deadline = float(fields.get("deadline", "0"))
        if await self._abandoned(job_id, deadline):
            return None
        attempts = await self.redis.incr(jobs.attempts_key(job_id))
        await self.redis.expire(jobs.attempts_key(job_id), jobs.RESULT_TTL)
        if attempts > MAX_ATTEMPTS:
            reason = f"grading this answer failed {MAX_ATTEMPTS} times on the grading hosts"
            return jobs.encode_result(infrastructure_error(reason))
        work = asyncio.create_task(self._run(fields))
        while not work.done():
            await asyncio.wait({work}, timeout=0.5)
            if not work.done() and await self._abandoned(job_id, deadline):
                work.cancel()  # kills the sandboxed worker (the pool retires it)
                with contextlib.suppress(asyncio.CancelledError):
                    await work
                log.info("job %s cancelled by its web process", job_id)
                return None
        return work.result()

    async def _abandoned(self, job_id: str, deadline: float) -> bool:
        return time.time() > deadline or bool(await self.redis.exists(jobs.cancel_key(job_id)))

    async def _run(self, fields: dict[str, str]) -> str:
        question = jobs.decode_question(fields)
        source = fields.get("source", "")
        try:
            if fields.get("kind") == "trial":
                report: dict[str, Any] = await self.grader.trial(question, source)
                return jobs.encode_trial(report)
            return jobs.encode_result(await self.grader.grade(question, source))
        except GraderBusy as err:  # interrupted on every worker (busy cannot happen here)
            return jobs.encode_refusal(err)


async def run_grader(settings: Settings) -> None:
    """`tapequiz grader`: serve until SIGTERM/SIGINT, then hand unfinished jobs back."""
    import signal

    if not logging.getLogger().handlers:  # a grading host's log is what its operator reads
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    service = GraderService(settings)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, service.stop)
    await service.serve()
