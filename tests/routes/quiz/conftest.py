"""Helpers for the page and API tests of the quiz area: a mini-pack client, CSRF tokens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import REPO_ROOT, Settings
from app.main import create_app

FIXTURES = REPO_ROOT / "tests" / "packs" / "fixtures"


def mini_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "data_dir": tmp_path / "data",
        "packs_dir": FIXTURES,
        "sandbox_enabled": False,
        "secret_key": "test-secret-key-not-for-production",
    }
    return Settings(**{**values, **overrides})  # type: ignore[arg-type]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(mini_settings(tmp_path))) as client:
        yield client


def token(client: TestClient, page: str = "/") -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found, "page has no CSRF token"
    return found.group(1)


def start(client: TestClient, question: str) -> str:
    """Start a one-question session through the page form; returns its URL."""
    reply = client.post(
        "/sessions",
        data={"csrf_token": token(client), "question": question},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text
    return reply.headers["location"]


def answer(client: TestClient, url: str, question: str, qtype: str, **fields: object) -> object:
    data = {"csrf_token": token(client), "question_id": question, "question_type": qtype}
    return client.post(f"{url}/answer", data={**data, **fields}, follow_redirects=False)
