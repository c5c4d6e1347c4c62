"""Pack publishing as a background job: the upload returns at once, a page shows the steps.

Validation and the self-test take tens of seconds (every code question runs in the sandbox),
too long for one request: browsers and proxies give up, and the instructor sees nothing. A
job runs `publishing.publish_zip` in a worker thread (on a loop of its own, with its own
database session; code grading is sent to the main loop where the sandbox pool lives),
records which step it is on, and finishes whether or not anyone is still watching. Only one
pack is published at a time, so a job may first wait for another: its page says so (queued,
for how long) rather than showing the first step as under way. Jobs live in memory (one
process); a finished one is kept an hour for its page.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.config import Settings
from app.errors import Conflict, PackCheckBusy, PackInvalid
from app.grading.dispatch import CodeGraderLike
from app.grading.results import GradeResult
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.schema import Code, CodeFix
from app.services.instructor import publication_queue, publishing

KEEP_SECONDS = 3600
STEPS = (
    "Unpacking the upload",
    "Validating every question",
    "Self-testing: answer keys, labelled explanations, code in the sandbox",
    "Publishing",
)


@dataclass
class PublishJob:
    id: str
    owner_id: int
    started: float = field(default_factory=time.monotonic)  # the upload
    turn: publication_queue.Turn = field(default_factory=publication_queue.Turn)  # queued at upload
    running_since: float | None = None  # step 0 began: no other publication ahead of it
    step: int = 0
    finished: float | None = None
    label: str = ""  # "pack version" once published
    refused: PackInvalid | Conflict | None = None
    failed: str = ""

    @property
    def elapsed(self) -> int:
        """Whole seconds since the upload, waiting included."""
        return round(self._now() - self.started)

    @property
    def queued(self) -> bool:
        return self.running_since is None and not self.done

    @property
    def ahead(self) -> int:
        """Publications still to finish before this one starts (the running one included)."""
        return self.turn.ahead if self.queued else 0

    @property
    def waited(self) -> int:
        """Whole seconds spent waiting for other publications to finish."""
        return round((self.running_since or self._now()) - self.started)

    @property
    def running_for(self) -> int:
        return 0 if self.running_since is None else round(self._now() - self.running_since)

    def _now(self) -> float:
        return self.finished or time.monotonic()

    @property
    def done(self) -> bool:
        return self.finished is not None


@dataclass(frozen=True)
class Upload:
    """What one publication needs, handed from the request to the job's thread."""

    engine: Engine
    settings: Settings
    catalog: Catalog
    user: User
    data: bytes
    code_grader: CodeGraderLike | None
    on_published: Callable[[Catalog], None]


class PublishJobs:
    def __init__(self) -> None:
        self._jobs: dict[str, PublishJob] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # each awaits its thread

    def get(self, job_id: str, *, user: User) -> PublishJob | None:
        job = self._jobs.get(job_id)
        return job if job is not None and job.owner_id == user.id else None

    def start(self, upload: Upload) -> PublishJob:
        self._forget_old()
        assert upload.user.id is not None
        job = PublishJob(id=secrets.token_urlsafe(12), owner_id=upload.user.id)
        self._jobs[job.id] = job
        if upload.code_grader is not None:
            loop = asyncio.get_running_loop()
            upload = replace(upload, code_grader=_OnMainLoop(upload.code_grader, loop))
        work = _run(job, upload)
        task = asyncio.create_task(asyncio.to_thread(asyncio.run, work))
        self._tasks.add(task)  # keep a reference: the loop only holds tasks weakly
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(functools.partial(_release_if_unstarted, job, work))
        return job

    def _forget_old(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if job.finished is not None and now - job.finished > KEEP_SECONDS:
                del self._jobs[job_id]


class _OnMainLoop:
    """The job runs in a worker thread on a loop of its own (its database and file work must
    not stall the server's loop); the sandbox pool lives on the main loop, so grading is sent
    there."""

    def __init__(self, grader: CodeGraderLike, loop: asyncio.AbstractEventLoop) -> None:
        self._grader, self._loop = grader, loop

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        future = asyncio.run_coroutine_threadsafe(self._grader.grade(question, source), self._loop)
        return await asyncio.wrap_future(future)


def _release_if_unstarted(
    job: PublishJob, work: Coroutine[Any, Any, None], _task: asyncio.Task[None]
) -> None:
    """A job cancelled before its thread ran it (the server stopping) gives its place up: a
    turn nobody holds would keep every later publication of this process waiting."""
    if inspect.getcoroutinestate(work) == inspect.CORO_CREATED:
        work.close()
        job.turn.leave()
        job.failed = "the server stopped before this publication started"
        job.finished = time.monotonic()


async def _run(job: PublishJob, upload: Upload) -> None:
    def reached(step: int) -> None:
        if job.running_since is None:
            job.running_since = time.monotonic()
        job.step = step

    try:
        with Session(upload.engine) as session:
            owner = session.get(User, upload.user.id) or upload.user
            published = await publishing.publish_zip(
                session, settings=upload.settings, catalog=upload.catalog, user=owner,
                data=upload.data, code_grader=upload.code_grader, on_step=reached, turn=job.turn,
            )  # fmt: skip
        upload.on_published(published.catalog)
        job.label = f"{published.version.pack_id} {published.version.version}"
    except (PackInvalid, Conflict) as exc:
        job.refused = exc
    except PackCheckBusy as exc:  # not the pack's fault: said as the server's, to retry
        job.failed = exc.message
    except Exception as exc:  # an infrastructure fault: said on the page, not lost in a task
        job.failed = f"{type(exc).__name__}: {exc}"
    finally:
        job.turn.leave()  # already left unless the job failed before it reached the queue
        job.finished = time.monotonic()
