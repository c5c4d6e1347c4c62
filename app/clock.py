"""The time source for anything that enforces deadlines (the mock interview above all).

Deadlines are decided on the server, so the server's notion of "now" must be injectable:
the app keeps one clock on `app.state.clock` and tests swap in a FakeClock they move by
hand instead of sleeping. Times are timezone-aware UTC; `as_utc` repairs the naive values
SQLite hands back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Annotated, Protocol

from fastapi import Depends, Request


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FakeClock:
    """A clock that only moves when told to."""

    current: datetime = field(default_factory=lambda: datetime(2026, 1, 5, 9, 0, tzinfo=UTC))

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        self.current += timedelta(seconds=seconds, **delta)
        return self.current


SYSTEM_CLOCK = SystemClock()


def as_utc(moment: datetime) -> datetime:
    """A stored datetime as aware UTC (SQLite drops the zone; values are written in UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def get_clock(request: Request) -> Clock:
    clock: Clock = getattr(request.app.state, "clock", SYSTEM_CLOCK)
    return clock


ClockDep = Annotated[Clock, Depends(get_clock)]
