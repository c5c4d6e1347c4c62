"""Storage faults (issue 12): a read-only or full database used to give a bare text 500 on
every write while /healthz said 200. Now writes answer a clear 503 (JSON under /api, a page
elsewhere) with Retry-After, and /healthz reports the storage and `ready: false`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from tests.routes.quiz.conftest import token


def _read_only(client: TestClient) -> None:
    """Every new connection refuses writes, as a read-only file or volume would."""
    engine = client.app.state.engine  # type: ignore[attr-defined]

    def query_only(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA query_only=ON")

    event.listen(engine, "connect", query_only)
    engine.dispose()


@pytest.fixture
def broken(mini_client: TestClient) -> Iterator[TestClient]:
    token(mini_client)  # a cookie and a CSRF nonce before the storage breaks
    _read_only(mini_client)
    yield mini_client


def test_healthz_reports_ready_storage(mini_client: TestClient) -> None:
    reply = mini_client.get("/healthz")
    body = reply.json()
    assert reply.status_code == 200
    assert body["ready"] is True and body["storage"]["writable"] is True
    assert body["storage"]["free_bytes"] > 0


def test_api_write_on_read_only_storage_is_a_clear_503(broken: TestClient) -> None:
    reply = broken.post("/api/sessions", json={"question_ids": ["mini-single"]})
    assert reply.status_code == 503
    assert reply.json()["error"] == "storage_unavailable"
    assert reply.headers["retry-after"].isdigit()


def test_page_write_on_read_only_storage_is_a_page(broken: TestClient) -> None:
    reply = broken.post("/sessions", data={"csrf_token": token(broken), "question": "mini-single"})
    assert reply.status_code == 503
    assert reply.headers["content-type"].startswith("text/html")
    assert "storage is unavailable" in reply.text


def test_healthz_is_not_ready_after_a_failed_write(broken: TestClient) -> None:
    broken.post("/api/sessions", json={"question_ids": ["mini-single"]})
    reply = broken.get("/healthz")
    assert reply.status_code == 503
    assert reply.json()["ready"] is False
    assert "readonly" in reply.json()["storage"]["error"]
