"""Shared fixtures: isolated settings (temporary data dir) and an API client per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import REPO_ROOT, Settings, get_settings
from app.main import create_app

FIXTURE_PACKS = Path(__file__).parent / "packs" / "fixtures"
CORE_PACK = REPO_ROOT / "questions" / "gradient-tape"


def env_setting(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> Iterator[None]:
    """For a fixture to `yield from`: the environment setting `name` is `value` for one
    test, as get_settings() reads it (its cache cleared on the way in and out)."""
    monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    yield
    monkeypatch.delenv(name)
    get_settings.cache_clear()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        packs_dir=REPO_ROOT / "questions",
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def mini_client(tmp_path: Path) -> Iterator[TestClient]:
    """A client serving only the small fixture pack (one question of each type)."""
    mini = Settings(
        data_dir=tmp_path / "data",
        packs_dir=FIXTURE_PACKS,
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )
    with TestClient(create_app(mini)) as test_client:
        yield test_client
