"""The API client the sandbox suites of the quiz area grade through: the mini pack served by
a real app whose code answers run in real sandboxes (fork server on unless said), one per
test module, its workers released while the app's loop still runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.routes.quiz.conftest import mini_settings
from tests.routes.test_api_interviews_sandbox import release_workers, sandbox_missing


def sandbox_client(
    tmp_path_factory: pytest.TempPathFactory, name: str, **overrides: object
) -> Iterator[TestClient]:
    """For a module-scoped fixture: `yield from sandbox_client(factory, "round17")`."""
    if reason := sandbox_missing():
        pytest.skip(reason)
    settings = mini_settings(tmp_path_factory.mktemp(name), sandbox_enabled=True,
                             sandbox_pool_size=2, **overrides)  # fmt: skip
    with TestClient(create_app(settings)) as client:
        yield client
        client.portal.call(release_workers, client.app.state.code_grader)  # type: ignore[attr-defined, union-attr]


def graded(api: TestClient, source: str) -> dict[str, Any]:
    """The stateless grade of `source` as the mini pack's code question (200 expected)."""
    reply = api.post("/api/questions/mini-code/grade", json={"answer": source})
    assert reply.status_code == 200, reply.text
    return reply.json()  # type: ignore[no-any-return]
