"""Claim a sandbox uid that no other live worker uses, across every grader on the host.

RLIMIT_NPROC counts processes per uid and a uid is the sandbox's identity towards the host,
so two live workers must never share one, even when two graders (a server and a test run)
share a machine. Each claim holds an exclusive `flock` on a per-uid file; the kernel drops
it if the holder dies, so a crashed grader never leaks uids.
"""

from __future__ import annotations

import fcntl
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

LOCKS = Path("/run/tapequiz-uids")
RANGE = 1000


@dataclass
class UidClaim:
    uid: int
    fd: int
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def release(self) -> None:
        """Close the lock file once, however many threads release at the same moment: a
        worker's tree may be killed from two paths at once (`workers.close` is safe to call
        twice), and a second `os.close` of the same number closes whatever file the process
        opened under it since (round 17: an offloaded handler's event-loop pipe)."""
        with self._lock:
            fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)  # closing drops the flock


def claim(uid_base: int) -> UidClaim:
    LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    for uid in range(uid_base, uid_base + RANGE):
        fd = os.open(LOCKS / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidClaim(uid, fd)
    raise OSError(f"all {RANGE} sandbox uids from {uid_base} are in use")
