"""Host processes as /proc and pidfds show them, for the backend that has no cgroup to ask.

The rootless backend finds a tree's processes by walking children and by pid namespace, and
must never signal a process that only looks like one of them: a pid or a namespace's inode
number the kernel gave to someone else after the original ended. Every signal here goes
through a pidfd checked after it was opened, and a namespace is named only with an fd that
holds it open.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
PROC = Path("/proc")


def children(pid: int) -> list[int]:
    try:
        text = (PROC / str(pid) / "task" / str(pid) / "children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children(current)
    return found


def resident(pid: int) -> int:
    try:
        return int((PROC / str(pid) / "statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def pid_namespace(pid: int) -> str:
    try:
        return os.readlink(PROC / str(pid) / "ns" / "pid")
    except OSError:
        return ""


def pidfd(pid: int) -> int:
    """A pidfd on `pid` (close-on-exec, as every pidfd), or -1 if it is gone."""
    try:
        return os.pidfd_open(pid)
    except ProcessLookupError:
        return -1


def exited(fd: int) -> bool:
    """Whether the process behind a pidfd has exited (a zombie has): it polls readable."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def open_namespace(pid: int, parent: int) -> tuple[str, int]:
    """The name of `pid`'s pid namespace and an fd holding it open (the kernel cannot give its
    number to another namespace while the fd is open), if `pid` is still `parent`'s child."""
    process = pidfd(pid)
    if process < 0:
        return "", -1
    try:
        if pid not in children(parent):  # `pid` ended and the number went to someone else
            return "", -1
        try:
            fd = os.open(PROC / str(pid) / "ns" / "pid", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return "", -1
        try:  # the pidfd still names the process we opened the namespace of: not reaped
            signal.pidfd_send_signal(process, 0)
        except ProcessLookupError:
            os.close(fd)
            return "", -1
        return f"pid:[{os.fstat(fd).st_ino}]", fd
    finally:
        os.close(process)


def kill_in(pid: int, namespace: str) -> None:
    """SIGKILL `pid` if, by the time the signal goes, it is still a process in `namespace`."""
    process = pidfd(pid)
    if process < 0:
        return
    try:
        # Checked after the pidfd opened: if `pid` was reaped since and its number reused, the
        # check may read the newcomer, but the signal goes to the reaped process (ESRCH).
        if pid_namespace(pid) == namespace:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                signal.pidfd_send_signal(process, signal.SIGKILL)
    finally:
        os.close(process)


def in_namespace(namespace: str) -> list[int]:
    """Every live host pid whose pid namespace is `namespace` (zombies hold nothing)."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and pid_namespace(int(entry.name)) == namespace:
            with contextlib.suppress(OSError):
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
    return found
