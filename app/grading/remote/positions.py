"""The waiting page's place in line when grading goes through Redis: the shared queue.

With several web processes, each one's own count of submissions (GradingQueue) misses every
job another process sent. The jobs of the whole deployment are the entries of the Redis
stream (waiting or running; a finished or cancelled one is deleted), in arrival order, so a
submission's place is the number of entries before its own. This process works that out for
the submissions it holds: exactly when one is queued (the entries already there), then once
a refresh (every second, with the fleet) for all of them in one atomic script.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from redis.asyncio import Redis

from app.grading.code.queue import GradingQueue, QueueStatus
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


class SharedQueue(GradingQueue):
    """GradingQueue's interface (holding, status) and duration estimate, with places counted
    over the shared stream."""

    def __init__(self, redis: Redis) -> None:
        super().__init__(1)  # workers: the fleet's, set on every refresh
        self._ahead = redis.register_script(AHEAD)
        self.depth = 0  # jobs in the stream, the whole deployment's
        self._held: dict[str, _Held] = {}

    @contextmanager
    def holding(self, entry: str = "", ahead: int = 0) -> Iterator[str]:
        """Hold `entry` (queued with `ahead` entries before it) until the block ends."""
        with super().holding() as ticket:
            self._held[ticket] = _Held(entry, ahead)
            try:
                yield ticket
            finally:
                self._held.pop(ticket, None)

    async def refresh(self, *, workers: int, depth: int) -> None:
        """Take the fleet's figures and recount every held submission's place (one script)."""
        self.workers, self.depth = max(1, workers), depth
        held = [h for h in list(self._held.values()) if h.entry]
        if not held:
            return
        counts = await self._ahead(keys=[jobs.STREAM], args=[READ_LIMIT, *(h.entry for h in held)])
        for h, count in zip(held, counts, strict=True):
            h.ahead = max(0, int(count))  # gone: its answer is on the way

    def status(self, ticket: str) -> QueueStatus:
        held = self._held.get(ticket)
        if held is None:
            return QueueStatus(False, 0, self.depth, self.workers, 0)
        rounds = math.floor(held.ahead / self.workers) + 1
        estimate = math.ceil(rounds * self.typical_seconds())
        in_progress = max(self.depth, held.ahead + 1)
        return QueueStatus(True, held.ahead, in_progress, self.workers, estimate)
