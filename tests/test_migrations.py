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


def test_answers_stored_before_0008_count_as_weighed(settings: Settings) -> None:
    """Their follow-up was weighed when the next question was chosen; only an open one is
    still to be weighed (services/interviews/followups.py)."""
    from alembic import command
    from sqlalchemy import text

    from app.db import alembic_config

    engine = make_engine(settings)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0007_recorded_at")
        connection.execute(
            text(
                "INSERT INTO user (id, display_name, is_guest, role, created_at) "
                "VALUES (1, 'Ada', 1, 'learner', '2026-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO interview (id, user_id, pack_id, minutes, started_at, ends_at, "
                "plan, followups_left, topic_scores) VALUES ('i1', 1, 'p', 10, '2026-01-01', "
                "'2026-01-01', '[]', 0, '{}')"
            )
        )
        for position, status in enumerate(("graded", "pending", "open")):
            connection.execute(
                text(
                    "INSERT INTO interview_answer (interview_id, position, question_id, "
                    "question_version, kind, reason, served_at, status) VALUES "
                    f"('i1', {position}, 'q{position}', 'v', 'warm-up', '', '2026-01-01', "
                    f"'{status}')"
                )
            )
    init_db(engine)
    with engine.connect() as connection:
        weighed = connection.execute(
            text("SELECT status, weighed FROM interview_answer ORDER BY position")
        ).all()
    engine.dispose()
    assert [tuple(row) for row in weighed] == [("graded", 1), ("pending", 1), ("open", 0)]
