"""No blocking database call on the event loop (issue 12, finding 1).

One synchronous query in an `async def` handler stalls every request of the process; under
a burst it deadlocked the pool for 30 s. Two checks: a lint over app/routes (an async handler
that takes a database session must be `@offloaded`, or `@offloads_itself` when it awaits the
interview drain on the loop and sends each blocking call to a thread itself), and the runtime
guard (LoopGuard) that every route test runs with, shown here to catch a blocking handler and
pass an offloaded one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.config import REPO_ROOT, Settings
from app.deps import SessionDep
from app.main import create_app
from app.offload import offloaded

ROUTES = REPO_ROOT / "app" / "routes"


def _async_handlers(path: Path) -> Iterator[ast.AsyncFunctionDef]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.AsyncFunctionDef) and any(
            isinstance(d, ast.Call) and ast.unparse(d.func).startswith("router.")
            for d in node.decorator_list
        ):
            yield node


def _takes_session(handler: ast.AsyncFunctionDef) -> bool:
    return any(
        a.annotation is not None and "SessionDep" in ast.unparse(a.annotation)
        for a in handler.args.args + handler.args.kwonlyargs
    )


def _offloaded(handler: ast.AsyncFunctionDef) -> bool:
    return any(ast.unparse(d) in ("offloaded", "offloads_itself") for d in handler.decorator_list)


def test_async_handlers_with_a_database_session_are_offloaded() -> None:
    blocking = [
        f"{path.name}:{handler.lineno} {handler.name}"
        for path in sorted(ROUTES.glob("*.py"))
        for handler in _async_handlers(path)
        if _takes_session(handler) and not _offloaded(handler)
    ]
    assert blocking == []


def test_the_lint_sees_async_handlers() -> None:
    found = [h.name for h in _async_handlers(ROUTES / "api_sessions.py")]
    assert "answer" in found


router = APIRouter()


@router.get("/t/blocking")
async def blocking(session: SessionDep) -> dict[str, int]:
    return {"one": int(session.execute(text("SELECT 1")).scalar_one())}


@router.get("/t/offloaded")
@offloaded
async def offloaded_query(session: SessionDep) -> dict[str, int]:
    return {"one": int(session.execute(text("SELECT 1")).scalar_one())}


@pytest.fixture
def guarded(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings)
    app.include_router(router)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_guard_fails_a_database_call_on_the_loop(guarded: TestClient) -> None:
    assert guarded.get("/t/blocking").status_code == 500
    assert guarded.app.state.loop_guard.violations  # type: ignore[attr-defined]


def test_offloaded_handler_queries_off_the_loop(guarded: TestClient) -> None:
    assert guarded.get("/t/offloaded").json() == {"one": 1}
    assert guarded.app.state.loop_guard.violations == []  # type: ignore[attr-defined]
