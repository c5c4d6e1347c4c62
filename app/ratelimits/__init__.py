"""Where rate-limit counts live, so that several web processes share one limit.

One process (the default) counts in memory (security.RateLimiter on its own). Several
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


def wanted(settings: Settings) -> str:
    if settings.rate_limit_store != "auto":
        return settings.rate_limit_store
    if settings.redis_url:
        return "redis"
    return "database" if settings.web_processes > 1 else "memory"


def choose(settings: Settings, engine: Engine) -> WindowStore | None:
    """The shared store for this deployment, or None for in-memory counting."""
    kind = wanted(settings)
    if kind == "redis":
        from app.ratelimits.redisdb import RedisStore

        return RedisStore(settings.redis_url)
    if kind == "database":
        from app.ratelimits.database import DatabaseStore

        return DatabaseStore(engine)
    return None
