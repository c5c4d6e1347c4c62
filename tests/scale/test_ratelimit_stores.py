"""Shared rate limits: two limiters standing for two processes count against one limit,
through Redis and through the database; a refusal says when to retry."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.config import Settings
from app.db import init_db, make_engine
from app.ratelimits import WindowStore, choose, wanted
from app.ratelimits.database import DatabaseStore
from app.ratelimits.redisdb import RedisStore
from app.security import Backoff, RateLimited, RateLimiter
from tests.scale.servers import free_port


def _redis_pair(redis_url: str, _tmp: Path) -> tuple[WindowStore, WindowStore]:
    return RedisStore(redis_url), RedisStore(redis_url)


def _database_pair(_url: str, tmp: Path) -> tuple[WindowStore, WindowStore]:
    settings = Settings(data_dir=tmp)
    engines = make_engine(settings), make_engine(settings)
    init_db(engines[0])
    return DatabaseStore(engines[0]), DatabaseStore(engines[1])


PAIRS = [pytest.param(_redis_pair, id="redis"), pytest.param(_database_pair, id="database")]
Pair = Callable[[str, Path], tuple[WindowStore, WindowStore]]


@pytest.mark.parametrize("pair", PAIRS)
def test_limit_hit_through_one_process_counts_on_the_other(
    pair: Pair, redis_url: str, tmp_path: Path
) -> None:
    first, second = pair(redis_url, tmp_path)
    here, there = RateLimiter(3, store=first), RateLimiter(3, store=second)
    for _ in range(3):
        here.hit("user:1", "answers")
    with pytest.raises(RateLimited) as refused:
        there.hit("user:1", "answers")
    there.hit("user:2", "answers")  # another key is not affected
    assert 1 <= refused.value.retry_after <= 60


@pytest.mark.parametrize("pair", PAIRS)
def test_events_older_than_the_window_no_longer_count(
    pair: Pair, redis_url: str, tmp_path: Path
) -> None:
    first, second = pair(redis_url, tmp_path)
    first.hit("warm", limit=1, window=1), second.hit("warm", limit=1, window=1)  # connections
    began = time.monotonic()
    assert first.hit("k", limit=1, window=1.0) is None
    refused = second.hit("k", limit=1, window=1.0)
    if time.monotonic() - began < 0.9:  # on a stalled machine the window may already be over
        assert refused is not None
    time.sleep(1.1)
    assert second.hit("k", limit=1, window=1.0) is None


@pytest.mark.parametrize(
    ("changes", "store"),
    [
        ({}, "memory"),
        ({"web_processes": 2}, "database"),
        ({"redis_url": "redis://127.0.0.1:1/0"}, "redis"),
        ({"redis_url": "redis://127.0.0.1:1/0", "rate_limit_store": "database"}, "database"),
    ],
)
def test_store_is_chosen_from_the_deployment(
    changes: dict[str, object], store: str, tmp_path: Path
) -> None:
    settings = Settings(data_dir=tmp_path, **changes)  # type: ignore[arg-type]
    chosen = choose(settings, make_engine(settings))
    assert (wanted(settings), chosen.name if chosen else "memory") == (store, store)


@pytest.mark.parametrize("pair", PAIRS)
def test_failed_logins_through_one_process_back_off_on_the_other(
    pair: Pair, redis_url: str, tmp_path: Path
) -> None:
    first, second = pair(redis_url, tmp_path)
    here, there = Backoff(2, 900.0), Backoff(2, 900.0)
    here.store, there.store = first, second  # type: ignore[assignment]
    here.failed("account:a@example.com")
    there.check("account:a@example.com", "failed log-ins")  # one failure: still free
    here.failed("account:a@example.com")
    with pytest.raises(RateLimited) as refused:
        there.check("account:a@example.com", "failed log-ins")
    there.check("account:b@example.com", "failed log-ins")  # another key is not affected
    here.succeeded("account:a@example.com")
    there.check("account:a@example.com", "failed log-ins")  # the right password clears it
    assert refused.value.retry_after == 1  # 2**(2 - 2) s after the second failure


def test_redis_store_lets_requests_through_when_redis_is_down() -> None:
    down = RedisStore(f"redis://127.0.0.1:{free_port()}/0")
    counted = [down.hit("user:1", limit=1, window=60) for _ in range(3)]
    down.failed("account:a", free=1, max_delay=60, forget=3600)
    assert (counted, down.wait("account:a", free=1, max_delay=60, forget=3600)) == (
        [None, None, None],
        0.0,
    )
