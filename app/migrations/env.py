"""Alembic environment: migrate the database named by the settings, or a given connection.

The app passes its own connection (config.attributes["connection"]) when it migrates on
start-up; the `alembic` command line falls back to TAPEQUIZ_DATABASE_URL / the data dir.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers every table on SQLModel.metadata)

target_metadata = SQLModel.metadata


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    from app.config import get_settings
    from app.db import make_engine

    engine = make_engine(get_settings())
    with engine.connect() as conn:
        _migrate(conn)
    engine.dispose()


run()
