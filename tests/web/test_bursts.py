"""Bursts of concurrent answers against a live server (issue 12, finding 1).

50 learners answering a free-text question at once used to stall the server for ~30 s and
answer 500 (`QueuePool limit ... reached`): the async answer handler made blocking database
calls on the event loop while thread-pool dependencies held the pooled connections.
Latency figures live in benchmarks/burst.py; these tests check outcomes only.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import httpx

from tests.web.live import Server, answer_burst, live_server

EXPLAIN = "It records the operations on watched tensors so it can replay them backwards."


def test_burst_of_50_answers_all_acknowledged_and_stored(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        for round_ in range(3):
            burst = asyncio.run(
                answer_burst(server.url, count=50, question="mini-explain", answer=EXPLAIN)
            )
            assert burst.statuses == [201] * 50, f"round {round_}: {sorted(burst.statuses)}"
        assert server.rows("attempt") == 150


def test_burst_of_200_answers_never_500_and_loses_nothing(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        burst = asyncio.run(
            answer_burst(server.url, count=200, question="mini-explain", answer=EXPLAIN)
        )
        assert set(burst.statuses) <= {201, 503}, sorted(burst.statuses)
        refused = [r for s, r in zip(burst.statuses, burst.retry_after, strict=True) if s == 503]
        assert all(r is not None and r.isdigit() for r in refused)
        assert server.rows("attempt") == burst.acknowledged


async def _signup_race(url: str, email: str, count: int) -> list[int]:
    clients = [httpx.AsyncClient(base_url=url, timeout=60) for _ in range(count)]
    tokens = []
    for client in clients:
        page = (await client.get("/signup")).text
        tokens.append(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    form = {"email": email, "password": "correct horse battery"}
    replies = await asyncio.gather(
        *[
            c.post("/signup", data={**form, "csrf_token": t})
            for c, t in zip(clients, tokens, strict=True)
        ]
    )
    for client in clients:
        await client.aclose()
    return [r.status_code for r in replies]


def test_concurrent_sign_ups_with_one_email_give_one_account_and_409s(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        statuses = asyncio.run(_signup_race(server.url, "race@example.com", 8))
        assert sorted(statuses) == [303] + [409] * 7, statuses


async def _join_race(server: Server, count: int) -> list[int]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as teacher:
        await teacher.post("/api/sessions", json={"question_ids": ["mini-single"]})
        with sqlite3.connect(server.data_dir / "tapequiz.db") as db:
            db.execute("UPDATE user SET role = 'instructor'")
        body = {"name": "Race", "pack_id": "mini"}
        cohort = (await teacher.post("/api/instructor/cohorts", json=body)).json()
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as learner:
        await learner.post("/api/sessions", json={"question_ids": ["mini-single"]})
        join = {"code": cohort["join_code"]}
        replies = await asyncio.gather(
            *[learner.post("/api/cohorts/join", json=join) for _ in range(count)]
        )
    return [r.status_code for r in replies]


def test_repeated_concurrent_joins_never_500(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        statuses = asyncio.run(_join_race(server, 12))
        assert set(statuses) <= {200, 409} and 200 in statuses, statuses
        assert server.rows("cohort_member") == 1
