"""`tapequiz users promote/demote EMAIL`: the operator's way to make an instructor."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.cli import main
from app.config import REPO_ROOT, Settings, get_settings
from app.db import init_db, make_engine
from app.models.users import User
from tests.services.instructor_fakes import make_user


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TAPEQUIZ_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    engine = make_engine(Settings(data_dir=tmp_path))
    init_db(engine)
    with Session(engine) as session:
        make_user(session, "ada@example.com", role="learner")
    engine.dispose()
    yield tmp_path
    get_settings.cache_clear()


def _role(data_dir: Path) -> str:
    engine = make_engine(Settings(data_dir=data_dir))
    with Session(engine) as session:
        role = session.exec(select(User.role)).one()
    engine.dispose()
    return role


def test_cli_users_promote_makes_instructor(data_dir: Path) -> None:
    assert main(["users", "promote", "ADA@example.com"]) == 0
    assert _role(data_dir) == "instructor"


def test_cli_users_demote_makes_learner_again(data_dir: Path) -> None:
    main(["users", "promote", "ada@example.com"])
    assert main(["users", "demote", "ada@example.com"]) == 0
    assert _role(data_dir) == "learner"


def test_cli_users_promote_unknown_email_exits_2(data_dir: Path) -> None:
    assert main(["users", "promote", "nobody@example.com"]) == 2
    assert _role(data_dir) == "learner"


def test_cli_users_promote_says_which_database_it_used(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["users", "promote", "ada@example.com"])
    said = capsys.readouterr().out
    assert said == f"ada@example.com is now instructor (database: {data_dir / 'tapequiz.db'})\n"


def test_cli_users_promote_without_a_database_creates_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "not-the-server"
    monkeypatch.setenv("TAPEQUIZ_DATA_DIR", str(elsewhere))
    get_settings.cache_clear()
    try:
        assert main(["users", "promote", "ada@example.com"]) == 2
    finally:
        get_settings.cache_clear()
    assert not elsewhere.exists()
    assert f"no database at {elsewhere / 'tapequiz.db'}" in capsys.readouterr().err


def test_default_data_dir_is_the_checkouts_wherever_the_command_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAPEQUIZ_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert Settings().data_dir == REPO_ROOT / "data"
