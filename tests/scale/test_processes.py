"""Several processes on one database: one signing key, migrations once, refusal when the
schema is behind, and a pack published elsewhere picked up by this process's catalog."""

from __future__ import annotations

import asyncio
import shutil
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session

from app.config import Settings
from app.db import make_engine
from app.models.publishing import PackVersion
from app.models.users import utcnow
from app.packs.catalog import Catalog
from app.processes import (
    DeploymentError,
    check_settings,
    follow_publications,
    prepare_schema,
    publish_stamp,
    schema_gap,
    upgrade_once,
)
from tests.conftest import FIXTURE_PACKS


def test_several_processes_need_a_secret_key(tmp_path: Path) -> None:
    check_settings(Settings(data_dir=tmp_path))  # one process: a generated key is fine
    with pytest.raises(DeploymentError, match="TAPEQUIZ_SECRET_KEY"):
        check_settings(Settings(data_dir=tmp_path, web_processes=2))


def test_process_refuses_to_serve_a_schema_behind(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, migrate_on_start=False)
    engine = make_engine(settings)
    with pytest.raises(DeploymentError, match="tapequiz db upgrade"):
        prepare_schema(engine, settings)
    upgrade_once(engine, settings)
    prepare_schema(engine, settings)  # now current: serves
    assert schema_gap(engine) == ""


def test_processes_starting_together_migrate_once(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    failures: list[BaseException] = []

    def start() -> None:
        try:
            prepare_schema(make_engine(settings), settings)
        except BaseException as err:  # collected for the assertion
            failures.append(err)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with make_engine(settings).connect() as conn:
        versions = conn.execute(text("SELECT count(*) FROM alembic_version")).scalar()
    assert (failures, versions) == ([], 1)


def test_publish_elsewhere_reloads_the_catalog(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, packs_dir=tmp_path / "none", catalog_check_seconds=0.05)
    engine = make_engine(settings)
    upgrade_once(engine, settings)
    installed: list[Catalog] = []

    async def scenario() -> None:
        follower = asyncio.create_task(
            follow_publications(engine, settings, installed.append, publish_stamp(engine))
        )
        await asyncio.sleep(0.2)
        assert installed == []  # nothing new: nothing reloaded
        shutil.copytree(FIXTURE_PACKS / "mini", tmp_path / "packs" / "mini" / "0.1.0")
        with Session(engine) as session:  # what another process's publish leaves behind
            session.add(PackVersion(pack_id="mini", version="0.1.0", title="Mini"))
            session.commit()
        for _ in range(100):
            if installed:
                break
            await asyncio.sleep(0.05)
        follower.cancel()

    asyncio.run(scenario())
    assert "mini-single" in installed[0].questions


def test_withdrawal_changes_the_publish_stamp(tmp_path: Path) -> None:
    """Other processes reload their catalog when the stamp changes: a withdrawal (QA round 12)
    adds no row, so the stamp counts withdrawn versions too."""
    settings = Settings(data_dir=tmp_path, packs_dir=tmp_path / "none")
    engine = make_engine(settings)
    upgrade_once(engine, settings)
    with Session(engine) as session:
        session.add(PackVersion(pack_id="mini", version="0.1.0", title="Mini"))
        session.commit()
    before = publish_stamp(engine)
    with Session(engine) as session:
        row = session.get(PackVersion, 1)
        assert row is not None
        row.withdrawn_at = utcnow()
        session.add(row)
        session.commit()
    assert publish_stamp(engine) != before
