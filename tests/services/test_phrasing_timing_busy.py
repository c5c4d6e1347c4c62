"""A host too busy to time a pack's phrasings is the server's state, not the pack's fault.

Round 53's clean-clone run, starved at nice 15, refused the example pack six times with "1
rubric phrasing(s) are too slow to grade with": a wall-clock limit of the timer had fired (the
child's start, 30 s), not its CPU budget, and the instructor was told to rewrite a phrasing
that was fine. Now a starved check raises PackCheckBusy (503, retry; a publish job's page
says the server could not finish), the child's start is judged in its own CPU time with a
far longer wall-clock last resort, and nothing is published either way. The API's and the
upload form's answers are tested with their routes (test_api_instructor.py,
test_instructor_pages.py).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.config import Settings
from app.errors import PackCheckBusy
from app.models.publishing import PackVersion
from app.models.users import User
from app.packs.loader import load_pack
from app.services.instructor import phrasing_timing, publishing
from app.services.instructor.phrasing_timing import slow_phrasings
from app.services.instructor.publish_jobs import PublishJobs, Upload
from app.services.instructor.publishing import load_serving_catalog
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, zip_folder
from tests.services.test_phrasing_timing import CATASTROPHIC, example_pack_with
from tests.services.test_publish_jobs import until


def test_a_check_starved_before_its_first_probe_asks_for_a_retry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(phrasing_timing, "STARTUP_WALL_SECONDS", 0.0)  # as if starved
    report = load_pack(EXAMPLE)
    assert report.pack is not None
    with pytest.raises(PackCheckBusy) as raised:
        asyncio.run(slow_phrasings(report.pack))
    error = raised.value
    assert (error.status_code, error.code, error.retry_after) == (503, "pack_check_busy", 60)
    assert "too busy" in error.message and "waited over 0 s to start" in error.message
    assert "nothing was published: try again" in error.message


def test_a_check_starved_on_one_answer_asks_for_a_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the CPU budget but past the wall clock: the host's fault, not the phrasing's."""
    monkeypatch.setattr(phrasing_timing, "WALL_SECONDS", 0.0)
    slow = CATASTROPHIC["overlapping alternatives of several words"]
    pack, _, _ = example_pack_with(tmp_path, [slow])
    with pytest.raises(PackCheckBusy, match=r"waited over 0 s on one answer, at phrasing 1 of"):
        asyncio.run(slow_phrasings(pack))


def test_the_startup_allowance_is_the_childs_cpu_time_not_the_wall_clock() -> None:
    """The wall-clock last resort is far past what a starved start has taken (tens of
    seconds); the CPU bound is far past what the child's imports need (~1 s)."""
    assert phrasing_timing.STARTUP_WALL_SECONDS >= 10 * phrasing_timing.STARTUP_SECONDS
    assert phrasing_timing.STARTUP_SECONDS >= 10


def test_the_cli_reports_a_starved_check_as_a_problem(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    monkeypatch.setattr(phrasing_timing, "STARTUP_WALL_SECONDS", 0.0)
    assert main(["packs", "validate", str(EXAMPLE)]) == 1
    out = capsys.readouterr().out
    assert re.search(rf"{re.escape(str(EXAMPLE))}: the server was too busy", out), out


STARVED = "the server was too busy to time this pack's rubric phrasings (test)"


async def starved_check(pack: object) -> list[str]:
    """`publishing.slow_phrasings` on a host that starves it (the route tests use it too)."""
    raise PackCheckBusy(STARVED)


async def _publish_job(session: Session, settings: Settings, user: User) -> tuple[str, object]:
    job = PublishJobs().start(
        Upload(
            engine=session.get_bind(), settings=settings, catalog=load_serving_catalog(settings),  # type: ignore[arg-type]
            user=user, data=zip_folder(EXAMPLE), code_grader=FakeGrader(),
            on_published=lambda catalog: None,
        )
    )  # fmt: skip
    await until(lambda: job.done)
    return job.failed, job.refused


def test_a_publish_job_starved_in_the_check_says_so_and_publishes_nothing(
    session: Session, settings: Settings, teacher: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publishing, "slow_phrasings", starved_check)
    failed, refused = asyncio.run(_publish_job(session, settings, teacher))
    assert refused is None  # not a refusal of the pack
    assert failed == STARVED
    assert session.exec(select(PackVersion)).all() == []
