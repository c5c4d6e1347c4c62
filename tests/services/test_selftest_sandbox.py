"""The guide's example pack through the real sandbox: its self-test passes and it publishes.

Slow (starts sandboxed TensorFlow workers), so it is the only sandbox test of this area.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlmodel import Session

from app.config import Settings
from app.db import init_db, make_engine
from app.services.instructor.publishing import Published, load_serving_catalog, publish_zip
from app.services.instructor.selftest import format_report
from tests.services.instructor_fakes import EXAMPLE, make_user, zip_folder


async def _publish_with_sandbox(settings: Settings, session: Session) -> Published:
    code = pytest.importorskip("app.grading.code")
    grader = code.CodeGrader(settings)
    await grader.start()
    try:
        return await publish_zip(
            session,
            settings=settings,
            catalog=load_serving_catalog(settings),
            user=make_user(session, "teacher@example.com"),
            data=zip_folder(EXAMPLE),
            code_grader=grader,
        )
    finally:
        await grader.stop()


@pytest.mark.sandbox
def test_example_pack_passes_selftest_in_real_sandbox_and_publishes(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, sandbox_enabled=True, sandbox_pool_size=2)
    engine = make_engine(settings)
    init_db(engine)
    with Session(engine) as session:
        published = asyncio.run(_publish_with_sandbox(settings, session))
    engine.dispose()
    report = published.selftest
    assert report.passed, format_report(report)
    code_rows = [r for r in report.rows if r.type in ("code", "code-fix")]
    # reference, the train-step contract's plain step against it, one wrong solution: each
    assert [r.count("pass") for r in code_rows] == [3, 3]
    assert (tmp_path / "packs" / "tape-example" / "1.0.0" / "ex-write-train-step.yaml").is_file()
