"""The waiting page's place in line when grading goes through Redis: the shared queue.

With several web processes, each one's own count of submissions (GradingQueue) misses every
job another process sent. The jobs of the whole deployment are the entries of the Redis
stream (waiting or running; a finished or cancelled one is deleted), in arrival order, so a
submission's place is the number of entries before its own. This process works that out for
the submissions it holds: exactly when one is queued (the entries already there), then once
a refresh (every second, with the fleet) for all of them in one atomic script. A page's
ticket is also written to Redis (ticket -> entry, for as long as the job may wait), so a poll
that a load balancer sends to another web process is answered there from the same stream.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.grading.code.queue import GENERATED, TICKET, GradingQueue, QueueStatus
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

# KEYS: ticket key. ARGV: entry id. Deletes the ticket only while it still names this entry.
FORGET = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass
class _Held:
    entry: str
    ahead: int


class SharedQueue(GradingQueue):
    """GradingQueue's interface (holding, status) and duration estimate, with places counted
    over the shared stream."""

    def __init__(self, redis: Redis) -> None:
        super().__init__(1)  # workers: the fleet's, set on every refresh
        self._redis = redis
        self._ahead = redis.register_script(AHEAD)
        self._forget = redis.register_script(FORGET)
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

    async def share(self, ticket: str, entry: str, seconds: float) -> bool:
        """Let a poll reaching any web process find `ticket`'s entry, for `seconds`. Only a
        page's own ticket (generated ones repeat across processes); the first holder of a
        ticket keeps it. Best effort: False when not shared."""
        if ticket.startswith(GENERATED) or not TICKET.match(ticket) or not entry:
            return False
        try:
            ttl = max(1, math.ceil(seconds))
            return bool(await self._redis.set(jobs.ticket_key(ticket), entry, nx=True, ex=ttl))
        except (RedisError, OSError):
            return False

    async def unshare(self, ticket: str, entry: str) -> None:
        await jobs.tidy(self._forget(keys=[jobs.ticket_key(ticket)], args=[entry]))

    async def place(self, ticket: str) -> QueueStatus:
        """`status`, also for a ticket another web process holds (looked up in Redis)."""
        if ticket in self._held or not TICKET.match(ticket):
            return self.status(ticket)
        try:
            entry = await self._redis.get(jobs.ticket_key(ticket))
            if not entry:
                return self.status(ticket)
            counts = await self._ahead(keys=[jobs.STREAM], args=[READ_LIMIT, entry])
        except (RedisError, OSError):
            return self.status(ticket)
        ahead = int(counts[0])
        return self.status(ticket) if ahead < 0 else self._placed(ahead)

    def status(self, ticket: str) -> QueueStatus:
        held = self._held.get(ticket)
        if held is None:
            return QueueStatus(False, 0, self.depth, self.workers, 0)
        return self._placed(held.ahead)

    def _placed(self, ahead: int) -> QueueStatus:
        rounds = math.floor(ahead / self.workers) + 1
        estimate = math.ceil(rounds * self.typical_seconds())
        in_progress = max(self.depth, ahead + 1)
        return QueueStatus(True, ahead, in_progress, self.workers, estimate)
