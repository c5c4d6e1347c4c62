"""What changes when several processes serve one deployment (see docs/scaling.md).

- The signing key must be the same everywhere: a key generated per process (or raced into
  the data dir by several at once) would sign cookies the others reject.
- Migrations run once: under a lock (a file lock beside SQLite, an advisory lock on
  PostgreSQL), or only by `tapequiz db upgrade`; a process that finds the schema behind the
  code refuses to serve rather than fail on a missing column later.
- A pack published through one process is served by all: each process looks for a newer
  published version every few seconds (one indexed query) and reloads its catalog.
The single-process default passes through all three with nothing to configure.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
from collections.abc import Callable, Iterator

from sqlalchemy import func, select, text
from sqlalchemy.engine import Engine
from sqlmodel import col

from app.config import Settings
from app.db import alembic_config, init_db
from app.models.publishing import PackVersion
from app.packs.catalog import Catalog
from app.services.instructor.publishing import load_serving_catalog

log = logging.getLogger("tapequiz.processes")
MIGRATION_LOCK = 7_160_016  # the advisory lock id every tapequiz process agrees on


class DeploymentError(RuntimeError):
    """This process must not serve: the message says what to change."""


def shared(settings: Settings) -> bool:
    return bool(settings.redis_url) or settings.web_processes > 1


def check_settings(settings: Settings) -> None:
    if shared(settings) and not settings.secret_key:
        raise DeploymentError(
            "TAPEQUIZ_SECRET_KEY must be set when several processes serve one deployment "
            "(TAPEQUIZ_REDIS_URL or --workers > 1): every process must sign cookies alike"
        )


@contextlib.contextmanager
def migration_lock(engine: Engine, settings: Settings) -> Iterator[None]:
    """Held by one process at a time on this database."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK})
                conn.commit()
        return
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    with open(settings.data_dir / "migrations.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # SQLite lives on this machine: a file lock is enough
        yield


def upgrade_once(engine: Engine, settings: Settings) -> None:
    with migration_lock(engine, settings):
        init_db(engine)


def schema_gap(engine: Engine) -> str:
    """Empty when the database is at this code's newest revision, else what is wrong."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    heads = set(ScriptDirectory.from_config(alembic_config()).get_heads())
    with engine.connect() as conn:
        current = set(MigrationContext.configure(conn).get_current_heads())
    if current == heads:
        return ""
    return (
        f"the database schema is at {sorted(current) or 'no revision (empty)'} but this code needs "
        f"{sorted(heads)}: run `tapequiz db upgrade` (once, from any host) and start again"
    )


def prepare_schema(engine: Engine, settings: Settings) -> None:
    """Migrate (once, under the lock) if allowed, then refuse to serve if still behind."""
    if settings.migrate_on_start:
        upgrade_once(engine, settings)
    gap = schema_gap(engine)
    if gap:
        raise DeploymentError(gap)


def publish_stamp(engine: Engine) -> tuple[int, int, int]:
    """Changes whenever a pack version is published or withdrawn anywhere on this database."""
    withdrawn = func.count(col(PackVersion.withdrawn_at))  # counts the non-null ones
    with engine.connect() as conn:
        count, newest, gone = conn.execute(
            select(func.count(), func.max(col(PackVersion.id)), withdrawn)
        ).one()
    return int(count), int(newest or 0), int(gone)


async def follow_publications(
    engine: Engine,
    settings: Settings,
    install: Callable[[Catalog], None],
    seen: tuple[int, int, int],
) -> None:
    """Reload the catalog when another process publishes (runs until cancelled); `seen` is
    the stamp read before the current catalog was loaded."""
    while True:
        await asyncio.sleep(settings.catalog_check_seconds)
        try:
            stamp = await asyncio.to_thread(publish_stamp, engine)
            if stamp != seen:
                install(await asyncio.to_thread(load_serving_catalog, settings))
                seen = stamp
        except Exception as err:  # storage faults: try again next round
            log.warning("could not check for newly published packs: %s", err)
