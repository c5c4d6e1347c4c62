"""The ordinary-user backend: bubblewrap in unprivileged user namespaces, no cgroup, no uid.

Each worker gets its own user, pid, net, ipc, uts and mount namespaces, and the worker's
seccomp filter and rlimits as on every backend. What the kernel's cgroups did elsewhere the
supervisor does here: it samples the tree's resident memory every few milliseconds while a job
runs and kills the tree past the limit (RLIMIT_AS stays as the backstop against one huge
allocation), and it kills the tree through its pid namespace: SIGKILL to the namespace's init
makes the kernel kill every process in it, which no process inside can leave (seccomp denies
unshare/setns and new user namespaces are disabled). The kernel names a namespace by an inode
number and hands a dead one's number to the next namespace it makes (the pool's next spare,
say), so a tree holds its namespace open from the moment it notes it until it has seen it
empty, and signals through pidfds: its handle never names another tree's processes (see
`processes`). An ordinary user cannot give a warming worker a lower CPU priority and take it
back, so while any job runs the warming (and idle) workers are paused with SIGSTOP, and
continued when no job runs: the same effect as cgroup CPU shares of 2 against 1024. A worker is
paused for at most 30 s in all, so a long run of jobs cannot starve a warming one past its
start-up time-out. A zygote's tree is never paused (its descendants are the children it forked,
the busy one included); each child is adopted into a tree of its own, which is sampled and
paused like any worker.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from dataclasses import dataclass, field

from app.grading.sandbox import launcher
from app.grading.sandbox.backends import checks
from app.grading.sandbox.backends.processes import (
    children,
    exited,
    in_namespace,
    kill_in,
    open_namespace,
    pid_namespace,
    pidfd,
    resident,
    send,
    walk,
)
from app.grading.sandbox.launcher import Limits

SAMPLE_SECONDS = 0.005
KILL_SECONDS = 5.0
KEPT = 512
MAX_PAUSED_SECONDS = 30.0


@dataclass
class RootlessTree:
    name: str
    limits: Limits
    backend: Rootless
    pid: int = 0
    namespace: str = ""
    root_fd: int = -1  # pidfd on `pid`: signals reach that process, never a reused pid
    namespace_fd: int = -1  # open on `namespace` from noting it until the tree is seen empty
    peak: int = 0
    breached: str = ""
    killed: bool = field(default=False)
    paused_since: float = 0.0  # monotonic time of the SIGSTOP, 0 while running
    paused_total: float = 0.0
    pausable: bool = True  # False for a zygote: pausing it would pause every child it forked

    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def command(self, result_fd: int) -> tuple[list[str], dict[str, str]]:
        sandbox = launcher.worker_command(result_fd=result_fd, limits=self.limits)
        return sandbox, {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}

    def started(self, pid: int) -> None:
        with self.lock:
            if pid != self.pid or self.root_fd < 0:
                self._close_root()
                self.pid, self.root_fd = pid, pidfd(pid)

    def adopt(self, pid: int, handle: int) -> None:
        """A zygote's child: `pid` is its reaper, whose only child is pid 1 of the child's own
        pid namespace, so `watch` samples the child's processes alone and `kill` ends them.
        The zygote forked it, not the supervisor: the tree's pidfd is a copy of the caller's
        checked `handle`, never one opened on the number again."""
        with self.lock:
            self._close_root()
            self.pid, self.root_fd = pid, os.dup(handle)  # close-on-exec, as every dup here

    def set_busy(self) -> None:
        # The worker is alive and warm now: note its pid namespace before the job can end it.
        with self.lock:
            self._remember_namespace()
        self.backend.busy(self)

    async def watch(self) -> str:
        while True:
            await asyncio.sleep(SAMPLE_SECONDS)
            used = self.used()
            self.peak = max(self.peak, used)
            if used > self.limits.memory_bytes:
                self.breached = "memory"
                await asyncio.to_thread(self.kill)
                return "memory"

    def used(self) -> int:
        """Resident bytes of the tree's processes below its root (bwrap or a reaper, tiny),
        each counted only if it was still the tree's process when its figure was read. While
        a kill or a pause holds the tree, it skips a sample rather than wait (on the event loop)."""
        if not self.lock.acquire(blocking=False):
            return 0
        try:
            walked = walk(self.pid, self.root_fd) if not self.killed else iter(())
            return sum(_resident(pid, fd) for pid, fd in walked if pid != self.pid)
        finally:
            self.lock.release()

    def kill(self) -> dict[str, int]:
        """SIGKILL the namespace's init (the kernel then kills the rest), and bwrap itself;
        release the handles once nothing is left (if something is, a later call tries again)."""
        with self.lock:
            self._remember_namespace()
            deadline = time.monotonic() + KILL_SECONDS
            while (pids := self._members()) and time.monotonic() < deadline:
                for pid in pids:
                    if pid == self.pid:
                        send(self.root_fd, signal.SIGKILL)
                    else:
                        kill_in(pid, self.namespace)
                time.sleep(0.005)
            self.killed = True
            if not pids:
                self._close_namespace()
                self._close_root()
        self.backend.gone(self, emptied=not pids)
        usage = {"memory_max_usage": self.peak}
        if self.breached == "memory":
            usage["oom_kills"] = 1
        return usage

    def processes(self) -> list[int]:
        with self.lock:
            self._remember_namespace()
            return self._members()

    def _members(self) -> list[int]:
        # Only while the namespace is held open does its name mean this tree's namespace.
        inside = in_namespace(self.namespace) if self.namespace_fd >= 0 else []
        outer = [self.pid] if self.root_fd >= 0 and not exited(self.root_fd) else []
        return sorted(set(outer + inside))

    def _remember_namespace(self) -> None:
        if self.namespace or not self.pid or self.root_fd < 0 or exited(self.root_fd):
            return
        init = children(self.pid)
        namespace, fd = open_namespace(init[0], self.pid) if init else ("", -1)
        # Only a namespace of the tree's own: `kill` SIGKILLs everything in it, and the
        # root's own namespace holds the supervisor (or the zygote and every sibling).
        own = pid_namespace(self.pid)
        if own and namespace and namespace != own:
            self.namespace, self.namespace_fd = namespace, fd
            self.backend.namespaces[self.name] = namespace
        elif fd >= 0:
            os.close(fd)

    def _close_namespace(self) -> None:
        if self.namespace_fd >= 0:
            os.close(self.namespace_fd)
            self.namespace_fd = -1

    def _close_root(self) -> None:
        if self.root_fd >= 0:
            os.close(self.root_fd)
            self.root_fd = -1

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
        """Signal the root and every process below it, each through a pidfd checked to be
        the tree's (see `processes.walk`): a number the kernel gave to an unrelated process
        after one of the tree's ended is never stopped. The root stopped first cannot start
        more while the rest are walked."""
        with self.lock:
            for _, fd in walk(self.pid, self.root_fd) if not self.killed else ():
                send(fd, number)


def _resident(pid: int, fd: int) -> int:
    """`pid`'s resident bytes, if the process behind `fd` still had the number after the read
    (it cannot change hands before the process is reaped, and exiting comes first)."""
    size = resident(pid)
    return 0 if exited(fd) else size


@dataclass
class Rootless:
    name: str = "rootless"
    namespaces: dict[str, str] = field(default_factory=dict)  # tree name -> pid namespace
    live: dict[str, RootlessTree] = field(default_factory=dict)
    stuck: dict[str, RootlessTree] = field(default_factory=dict)  # killed, not yet seen empty
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

    def gone(self, tree: RootlessTree, *, emptied: bool = True) -> None:
        with self.lock:
            self.live.pop(tree.name, None)
            if emptied:
                self.stuck.pop(tree.name, None)
            else:  # its handles stay open while something lives in it: `close` tries again
                self.stuck[tree.name] = tree
            self.busy_trees.discard(tree.name)
            if not self.busy_trees:
                for other in self.live.values():
                    other.resume(time.monotonic())

    def sweep(self) -> None:
        return None  # --die-with-parent: a dead server's sandboxes died with it

    def close(self) -> None:
        for tree in list(self.stuck.values()):
            tree.kill()
        for tree in list(self.stuck.values()):  # still not empty: the fds go with the server
            with tree.lock:
                tree._close_namespace()
                tree._close_root()
        self.stuck.clear()


def probe(*, uid_base: int) -> Rootless:
    del uid_base  # every worker runs as this user, mapped inside its own user namespace
    checks.not_root()
    checks.user_namespaces()
    checks.seccomp_module()
    checks.interpreter_readable()
    checks.pidfds()
    return Rootless()
