"""Bursts of concurrent answers against a live server (issue 12, finding 1).

50 learners answering a free-text question at once used to stall the server for ~30 s and
answer 500 (`QueuePool limit ... reached`): the async answer handler made blocking database
calls on the event loop while thread-pool dependencies held the pooled connections.
Latency figures live in benchmarks/burst.py; these tests check outcomes only.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.web.live import answer_burst, live_server

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
