"""Database engine, sessions and migrations: SQLite by default (WAL, foreign keys), any
SQLAlchemy URL else; Alembic brings the schema up to date on start-up.

The pool is sized for the worker threads (every blocking call runs in one) and waits only a
few seconds for a connection: a burst then gets 503 + Retry-After, not a 30 s stall. Storage
faults (read-only file, full disk, a lock held too long) become `StorageUnavailable` and are
remembered for /healthz; `watch_event_loop` reports any database call made on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, SQLModel, create_engine

from app.config import REPO_ROOT, Settings
from app.errors import StorageUnavailable

log = logging.getLogger("tapequiz.db")
LOW_DISK_BYTES = 50 * 1024 * 1024


def _sqlite_pragmas(busy_ms: int) -> Any:
    def configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception:  # a read-only file cannot switch modes; /healthz reports it
            log.warning("could not switch the database to WAL mode", exc_info=True)
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cursor.close()

    return configure


def normalize_url(url: str) -> str:
    """`postgresql://` (and Heroku-style `postgres://`) mean psycopg 3, the driver we ship;
    SQLAlchemy would otherwise look for the older psycopg2."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def make_engine(settings: Settings) -> Engine:
    url = normalize_url(settings.resolved_database_url)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    # A ping before every checkout guards against dropped server connections; a SQLite file
    # cannot drop, and the ping was ~12% of the question page under load (issue 16 profile).
    kwargs: dict[str, Any] = {"pool_pre_ping": not url.startswith("sqlite")}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False}
    if url not in ("sqlite://", "sqlite:///:memory:"):
        kwargs |= {
            "pool_size": settings.db_pool_size,
            "max_overflow": settings.db_pool_overflow,
            "pool_timeout": settings.db_pool_timeout,
        }
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas(_busy_ms(settings)))
    return engine


def alembic_config() -> Any:
    from alembic.config import Config

    # No ini file needed at run time (the Docker image ships only app/); alembic.ini is for
    # the `alembic` command line.
    config = Config()
    config.set_main_option("script_location", str(REPO_ROOT / "app" / "migrations"))
    config.set_main_option("path_separator", "os")
    return config


