"""The grader's queue as a learner sees it: how many submissions are ahead, and how long.

Every submission the CodeGrader accepts (grade or *Run*) holds a ticket from arrival until
its answer is back; a page polling with its ticket learns its place among them and an
estimate from the durations of the last real grades on this server. The ticket comes from
the request (a random token the page made) through a context variable, so the grader's
call signature stays what every caller already uses.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

TICKET = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
GENERATED = "anon-"  # a ticket this process made up for a submission that brought none
DEFAULT_SECONDS = 5.0  # until this server has graded something
current_ticket: ContextVar[str | None] = ContextVar("grading_ticket", default=None)


@dataclass(frozen=True)
class QueueStatus:
    known: bool  # False: no such ticket waiting (not sent yet, or already answered)
    ahead: int  # submissions accepted before this one and still in progress
    in_progress: int  # everything the grader holds right now, this one included
    workers: int
    estimate_seconds: int  # until this one's answer, from recent real durations


class GradingQueue:
    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._arrivals: dict[str, int] = {}
        self._counter = itertools.count()
        self._durations: deque[float] = deque(maxlen=20)

    @contextmanager
    def holding(self) -> Iterator[str]:
        """Hold a place from now until the block ends; the duration is remembered."""
        given = current_ticket.get()
        ticket = given if given and TICKET.match(given) else f"{GENERATED}{next(self._counter)}"
        self._arrivals[ticket] = next(self._counter)
        began = time.monotonic()
        try:
            yield ticket
        finally:
            self._arrivals.pop(ticket, None)
            self._durations.append(time.monotonic() - began)

    def typical_seconds(self) -> float:
        if not self._durations:
            return DEFAULT_SECONDS
        ordered = sorted(self._durations)
        return ordered[len(ordered) // 2]

    async def place(self, ticket: str) -> QueueStatus:
        """`status`, for a poll that may reach a process other than the holder's (overridden
        where the queue is shared)."""
        return self.status(ticket)

    def status(self, ticket: str) -> QueueStatus:
        mine = self._arrivals.get(ticket)
        held = len(self._arrivals)
        if mine is None:
            return QueueStatus(False, 0, held, self.workers, 0)
        ahead = sum(1 for order in self._arrivals.values() if order < mine)
        rounds = math.floor(ahead / self.workers) + 1
        estimate = math.ceil(rounds * self.typical_seconds())
        return QueueStatus(True, ahead, held, self.workers, estimate)
