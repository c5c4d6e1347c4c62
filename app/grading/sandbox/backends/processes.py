"""Host processes as /proc and pidfds show them, and the one way a backend signals them.

A backend finds processes by number (a tree's children, a pid namespace's members, a
cgroup's `cgroup.procs`) and must never signal one that only looks like one of them: a pid or
a namespace's inode number the kernel gave to someone else after the original ended. So every
signal to a process the backend did not just spawn goes through `send_checked`: a pidfd
opened first, then the check that the number still names the process meant, then the signal
through the pidfd (if the number changed hands after the pidfd opened, the pidfd names the
dead process and the signal reaches no one). A namespace is named only with an fd that holds
it open. Every pidfd is close-on-exec (the kernel sets it) and closed before these return.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
PROC = Path("/proc")


def children(pid: int) -> list[int]:
    return [int(child) for child in _read(f"/proc/{pid}/task/{pid}/children").split()]


def descendants(pid: int) -> list[int]:
    """`pid` and what it started, as numbers read one after another: to look at (tests), never
    to signal (a number may change hands between two reads; `walk` checks each)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children(current)
    return found


def resident(pid: int) -> int:
    try:
        return int(_read(f"/proc/{pid}/statm").split()[1]) * PAGE
    except (IndexError, ValueError):
        return 0


def _read(path: str) -> bytes:
    # Sampled every 5 ms on the event loop: a plain read, without pathlib's parsing (half the
    # time of a sample when it was used) or a text decoder.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""
    finally:
        os.close(fd)


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


def opened(pid: int, meant: Callable[[int], bool]) -> int:
    """A pidfd on `pid` if, checked after it opened, `meant(pid)` holds; else -1. If `pid`
    changed hands between the check and the pidfd, the pidfd names the earlier process, which
    has been reaped: nothing sent through it reaches anyone."""
    fd = pidfd(pid)
    if fd >= 0 and not meant(pid):
        os.close(fd)
        return -1
    return fd


def send(fd: int, number: int) -> bool:
    """Send signal `number` through pidfd `fd`; False if its process has been reaped."""
    try:
        signal.pidfd_send_signal(fd, number)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def send_checked(pid: int, number: int, meant: Callable[[int], bool]) -> bool:
    """Send `number` to `pid` if it is still the process `meant` says (see `opened`)."""
    fd = opened(pid, meant)
    if fd < 0:
        return False
    try:
        return send(fd, number)
    finally:
        os.close(fd)


def walk(root: int, root_fd: int) -> Iterator[tuple[int, int]]:
    """`root` (named by the pidfd `root_fd`) and its descendants, parents first, each with a
    pidfd open while the caller holds it. A child counts only if, read again after its pidfd
    opened, its parent still lists it and the parent is still alive after that read (as
    `opened` checks, once per parent): a number that went to an unrelated process after the
    first listing is left out. Nothing is yielded once the root has exited."""
    if root_fd < 0 or exited(root_fd):
        return
    held: list[int] = []
    todo = [(root, root_fd)]
    try:
        yield root, root_fd
        while todo:
            parent, parent_fd = todo.pop()
            found = [(child, pidfd(child)) for child in children(parent)]
            held += [fd for _, fd in found if fd >= 0]
            listed = set(children(parent)) if found else set()
            if not found or exited(parent_fd):  # its listing may have been another's
                continue
            for child, fd in found:
                if fd >= 0 and child in listed:
                    todo.append((child, fd))
                    yield child, fd
    finally:
        for fd in held:
            os.close(fd)


def confirm(handle: int) -> None:
    """Raise ProcessLookupError if the process behind pidfd `handle` has exited: a number used
    since the handle was checked may then have named another process."""
    if exited(handle):
        raise ProcessLookupError("the process ended before it was adopted")


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
    send_checked(pid, signal.SIGKILL, lambda found: pid_namespace(found) == namespace)


def in_namespace(namespace: str) -> list[int]:
    """Every live host pid whose pid namespace is `namespace` (zombies hold nothing)."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and pid_namespace(int(entry.name)) == namespace:
            with contextlib.suppress(OSError):
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
    return found