def init_db(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (every start-up; a no-op when current)."""
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def sessions(engine: Engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


# -- storage faults ---------------------------------------------------------------------

LOCKED = ("database is locked", "database table is locked", "could not obtain lock")
STORAGE = (
    "readonly database",
    "read-only",
    "disk is full",
    "disk i/o error",
    "unable to open database",
    "no space left",
    "could not extend file",
    "connection refused",
    "server closed the connection",
)


def storage_fault(exc: BaseException) -> StorageUnavailable | None:
    """The StorageUnavailable (503) a database exception stands for, or None for a bug."""
    if isinstance(exc, PoolTimeout):
        return StorageUnavailable("the server is busy; retry in a moment", retry_after=2)
    if not isinstance(exc, DBAPIError):
        return None
    message = str(exc.orig).lower()
    if any(words in message for words in LOCKED):
        return StorageUnavailable("the database is busy; retry in a moment", retry_after=2)
    if exc.connection_invalidated or any(words in message for words in STORAGE):
        return StorageUnavailable(
            "storage is unavailable right now (the operator has been told); your last "
            "change was not saved, retry later",
            retry_after=30,
        )
    return None


@dataclass
class StorageHealth:
    """The last storage fault seen on a write, cleared by the next successful write."""

    last_error: str | None = None
    last_error_at: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def watch(self, engine: Engine) -> None:
        event.listen(engine, "handle_error", self._on_error)
        event.listen(engine, "after_cursor_execute", self._on_execute)
        event.listen(engine, "commit", self._on_commit)

    def _on_error(self, context: Any) -> None:
        fault = storage_fault(context.sqlalchemy_exception or context.original_exception)
        if fault is not None and fault.retry_after >= 30:  # broken, not merely busy
            with self._lock:
                self.last_error = str(context.original_exception)[:300]
                self.last_error_at = time.time()
            log.error("storage fault: %s", self.last_error)

    @staticmethod
    def _on_execute(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.lstrip()[:6].upper().startswith(("SELECT", "PRAGMA")):
            conn.info["wrote"] = True

    def _on_commit(self, conn: Any) -> None:
        if conn.info.pop("wrote", False):
            with self._lock:
                self.last_error = self.last_error_at = None


def _busy_ms(settings: Settings) -> int:
    return int(settings.db_busy_timeout * 1000)


def probe_storage(engine: Engine, settings: Settings, health: StorageHealth) -> dict[str, Any]:
    """Can we write? A write-lock probe (SQLite), free disk space and the last write fault."""
    report: dict[str, Any] = {"writable": True, "error": None}
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                conn.exec_driver_sql("PRAGMA busy_timeout=200")
                try:
                    _sqlite_write_probe(conn)
                finally:
                    conn.exec_driver_sql(f"PRAGMA busy_timeout={_busy_ms(settings)}")
            else:
                conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure here is the answer, not a crash
        report |= {"writable": False, "error": str(getattr(exc, "orig", exc))[:300]}
    data_dir = Path(settings.data_dir)
    free = shutil.disk_usage(data_dir).free if data_dir.exists() else None
    report["free_bytes"] = free
    if free is not None and free < LOW_DISK_BYTES:
        report |= {"writable": False, "error": report["error"] or "less than 50 MiB free"}
    if health.last_error and report["writable"]:
        report |= {"writable": False, "error": f"last write failed: {health.last_error}"}
    return report


def _sqlite_write_probe(conn: Any) -> None:
    """BEGIN IMMEDIATE takes the write lock without writing: it fails on a read-only file.
    A lock held by a busy writer is not a fault."""
    raw = conn.connection.dbapi_connection
    try:
        raw.execute("BEGIN IMMEDIATE")
    except Exception as exc:
        if "locked" not in str(exc).lower():
            raise
        return
    raw.execute("ROLLBACK")


# -- the event-loop guard ---------------------------------------------------------------


@dataclass
class LoopGuard:
    """Reports database calls made on the event loop thread: each one stalls every request
    of the process. Counted and logged (once per call site) so tests can fail on them."""

    loop: asyncio.AbstractEventLoop
    violations: list[str] = field(default_factory=list)
    strict: bool = False  # tests: raise, so the request fails loudly

    def watch(self, engine: Engine) -> None:
        event.listen(engine, "before_cursor_execute", self._check)

    def _check(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            return
        if running is not self.loop:
            return
        where = "".join(traceback.format_stack(limit=12)[:-2])
        if where not in self.violations:
            self.violations.append(where)
            log.error("blocking database call on the event loop: %s\n%s", statement[:80], where)
        if self.strict or LoopGuard.strict:
            raise BlockingOnLoop(f"database call on the event loop: {statement[:80]}")


class BlockingOnLoop(RuntimeError):
    """A synchronous database call was made on the event loop thread."""


# -- rows written before text was checked -----------------------------------------------

_BAD_TEXT = re.compile("[\ud800-\udfff\x00]")


def clean_text(value: Any) -> Any:
    """`value` with lone surrogates and NULs replaced by U+FFFD, in nested lists and dicts:
    such text cannot be encoded as UTF-8, so one stored answer used to break every page
    that showed it (issue 12). The same object is returned when nothing needs repair."""
    if isinstance(value, str):
        if value.isascii() and "\x00" not in value:  # the usual case, without a regex
            return value
        return _BAD_TEXT.sub("\ufffd", value) if _BAD_TEXT.search(value) else value
    if isinstance(value, list):
        cleaned = [clean_text(v) for v in value]
        return value if all(a is b for a, b in zip(cleaned, value, strict=True)) else cleaned
    if isinstance(value, dict):
        pairs = [(clean_text(k), clean_text(v)) for k, v in value.items()]
        same = all(
            k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)
        )
        return value if same else dict(pairs)
    return value


def _repair_on_load(target: Any, _context: Any) -> None:
    for key, value in list(vars(target).items()):
        if key.startswith("_"):
            continue
        cleaned = clean_text(value)
        if cleaned is not value:  # shown repaired; the row itself is left as it is
            set_committed_value(target, key, cleaned)


event.listen(SQLModel, "load", _repair_on_load, propagate=True)
