"""Grading as a service against a real Redis: web-side submitter, grader-side consumer, with
a stand-in code grader (no sandbox) so each semantic is checked quickly and exactly."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.errors import GraderBusy
from app.grading.code.queue import current_ticket
from app.grading.remote import jobs
from app.grading.remote.consumer import GraderService
from app.grading.remote.submitter import RemoteCodeGrader
from app.grading.results import Feedback, GradeResult
from app.packs.loader import load_pack
from app.packs.schema import Code, CodeFix
from tests.conftest import FIXTURE_PACKS

T = TypeVar("T")
SOURCE = "def train_step(model, optimizer, loss_fn, x, y):\n    return 0\n"


def _question() -> Code:
    pack = load_pack(FIXTURE_PACKS / "mini").pack
    assert pack is not None
    question = next(q.question for q in pack.questions if q.question.id == "mini-code")
    assert isinstance(question, Code)
    return question


class StandIn:
    """Grades instantly with a verdict naming it, or blocks until cancelled."""

    def __init__(self, name: str, *, block: bool = False) -> None:
        self.name, self.block = name, block
        self.started = asyncio.Event()
        self.cancelled = 0
        self.graded = 0

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        self.started.set()
        try:
            if self.block:
                await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.graded += 1
        return GradeResult("correct", 1.0, [Feedback("correct", self.name)], [], {"by": self.name})

    async def trial(self, question: Code | CodeFix, source: str) -> dict[str, Any]:
        return {"calls": [], "by": self.name}


def _settings(redis_url: str, tmp_path: Path, **changes: Any) -> Settings:
    return Settings(data_dir=tmp_path, redis_url=redis_url, sandbox_pool_size=1,
                    secret_key="k", **changes)  # fmt: skip


async def _within(seconds: float, waiting: Awaitable[T]) -> T:
    return await asyncio.wait_for(waiting, seconds)


async def _until(check: Callable[[], Awaitable[bool]], seconds: float = 15) -> None:
    async def poll() -> None:
        while not await check():
            await asyncio.sleep(0.05)

    await _within(seconds, poll())


async def _web(settings: Settings) -> RemoteCodeGrader:
    web = RemoteCodeGrader(settings)
    await web.start()
    return web


async def _graders(web: RemoteCodeGrader, count: int) -> None:
    async def announced() -> bool:
        await web.refresh()
        return len(web.pool.graders) >= count

    await _until(announced)


def _serve(service: GraderService) -> asyncio.Task[None]:
    return asyncio.create_task(service.serve())


async def _shut(*tasks: asyncio.Task[None]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_grade_returns_the_graders_verdict(redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> tuple[GradeResult, dict[str, Any], int]:
        settings = _settings(redis_url, tmp_path)
        web, fake = await _web(settings), StandIn("host-a")
        serving = _serve(GraderService(settings, name="a", grader=fake))
        await _graders(web, 1)
        result = await _within(10, web.grade(_question(), SOURCE))
        trial = await _within(10, web.trial(_question(), SOURCE))
        depth = await web.redis.xlen(jobs.STREAM)
        await _shut(serving)
        await web.stop()
        return result, trial, depth

    result, trial, depth = asyncio.run(scenario())
    assert (result.verdict, result.details["by"], trial["by"], depth) == (
        "correct",
        "host-a",
        "host-a",
        0,
    )


def test_job_of_a_dead_grader_is_finished_by_another(redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> tuple[str, int, int]:
        settings = _settings(redis_url, tmp_path)
        web = await _web(settings)
        stuck, healthy = StandIn("dead", block=True), StandIn("alive")
        dead = GraderService(settings, name="dead", grader=stuck)
        dying = _serve(dead)
        await _graders(web, 1)
        grading = asyncio.create_task(web.grade(_question(), SOURCE))
        await _within(10, stuck.started.wait())
        await _shut(dying)  # gone mid-job: its entry stays pending, unacknowledged
        rescuer = GraderService(settings, name="alive", grader=healthy)
        rescuer.claim_idle_ms = 300
        serving = _serve(rescuer)
        result = await _within(20, grading)
        depth = await web.redis.xlen(jobs.STREAM)  # acknowledged and gone
        await _shut(serving)
        await web.stop()
        return str(result.details["by"]), healthy.graded + stuck.graded, depth

    assert asyncio.run(scenario()) == ("alive", 1, 0)


def test_only_the_first_result_is_delivered(redis_url: str) -> None:
    async def scenario() -> tuple[list[str], str | None]:
        redis = Redis.from_url(redis_url, decode_responses=True)
        await redis.xgroup_create(jobs.STREAM, jobs.GROUP, id="0", mkstream=True)
        entry = await redis.xadd(jobs.STREAM, {"id": "job1"})
        finish = redis.register_script(jobs.FINISH)
        keys = [jobs.result_key("job1"), jobs.reply_key("job1"), jobs.STREAM]
        for payload in ("first", "second"):
            await finish(keys=keys, args=[payload, 60, jobs.GROUP, entry])
        replies = await redis.lrange(jobs.reply_key("job1"), 0, -1)
        kept = await redis.get(jobs.result_key("job1"))
        await redis.aclose()
        return replies, kept

    assert asyncio.run(scenario()) == (["first"], "first")


def test_full_queue_is_busy_with_retry_after(redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        settings = _settings(redis_url, tmp_path, sandbox_queue_size=1)
        web = await _web(settings)
        await web.redis.set(jobs.GRADERS + "silent", 1, ex=60)  # announces 1 worker, takes none
        await web.refresh()
        waiting = [asyncio.create_task(web.grade(_question(), SOURCE)) for _ in range(2)]
        await _until(lambda: _depth_is(web, 2))
        await web.refresh()
        with pytest.raises(GraderBusy) as busy:
            await web.grade(_question(), SOURCE)
        await _shut(*waiting)  # cancelled requests withdraw their jobs
        await _until(lambda: _depth_is(web, 0))
        depth = await web.redis.xlen(jobs.STREAM)
        await web.stop()
        return busy.value.retry_after, depth

    retry_after, depth = asyncio.run(scenario())
    assert retry_after >= 1 and depth == 0


async def _depth_is(web: RemoteCodeGrader, depth: int) -> bool:
    return int(await web.redis.xlen(jobs.STREAM)) == depth


def test_timed_out_request_stops_its_running_job(redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> tuple[str, int, int]:
        settings = _settings(redis_url, tmp_path, grading_timeout_seconds=1.0)
        web, slow = await _web(settings), StandIn("slow", block=True)
        serving = _serve(GraderService(settings, name="g", grader=slow))
        await _graders(web, 1)
        result = await _within(10, web.grade(_question(), SOURCE))

        async def stopped() -> bool:
            return slow.cancelled == 1 and await _depth_is(web, 0)

        await _until(stopped)
        await _shut(serving)
        await web.stop()
        return result.verdict, slow.cancelled, slow.graded

    assert asyncio.run(scenario()) == ("error", 1, 0)


def test_no_grader_connected_is_an_unavailable_verdict(redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> tuple[str, int]:
        web = await _web(_settings(redis_url, tmp_path))
        result = await web.grade(_question(), SOURCE)
        depth = await web.redis.xlen(jobs.STREAM)
        await web.stop()
        return result.feedback[0].message, depth

    message, depth = asyncio.run(scenario())
    assert "no grading host with a working sandbox" in message and depth == 0


def test_redis_gone_is_an_unavailable_verdict(tmp_path: Path) -> None:
    from tests.scale.servers import free_port

    async def scenario() -> tuple[str, str]:
        web = RemoteCodeGrader(_settings(f"redis://127.0.0.1:{free_port()}/0", tmp_path))
        web.pool.reachable, web.pool.graders = True, {"gone": 1}  # as last seen, then it died
        result = await _within(10, web.grade(_question(), SOURCE))
        trial = await _within(10, web.trial(_question(), SOURCE))
        await web.redis.aclose()
        return result.feedback[0].message, trial["error"]["type"]

    message, trial = asyncio.run(scenario())
    assert "unreachable" in message and trial == "unavailable"


def test_grader_whose_sandbox_is_broken_offers_no_workers(redis_url: str, tmp_path: Path) -> None:
    class Broken(StandIn):
        pool = type("Pool", (), {"broken": "no sandbox can run on this server"})()

    async def scenario() -> tuple[int, str]:
        settings = _settings(redis_url, tmp_path)
        web = await _web(settings)
        serving = _serve(GraderService(settings, name="broken", grader=Broken("b")))
        await asyncio.sleep(1.5)  # a heartbeat or two
        await web.refresh()
        result = await _within(10, web.grade(_question(), SOURCE))
        await _shut(serving)
        await web.stop()
        return web.pool.workers, result.feedback[0].message

    workers, message = asyncio.run(scenario())
    assert workers == 0 and "no grading host with a working sandbox" in message


def test_grader_waits_for_redis_instead_of_dying(tmp_path: Path) -> None:
    from tests.scale.servers import free_port

    async def scenario() -> tuple[bool, bool]:
        settings = _settings(f"redis://127.0.0.1:{free_port()}/0", tmp_path)
        service = GraderService(settings, name="patient", grader=StandIn("p"))
        serving = _serve(service)
        await asyncio.sleep(1.5)
        alive = not serving.done()
        service.stop()
        await _within(10, serving)
        return alive, serving.done()

    assert asyncio.run(scenario()) == (True, True)


def test_a_swallowed_cancel_still_stops_the_loops() -> None:
    """A Redis call cancelled mid-read can return normally; the loops still stop (a grader
    blocked in XREADGROUP used to loop for ever after ~1 in 15 cancels)."""

    async def scenario() -> bool:
        async def swallowing_loop() -> None:
            while True:
                jobs.stop_if_cancel_requested()
                with contextlib.suppress(asyncio.CancelledError):  # a read eating the cancel
                    await asyncio.sleep(0.01)

        task = asyncio.create_task(swallowing_loop())
        await asyncio.sleep(0.02)
        task.cancel()
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 2)
        return task.cancelled()

    assert asyncio.run(scenario())


def test_queue_place_counts_every_web_process_jobs(redis_url: str, tmp_path: Path) -> None:
    """Two web processes share one queue: a submission's place counts the other's jobs too,
    and a poll reaching the process that does not hold the ticket is answered the same."""

    async def scenario() -> tuple[list[tuple[bool, int, int]], list[tuple[bool, int, int]]]:
        settings = _settings(redis_url, tmp_path)
        web_a, web_b = await _web(settings), await _web(settings)
        await web_a.redis.set(jobs.GRADERS + "silent", 1, ex=60)  # 1 worker, takes no job

        async def submit(web: RemoteCodeGrader, ticket: str) -> GradeResult:
            current_ticket.set(ticket)  # what the page's form sends with its answer
            return await web.grade(_question(), SOURCE)

        waiting = []
        for depth, (web, ticket) in enumerate(
            [(web_a, "ticket-a1"), (web_a, "ticket-a2"), (web_b, "ticket-b1"), (web_a, "ticket-a3")]
        ):
            await web.refresh()
            waiting.append(asyncio.create_task(submit(web, ticket)))
            await _until(functools.partial(_depth_is, web_a, depth + 1))  # arrival order
        for web in (web_a, web_b):
            await web.refresh()
        held = [web_b.queue.status("ticket-b1"), web_a.queue.status("ticket-a3")]
        held.append(web_b.queue.status("ticket-a1"))  # another process's: not held here
        polled = [await web_b.queue.place(t) for t in ("ticket-a1", "ticket-a3", "ticket-b1")]
        polled.append(await web_a.queue.place("ticket-b1"))
        await _shut(*waiting)
        await _until(lambda: _depth_is(web_a, 0))
        await web_b.refresh()
        polled.append(await web_b.queue.place("ticket-a1"))  # answered: no longer known
        assert not await web_a.redis.keys(jobs.ticket_key("*"))  # every ticket withdrawn
        await web_a.stop()
        await web_b.stop()
        return [(s.known, s.ahead, s.in_progress) for s in held], [
            (s.known, s.ahead, s.in_progress) for s in polled
        ]

    held, polled = asyncio.run(scenario())
    assert held == [(True, 2, 4), (True, 3, 4), (False, 0, 4)]
    assert polled == [(True, 0, 4), (True, 3, 4), (True, 2, 4), (True, 2, 4), (False, 0, 0)]


def test_a_ticket_is_shared_once_and_only_when_it_is_a_pages(
    redis_url: str, tmp_path: Path
) -> None:
    """The first holder of a ticket keeps it (a copied ticket cannot move another's place),
    generated and malformed tickets are never written, and withdrawing checks the entry."""

    async def scenario() -> list[object]:
        web = await _web(_settings(redis_url, tmp_path))
        queue = web.queue
        seen: list[object] = [
            await queue.share("page-ticket-1", "1-0", 30),
            await queue.share("page-ticket-1", "2-0", 30),  # a second holder: refused
            await queue.share("anon-3", "3-0", 30),
            await queue.share("../../etc", "4-0", 30),
            await web.redis.get(jobs.ticket_key("page-ticket-1")),
        ]
        await queue.unshare("page-ticket-1", "2-0")  # not its entry: kept
        seen.append(await web.redis.get(jobs.ticket_key("page-ticket-1")))
        await queue.unshare("page-ticket-1", "1-0")
        seen.append(await web.redis.get(jobs.ticket_key("page-ticket-1")))
        seen.append((await queue.place("x" * 41)).known)
        await web.stop()
        return seen

    assert asyncio.run(scenario()) == [True, False, False, False, "1-0", "1-0", None, False]
