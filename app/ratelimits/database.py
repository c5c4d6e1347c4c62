"""Rate limits and log-in back-off in the shared database, for several web processes
without Redis.

Each hit is one short transaction: drop the key's expired events, count, insert. The delete
comes first so SQLite takes its write lock before counting (hits on one database are then
serialised); on PostgreSQL a transaction-scoped advisory lock on the key does the same.
"""

from __future__ import annotations

import math
import time
import zlib

from sqlalchemy import delete, func, select, text
from sqlalchemy.engine import Engine

from app.models.ratelimits import RateLimitEvent
from app.ratelimits import delay_after

_events = RateLimitEvent.__table__  # type: ignore[attr-defined]
BACKOFF = "backoff:"  # failed log-ins are events too, under their own key prefix


class DatabaseStore:
    name = "database"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    def hit(self, key: str, *, limit: int, window: float) -> int | None:
        now = time.time()
        with self.engine.begin() as conn:
            if self.postgres:
                lock = zlib.crc32(key.encode()) - 2**31
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": lock})
            conn.execute(delete(_events).where(_events.c.key == key, _events.c.at <= now - window))
            count, oldest = conn.execute(
                select(func.count(), func.min(_events.c.at)).where(_events.c.key == key)
            ).one()
            if count >= limit:
                return max(1, math.ceil(oldest + window - now))
            conn.execute(_events.insert().values(key=key, at=now))
        return None

    def failed(self, key: str, *, free: int, max_delay: float, forget: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(_events.insert().values(key=BACKOFF + key, at=time.time()))

    def wait(self, key: str, *, free: int, max_delay: float, forget: float) -> float:
        """From the failures of the last `forget` seconds (a sliding hour, where the in-memory
        back-off forgets an hour after the last failure)."""
        now = time.time()
        with self.engine.begin() as conn:
            old = (_events.c.key == BACKOFF + key) & (_events.c.at <= now - forget)
            conn.execute(delete(_events).where(old))
            failures, last = conn.execute(
                select(func.count(), func.max(_events.c.at)).where(_events.c.key == BACKOFF + key)
            ).one()
        if not failures:
            return 0.0
        return max(0.0, last + delay_after(failures, free=free, max_delay=max_delay) - now)

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(_events).where(_events.c.key == BACKOFF + key))
