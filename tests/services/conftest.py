"""Fixtures shared by the instructor service tests: a migrated database and an instructor."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import Session

from app.config import Settings
from app.db import init_db, make_engine
from app.models.users import User
from tests.services.instructor_fakes import make_user


@pytest.fixture
def session(settings: Settings) -> Iterator[Session]:
    engine = make_engine(settings)
    init_db(engine)
    with Session(engine) as db:
        yield db
    engine.dispose()


@pytest.fixture
def teacher(session: Session) -> User:
    return make_user(session, "teacher@example.com")
