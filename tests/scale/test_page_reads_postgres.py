"""The question page's kept read connections on a real PostgreSQL (issue 16): a database
that dropped every connection (a restart, a failover) costs no request an error, since a
read that finds its kept connection broken runs once more on a fresh one."""

from __future__ import annotations

from pathlib import Path

import psycopg
from fastapi.testclient import TestClient

from app.main import create_app
from tests.routes.quiz.conftest import mini_settings, start
from tests.scale.servers import postgres_server

TERMINATE = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = 'tapequiz' AND pid <> pg_backend_pid()"
)


def test_question_page_survives_the_database_dropping_its_connections(tmp_path: Path) -> None:
    with postgres_server() as url:
        settings = mini_settings(tmp_path, database_url=url)
        with TestClient(create_app(settings)) as client:
            page = start(client, "mini-single")
            assert [client.get(page).status_code for _ in range(20)] == [200] * 20
            with psycopg.connect(url, autocommit=True) as admin:
                dropped = admin.execute(TERMINATE).fetchall()
            assert len(dropped) >= 1  # the kept read connections among them
            statuses = [client.get(page).status_code for _ in range(20)]
    assert statuses == [200] * 20
