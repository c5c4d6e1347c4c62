"""Fixtures for the interview service tests (loaded with `pytest_plugins`): a fresh
in-memory database, a user, the fixture pack's catalog, a fake clock and the graders.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, create_engine

import app.models  # noqa: F401  (registers every table)
from app.clock import FakeClock
from app.models.users import User
from app.packs.catalog import Catalog, load_catalog
from app.services.interviews.lifecycle import Graders
from tests.services.interview_kit import FIXTURES, ScriptedCodeGrader, make_user


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine(
        "sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool
    )
    SQLModel.metadata.create_all(engine)
    with Session(engine) as db:
        yield db
    engine.dispose()


@pytest.fixture
def user(session: Session) -> User:
    return make_user(session)


@pytest.fixture
def catalog() -> Catalog:
    loaded = load_catalog([FIXTURES])
    assert not loaded.problems
    return loaded


@pytest.fixture
def code_grader() -> ScriptedCodeGrader:
    return ScriptedCodeGrader()


@pytest.fixture
def graders(catalog: Catalog, code_grader: ScriptedCodeGrader) -> Graders:
    return Graders(catalog=catalog, code_grader=code_grader)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
