"""Where rate-limit counts live, so that several web processes share one limit.

One process (the default) counts in memory (security.RateLimiter and Backoff on their own). Several
processes on one database count through the database, and with TAPEQUIZ_REDIS_URL through
Redis. Each store is a sliding window with the same meaning: at most `limit` events per
`window` seconds per key. Chosen once at start-up by `choose()`; limiters never ask which.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.engine import Engine

from app.config import Settings


class WindowStore(Protocol):
    name: str

    def hit(self, key: str, *, limit: int, window: float) -> int | None:
        """Record one event for `key`, unless `limit` events already fell in the last `window`
        seconds: then record nothing and return the seconds until one expires."""
        ...


class BackoffStore(Protocol):
    """Failed log-ins per key, shared: the n-th failure beyond `free` makes the key wait
    2**n seconds (at most `max_delay`); failures are forgotten `forget` seconds after the last."""

    def failed(self, key: str, *, free: int, max_delay: float, forget: float) -> None: ...

    def wait(self, key: str, *, free: int, max_delay: float, forget: float) -> float:
        """Seconds until the key may try again (0: now)."""
        ...

    def clear(self, key: str) -> None: ...


def delay_after(failures: int, *, free: int, max_delay: float) -> float:
    return 0.0 if failures < free else min(max_delay, 2.0 ** (failures - free))


def wanted(settings: Settings) -> str:
    if settings.rate_limit_store != "auto":
        return settings.rate_limit_store
    if settings.redis_url:
        return "redis"
    return "database" if settings.web_processes > 1 else "memory"


class SharedStore(WindowStore, BackoffStore, Protocol):
    """What the database and Redis stores both are."""


def choose(settings: Settings, engine: Engine) -> SharedStore | None:
    """The shared store for this deployment, or None for in-memory counting."""
    kind = wanted(settings)
    if kind == "redis":
        from app.ratelimits.redisdb import RedisStore

        return RedisStore(settings.redis_url)
    if kind == "database":
        from app.ratelimits.database import DatabaseStore

        return DatabaseStore(engine)
    return None
