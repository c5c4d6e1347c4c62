"""SCALE: rate-limit events shared by every web process through the database.

Used only where several processes share a database and no Redis is configured (see
app/ratelimits/database.py); the single-process default counts in memory instead.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class RateLimitEvent(SQLModel, table=True):
    __tablename__ = "rate_limit_event"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=200, index=True)
    at: float = Field(index=True)  # seconds since the epoch
