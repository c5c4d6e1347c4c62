"""Background publishing jobs: one publication at a time across event loops, and a job that
waits for another says it is queued instead of showing its first step as under way."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlmodel import Session

from app.config import Settings
from app.models.users import User
from app.services.instructor import publication_queue
from app.services.instructor.publish_jobs import PublishJob, PublishJobs, Upload
from app.services.instructor.publishing import load_serving_catalog
from tests.services.instructor_fakes import EXAMPLE, GatedGrader, zip_folder

WAIT_SECONDS = 300  # bounds every wait: a stuck job fails the test instead of hanging it
# (30 s was too short for three publications of the example pack at load ~7, round 54)


class DaemonThreads(concurrent.futures.ThreadPoolExecutor):
    """The loop's executor for the jobs' threads: daemon threads, so a job that never ends
    (the bug this file guards against) fails its test instead of hanging the run's exit."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=run, daemon=True).start()
        return future


def _run(coroutine: Any) -> Any:
    loop = asyncio.new_event_loop()
    loop.set_default_executor(DaemonThreads())
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.close()


def _version(version: str) -> bytes:
    text = (EXAMPLE / "pack.yaml").read_text().replace("version: 1.0.0", f"version: {version}")
    return zip_folder(EXAMPLE, {"pack.yaml": text})


async def until(condition: Callable[[], bool]) -> None:
    """Wait for `condition`, at most WAIT_SECONDS (then the test fails)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "the publishing jobs did not get there"
        await asyncio.sleep(0.02)


async def _three_jobs(session: Session, settings: Settings, user: User) -> list[PublishJob]:
    jobs, grader = PublishJobs(), GatedGrader()
    engine = session.get_bind()

    def start(data: bytes) -> PublishJob:
        return jobs.start(
            Upload(
                engine=engine, settings=settings, catalog=load_serving_catalog(settings),  # type: ignore[arg-type]
                user=user, data=data, code_grader=grader, on_published=lambda catalog: None,
            )
        )  # fmt: skip

    first = start(_version("1.0.0"))
    await until(lambda: first.step == 2)  # self-testing, held at the gate
    behind = [start(_version("1.0.1")), start(_version("1.0.2"))]
    await asyncio.sleep(0.3)  # time enough for a wrongly started job to reach a step
    assert [(j.queued, j.running_for, j.step) for j in behind] == [(True, 0, 0)] * 2
    assert [j.ahead for j in behind] == [1, 2]  # in upload order
    assert not first.queued and first.running_since is not None
    grader.gate.set()
    await until(lambda: all(j.done for j in [first, *behind]))
    return [first, *behind]


def test_jobs_queued_behind_a_publication_wait_then_publish(
    session: Session, settings: Settings, teacher: User
) -> None:
    jobs = _run(_three_jobs(session, settings, teacher))
    assert [(j.label, j.failed, j.refused) for j in jobs] == [
        ("tape-example 1.0.0", "", None),
        ("tape-example 1.0.1", "", None),
        ("tape-example 1.0.2", "", None),
    ]
    assert all(j.waited >= 0.3 for j in jobs[1:])  # they waited for the first one


async def _cancelled_before_it_ran(session: Session, settings: Settings, user: User) -> PublishJob:
    jobs = PublishJobs()
    job = jobs.start(
        Upload(
            engine=session.get_bind(), settings=settings, catalog=load_serving_catalog(settings),  # type: ignore[arg-type]
            user=user, data=_version("1.0.0"), code_grader=None, on_published=lambda c: None,
        )
    )  # fmt: skip
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.cancel()  # as when the server stops before the job's thread ran it
    await until(lambda: job.done)
    return job


def test_job_cancelled_before_it_ran_gives_its_place_up(
    session: Session, settings: Settings, teacher: User
) -> None:
    job = _run(_cancelled_before_it_ran(session, settings, teacher))
    assert job.failed and job.label == ""
    probe = publication_queue.Turn()
    try:
        assert probe.ahead == 0  # nobody left in line ahead of a new publication
    finally:
        probe.leave()
