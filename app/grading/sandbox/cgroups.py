"""Per-worker cgroup v1 groups: the memory and process limits, and how a tree is killed.

Memory is limited by a cgroup rather than RLIMIT_AS (TF's thread stacks make a tight address
space abort), process count by the pids controller, and CPU shares let a warming worker yield
to one that is grading. Killing every pid in the group takes the whole tree down, whatever the
candidate started. Each server instance nests its groups under its own pid, so parallel
instances (tests, CI) never touch each other's workers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from app.grading.sandbox.backends.processes import pidfd, send

ROOT = Path("/sys/fs/cgroup")
PARENT = "tapequiz"
CONTROLLERS = ("memory", "pids", "cpu")
IDLE_SHARES, BUSY_SHARES = 2, 1024


class CgroupUnavailable(RuntimeError):
    """No writable cgroup v1 memory+pids hierarchy: the sandbox cannot enforce its limits."""


@dataclass(frozen=True)
class Group:
    dirs: dict[str, Path]

    @property
    def name(self) -> str:
        return next(iter(self.dirs.values())).name if self.dirs else ""

    def procs(self) -> list[int]:
        found: set[int] = set()
        for path in self.dirs.values():
            try:
                found.update(int(p) for p in (path / "cgroup.procs").read_text().split())
            except OSError:
                continue
        return sorted(found)

    def set_busy(self) -> None:
        if "cpu" in self.dirs:
            _write(self.dirs["cpu"] / "cpu.shares", BUSY_SHARES)

    def usage(self) -> dict[str, int]:
        """Counters that tell which limit a dead worker hit."""
        facts = {}
        memory = self.dirs["memory"]
        facts["memory_failcnt"] = _read_int(memory / "memory.failcnt")
        facts["memory_max_usage"] = _read_int(memory / "memory.max_usage_in_bytes")
        for line in _read(memory / "memory.oom_control").splitlines():
            if line.startswith("oom_kill "):
                facts["oom_kills"] = int(line.split()[1])
        for line in _read(self.dirs["pids"] / "pids.events").splitlines():
            if line.startswith("max "):
                facts["pids_max_hits"] = int(line.split()[1])
        return facts


def available() -> bool:
    return all(os.access(ROOT / c, os.W_OK) for c in ("memory", "pids"))


def instance_dir(controller: str) -> Path:
    return ROOT / controller / PARENT / str(os.getpid())


def create(name: str, *, memory_bytes: int, pids: int) -> Group:
    if not available():
        raise CgroupUnavailable("cgroup v1 memory and pids controllers are not writable")
    dirs = {}
    for controller in CONTROLLERS:
        if not (ROOT / controller).is_dir():
            continue
        path = instance_dir(controller) / name
        if path.exists():
            destroy(Group({controller: path}))
        path.mkdir(parents=True)
        dirs[controller] = path
    _write(dirs["memory"] / "memory.limit_in_bytes", memory_bytes)
    memsw = dirs["memory"] / "memory.memsw.limit_in_bytes"
    if memsw.exists():
        _write(memsw, memory_bytes)  # no escape into swap
    _write(dirs["pids"] / "pids.max", pids)
    if "cpu" in dirs:
        _write(dirs["cpu"] / "cpu.shares", IDLE_SHARES)
    return Group(dirs)


def kill(group: Group, timeout: float = 5.0, remove: bool = True) -> None:
    """SIGKILL every process in the group until it is empty, then (by default) remove it.

    A listed pid may be reaped and its number given to a process outside the group before the
    signal goes (as root, any process): each is signalled through a pidfd, and only if the
    group still lists it after the pidfd opened (as `processes.send_checked` checks; here one
    re-read of the group covers every pid of a pass)."""
    deadline = time.monotonic() + timeout
    while (pids := group.procs()) and time.monotonic() < deadline:
        handles = [(pid, pidfd(pid)) for pid in pids]
        try:
            still = set(group.procs())
            for pid, fd in handles:
                if fd >= 0 and pid in still:
                    send(fd, signal.SIGKILL)
        finally:
            for _, fd in handles:
                if fd >= 0:
                    os.close(fd)
        time.sleep(0.005)
    if remove:
        destroy(group)


def destroy(group: Group) -> None:
    for path in group.dirs.values():
        try:
            path.rmdir()
        except OSError:
            continue  # still populated for a moment, or gone already: swept at next start


def remove_instance() -> None:
    """Remove this process's (empty) parent groups when its pool stops."""
    for controller in CONTROLLERS:
        with contextlib.suppress(OSError):
            instance_dir(controller).rmdir()


def sweep_stale() -> None:
    """Remove groups left by server instances that died without cleaning up."""
    for controller in CONTROLLERS:
        parent = ROOT / controller / PARENT
        if not parent.is_dir():
            continue
        for owner in parent.iterdir():
            if owner.name.isdigit() and not alive(int(owner.name)):
                for child in owner.iterdir():
                    if child.is_dir():
                        kill(Group({controller: child}), timeout=1.0)
                try:
                    owner.rmdir()
                except OSError:
                    continue


def alive(pid: int) -> bool:
    """Whether `pid` exists (a pid owned by another uid counts as alive). Signal 0 delivers
    nothing; a reused number only makes a dead instance's groups wait for a later sweep."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write(path: Path, value: int) -> None:
    path.write_text(str(value))


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _read_int(path: Path) -> int:
    text = _read(path).strip()
    return int(text) if text.isdigit() else 0
