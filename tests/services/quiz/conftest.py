"""Fixtures for the quiz, review and account service tests: a migrated database,
the mini fixture catalog, users, and a canned grade response."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session

from app.config import REPO_ROOT, Settings
from app.db import init_db, make_engine
from app.grading.results import GradeResult
from app.models.users import User
from app.packs.catalog import Catalog, load_catalog
from app.schemas import GradeResponse
from app.services import accounts

FIXTURES = REPO_ROOT / "tests" / "packs" / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Session]:
    engine = make_engine(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/t.db"))
    init_db(engine)
    with Session(engine) as session:
        yield session
    engine.dispose()


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog([FIXTURES])


def new_user(db: Session) -> User:
    return accounts.create_guest(db)


def response(
    question_id: str, verdict: str, score: float, tags: list[str] | None = None
) -> GradeResponse:
    result = GradeResult(verdict, score, [], tags or [])  # type: ignore[arg-type]
    return GradeResponse.build(
        question_id=question_id, result=result, explanation="x", section="Basics", elapsed_ms=1.0
    )
