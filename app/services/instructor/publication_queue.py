"""One pack publication at a time, in upload order, whichever event loop each one runs on.

Publishing checks what is published, then moves the new version into place; two at once
could both pass the checks. A background job takes its place when the upload arrives, so a
1.0.1 is never refused as older than a 1.0.2 uploaded after it, and its page can say how
many publications are ahead of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import AsyncIterator

# Publications run on different event loops (a background job's thread, an offloaded
# handler's), so the queue is guarded by a thread lock: the asyncio.Lock used before bound to
# one loop - a job queued behind another on a second loop was never woken, and a third one
# failed with "bound to a different event loop".
_queue: deque[Turn] = deque()
_queue_lock = threading.Lock()
QUEUE_POLL_SECONDS = 0.05


class Turn:
    """A place in the publication queue, taken when the upload arrives (a background job
    takes it before its thread starts, so threads starting out of order keep upload order)."""

    def __init__(self) -> None:
        with _queue_lock:
            _queue.append(self)

    @property
    def ahead(self) -> int:
        """Publications that go before this one (the one running included)."""
        with _queue_lock:
            return _queue.index(self) if self in _queue else 0

    def leave(self) -> None:
        with _queue_lock:
            if self in _queue:
                _queue.remove(self)


@contextlib.asynccontextmanager
async def one_publication(turn: Turn) -> AsyncIterator[None]:
    # Polled rather than awaited on a future: the turn can come from any thread, and a
    # cancelled wait just leaves the queue (the finally) without blocking any loop.
    try:
        while turn.ahead:
            await asyncio.sleep(QUEUE_POLL_SECONDS)
        yield
    finally:
        turn.leave()
