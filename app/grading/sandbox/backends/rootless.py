"""The ordinary-user backend: bubblewrap in unprivileged user namespaces, no cgroup, no uid.

Each worker gets its own user, pid, net, ipc, uts and mount namespaces, and the worker's
seccomp filter and rlimits as on every backend. What the kernel's cgroups did elsewhere the
supervisor does here: it samples the tree's resident memory every few milliseconds while a
job runs and kills the tree past the limit (RLIMIT_AS stays as the backstop against one huge
allocation), and it kills the tree through its pid namespace: SIGKILL to the namespace's init
makes the kernel kill every process in it, which no process inside can leave (seccomp denies
unshare/setns and new user namespaces are disabled). An ordinary user cannot give a warming
worker a lower CPU priority and take it back, so while any job runs the warming (and idle)
workers are paused with SIGSTOP, and continued when no job runs: the same effect as cgroup
CPU shares of 2 against 1024. A worker is paused for at most 30 s in all, so a long run of
jobs cannot starve a warming one past its start-up time-out. A zygote's tree is never paused
(its descendants are the children it forked, the busy one included); each child is adopted
into a tree of its own, which is sampled and paused like any worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.grading.sandbox import launcher
from app.grading.sandbox.backends import checks
from app.grading.sandbox.launcher import Limits

SAMPLE_SECONDS = 0.005
PAGE = os.sysconf("SC_PAGE_SIZE")
PROC = Path("/proc")
KILL_SECONDS = 5.0
KEPT = 512
MAX_PAUSED_SECONDS = 30.0


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


def in_namespace(namespace: str) -> list[int]:
    """Every live host pid whose pid namespace is `namespace` (zombies hold nothing)."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and pid_namespace(int(entry.name)) == namespace:
            with contextlib.suppress(OSError):
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
    return found


@dataclass
class RootlessTree:
    name: str
    limits: Limits
    backend: Rootless
    pid: int = 0
    namespace: str = ""
    peak: int = 0
    breached: str = ""
    killed: bool = field(default=False)
    paused_since: float = 0.0  # monotonic time of the SIGSTOP, 0 while running
    paused_total: float = 0.0
    pausable: bool = True  # False for a zygote: pausing it would pause every child it forked

    def command(self, result_fd: int) -> tuple[list[str], dict[str, str]]:
        sandbox = launcher.worker_command(result_fd=result_fd, limits=self.limits)
        return sandbox, {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}

    def started(self, pid: int) -> None:
        self.pid = pid

    def adopt(self, pid: int) -> None:
        """A zygote's child: `pid` is its reaper, whose only child is pid 1 of the child's own
        pid namespace, so `watch` samples the child's processes alone and `kill` ends them."""
        self.pid = pid

    def set_busy(self) -> None:
        # The worker is alive and warm now: note its pid namespace before the job can end it.
        self._remember_namespace()
        self.backend.busy(self)

    async def watch(self) -> str:
        while True:
            await asyncio.sleep(SAMPLE_SECONDS)
            used = sum(resident(pid) for pid in descendants(self.pid)[1:])
            self.peak = max(self.peak, used)
            if used > self.limits.memory_bytes:
                self.breached = "memory"
                await asyncio.to_thread(self.kill)
                return "memory"

    def kill(self) -> dict[str, int]:
        """SIGKILL the namespace's init (the kernel then kills the rest), and bwrap itself."""
        self._remember_namespace()
        deadline = time.monotonic() + KILL_SECONDS
        while (pids := self.processes()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)
        self.killed = True
        self.backend.gone(self)
        usage = {"memory_max_usage": self.peak}
        if self.breached == "memory":
            usage["oom_kills"] = 1
        return usage

    def processes(self) -> list[int]:
        self._remember_namespace()
        inside = in_namespace(self.namespace) if self.namespace else []
        outer = [self.pid] if self.pid and not self.killed and _alive(self.pid) else []
        return sorted(set(outer + inside))

    def _remember_namespace(self) -> None:
        if not self.namespace and self.pid:
            init = children(self.pid)
            namespace = pid_namespace(init[0]) if init else ""
            # Only a namespace of the tree's own: `kill` SIGKILLs everything in it, and the
            # root's own namespace holds the supervisor (or the zygote and every sibling).
            own = pid_namespace(self.pid)
            self.namespace = namespace if own and namespace != own else ""
            self.backend.namespaces[self.name] = self.namespace

    def pause(self, now: float) -> None:
        """SIGSTOP, unless it has been paused long enough already (then let it run)."""
        if not self.pausable:
            return
        spent = self.paused_total + (now - self.paused_since if self.paused_since else 0.0)
        if spent >= MAX_PAUSED_SECONDS:
            self.resume(now)
        elif not self.paused_since:
            self.paused_since = now
            self.signal(signal.SIGSTOP)

    def resume(self, now: float) -> None:
        if not self.pausable:
            return
        if self.paused_since:
            self.paused_total += now - self.paused_since
            self.paused_since = 0.0
        self.signal(signal.SIGCONT)

    def signal(self, number: int) -> None:
        for pid in descendants(self.pid) if self.pid and not self.killed else []:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, number)


def _alive(pid: int) -> bool:
    try:
        state = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@dataclass
class Rootless:
    name: str = "rootless"
    namespaces: dict[str, str] = field(default_factory=dict)  # tree name -> pid namespace
    live: dict[str, RootlessTree] = field(default_factory=dict)
    busy_trees: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def prepare(self, name: str, limits: Limits) -> RootlessTree:
        tree = RootlessTree(name, limits, self)
        with self.lock:
            while len(self.namespaces) > KEPT:
                del self.namespaces[next(iter(self.namespaces))]
            self.live[name] = tree
        return tree

    def busy(self, tree: RootlessTree) -> None:
        """A job starts: this tree runs, every other tree not running a job pauses."""
        if not tree.pausable:
            return  # a zygote runs no job: it neither counts as busy nor pauses the others
        now = time.monotonic()
        with self.lock:
            self.busy_trees.add(tree.name)
            tree.resume(now)
            for other in self.live.values():
                if other.name not in self.busy_trees:
                    other.pause(now)

    def gone(self, tree: RootlessTree) -> None:
        with self.lock:
            self.live.pop(tree.name, None)
            self.busy_trees.discard(tree.name)
            if not self.busy_trees:
                for other in self.live.values():
                    other.resume(time.monotonic())

    def sweep(self) -> None:
        return None  # --die-with-parent: a dead server's sandboxes died with it

    def close(self) -> None:
        return None


def probe(*, uid_base: int) -> Rootless:
    del uid_base  # every worker runs as this user, mapped inside its own user namespace
    checks.not_root()
    checks.user_namespaces()
    checks.seccomp_module()
    checks.interpreter_readable()
    return Rootless()
