"""Fixtures for the scale-out tests: one real Redis per module, flushed before each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.scale.servers import redis_server


@pytest.fixture(scope="module")
def redis_url_module() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture
def redis_url(redis_url_module: str) -> str:
    import redis

    client = redis.Redis.from_url(redis_url_module)
    client.flushall()
    client.close()
    return redis_url_module
