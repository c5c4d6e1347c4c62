"""The same app on a real PostgreSQL: migrations build the schema the models declare, and a
learner's session survives a restart. Starts a throwaway cluster (Debian's `postgresql`
binaries, run as the `postgres` user on a private Unix socket); skipped when they are absent."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlmodel import SQLModel

from app.config import Settings
from app.db import init_db, make_engine
from app.main import create_app
from tests.routes.quiz.conftest import FIXTURES

PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)
PORT = 54329


def _as_postgres(*command: str) -> None:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *command],
        check=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
    )


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if PG_BIN is None or shutil.which("runuser") is None:
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="psycopg not installed (pip install 'psycopg[binary]')")
    # Not under pytest's tmp dir: the postgres user cannot enter root's private folders.
    root = Path(tempfile.mkdtemp(prefix="tapequiz-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    shutil.chown(root, "postgres")
    shutil.chown(sock, "postgres")
    _as_postgres(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    options = f"-p {PORT} -k {sock} -c listen_addresses='' -c fsync=off"
    log = str(root / "server.log")  # the server must not inherit our pipes, or run() never returns
    _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", log, "-o", options, "-w", "start")
    try:
        _as_postgres(str(PG_BIN / "createdb"), "-h", str(sock), "-p", str(PORT), "tapequiz")
        yield f"postgresql://postgres@/tapequiz?host={sock}&port={PORT}"  # as documented
    finally:
        _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


def test_migrations_match_the_models_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    engine = make_engine(Settings(data_dir=tmp_path, database_url=postgres_url))
    init_db(engine)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    engine.dispose()
    assert diff == []


def test_progress_survives_a_restart_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url=postgres_url,
        packs_dir=FIXTURES,
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )
    with TestClient(create_app(settings)) as client:
        sid = client.post("/api/sessions", json={"question_ids": ["mini-single"]}).json()["id"]
        client.post(f"/api/sessions/{sid}/answers", json={"answer": "session"})
        cookies = dict(client.cookies)
    with TestClient(create_app(settings), cookies=cookies) as client:
        queue = client.get("/api/reviews").json()
        history = client.get("/api/progress/attempts").json()
    assert ([q["id"] for q in queue["due"]], history[0]["verdict"]) == (
        ["mini-single"],
        "incorrect",
    )
