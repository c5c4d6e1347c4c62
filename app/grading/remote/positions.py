"""The waiting page's place in line when grading goes through Redis: the shared queue.

With several web processes, each one's own count of submissions (GradingQueue) misses every
job another process sent. The jobs of the whole deployment are the entries of the Redis
stream (waiting or running; a finished or cancelled one is deleted), in arrival order, so a
submission's place is the number of entries before its own. This process works that out for
the submissions it holds: exactly when one is queued (the entries already there), then once
a refresh (every second, with the fleet) for all of them in one atomic script.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from redis.asyncio import Redis

from app.grading.code.queue import DEFAULT_SECONDS, TICKET, QueueStatus, current_ticket
from app.grading.remote import jobs

# KEYS: stream. ARGV: how many entries to read at most, then entry ids. Returns, per id, the
# number of stream entries before it: -1 if it is gone (finished or withdrawn), the limit if
# it lies beyond it. The stream holds at most the admitted jobs (graders' workers + queue).
AHEAD = """
local limit = tonumber(ARGV[1])
local entries = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', limit)
local rank = {}
for i, entry in ipairs(entries) do rank[entry[1]] = i - 1 end
local out = {}
for i = 2, #ARGV do
  out[i - 1] = rank[ARGV[i]] or ((#entries >= limit) and limit or -1)
end
return out
"""
READ_LIMIT = 1000


@dataclass
class _Held:
    entry: str
    ahead: int


class SharedQueue:
    """Same interface as GradingQueue (holding, status), counted over the shared stream."""

    def __init__(self, redis: Redis) -> None:
        self._ahead = redis.register_script(AHEAD)
        self.workers = 1  # the fleet's, set on every refresh
        self.depth = 0  # jobs in the stream, the whole deployment's
        self._held: dict[str, _Held] = {}
        self._counter = itertools.count()
        self._durations: deque[float] = deque(maxlen=20)

    @contextmanager
    def holding(self, entry: str = "", ahead: int = 0) -> Iterator[str]:
        """Hold `entry` (queued with `ahead` entries before it) until the block ends."""
        given = current_ticket.get()
        ticket = given if given and TICKET.match(given) else f"anon-{next(self._counter)}"
        self._held[ticket] = _Held(entry, ahead)
        began = time.monotonic()
        try:
            yield ticket
        finally:
            self._held.pop(ticket, None)
            self._durations.append(time.monotonic() - began)

    async def refresh(self, *, workers: int, depth: int) -> None:
        """Take the fleet's figures and recount every held submission's place (one script)."""
        self.workers, self.depth = max(1, workers), depth
        held = [h for h in list(self._held.values()) if h.entry]
        if not held:
            return
        counts = await self._ahead(keys=[jobs.STREAM], args=[READ_LIMIT, *(h.entry for h in held)])
        for h, count in zip(held, counts, strict=True):
            h.ahead = max(0, int(count))  # gone: its answer is on the way

    def typical_seconds(self) -> float:
        if not self._durations:
            return DEFAULT_SECONDS
        ordered = sorted(self._durations)
        return ordered[len(ordered) // 2]

    def status(self, ticket: str) -> QueueStatus:
        held = self._held.get(ticket)
        if held is None:
            return QueueStatus(False, 0, self.depth, self.workers, 0)
        rounds = math.floor(held.ahead / self.workers) + 1
        estimate = math.ceil(rounds * self.typical_seconds())
        in_progress = max(self.depth, held.ahead + 1)
        return QueueStatus(True, held.ahead, in_progress, self.workers, estimate)
