"""Database engine, sessions and migrations: SQLite by default (WAL, foreign keys), any
SQLAlchemy URL else; Alembic brings the schema up to date on start-up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from app.config import REPO_ROOT, Settings


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


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
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
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
