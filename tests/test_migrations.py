"""Alembic migrations build exactly the schema the SQLModel tables declare."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from app.config import Settings
from app.db import init_db, make_engine


def test_migrations_match_the_models(settings: Settings) -> None:
    engine = make_engine(settings)
    init_db(engine)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    engine.dispose()
    assert diff == []


def test_migrations_run_twice_without_error(settings: Settings) -> None:
    engine = make_engine(settings)
    init_db(engine)
    init_db(engine)
    tables = set(inspect(engine).get_table_names())
    engine.dispose()
    assert {"user", "quiz_session", "attempt", "review_state", "alembic_version"} <= tables


def test_sqlite_runs_in_wal_with_foreign_keys(settings: Settings) -> None:
    engine = make_engine(settings)
    with engine.connect() as connection:
        wal = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
        fks = connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
    engine.dispose()
    assert (wal, fks) == ("wal", 1)
