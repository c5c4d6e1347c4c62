"""Rate limits in the shared database, for several web processes without Redis.

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

_events = RateLimitEvent.__table__  # type: ignore[attr-defined]


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
