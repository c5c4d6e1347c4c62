"""The root backend on cgroup v1: a uid per worker and a memory + pids (+ cpu) group per tree.

The strongest backend: the kernel enforces memory (no swap), process count and CPU shares,
RLIMIT_NPROC counts per worker because every worker has its own uid, and killing every pid
in the group takes the whole tree down. The mechanics live in `cgroups` and `uids`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from app.grading.sandbox import cgroups, launcher, uids
from app.grading.sandbox.backends import Unavailable, checks
from app.grading.sandbox.backends.processes import confirm
from app.grading.sandbox.launcher import Limits


@dataclass
class Cgroup1Tree:
    name: str
    group: cgroups.Group
    claim: uids.UidClaim
    limits: Limits
    pid: int = 0
    killed: bool = field(default=False)
    pausable: bool = True  # nothing is ever paused on this backend

    def command(self, result_fd: int) -> tuple[list[str], dict[str, str]]:
        views: list[tuple[str, str]] = []
        sandbox = launcher.worker_command(result_fd=result_fd, limits=self.limits, views=views)
        groups = list(self.group.dirs.values())
        prefix, env = launcher.dropping_chain(uid=self.claim.uid, groups=groups, views=views)
        return [*prefix, *sandbox], env

    def started(self, pid: int) -> None:
        self.pid = pid

    def adopt(self, pid: int, handle: int) -> None:
        for path in self.group.dirs.values():
            (path / "cgroup.procs").write_text(str(pid))
        confirm(handle)  # it lived through the writes: the number was still its own

    def set_busy(self) -> None:
        self.group.set_busy()

    async def watch(self) -> str:
        await asyncio.Event().wait()  # the kernel enforces every limit itself
        return ""

    def kill(self) -> dict[str, int]:
        cgroups.kill(self.group, remove=False)
        usage = self.group.usage() if not self.killed else {}
        cgroups.destroy(self.group)
        self.claim.release()
        self.killed = True
        return usage

    def processes(self) -> list[int]:
        return self.group.procs()


@dataclass
class Cgroup1:
    uid_base: int
    name: str = "cgroup1"

    def prepare(self, name: str, limits: Limits) -> Cgroup1Tree:
        claim = uids.claim(self.uid_base)
        try:
            group = cgroups.create(name, memory_bytes=limits.memory_bytes, pids=limits.pids)
        except BaseException:
            claim.release()
            raise
        return Cgroup1Tree(name, group, claim, limits)

    def sweep(self) -> None:
        cgroups.sweep_stale()

    def close(self) -> None:
        cgroups.remove_instance()


def probe(*, uid_base: int) -> Cgroup1:
    checks.root_tools()
    if not cgroups.available():
        raise Unavailable("no writable cgroup v1 memory and pids controllers")
    checks.bubblewrap()
    checks.seccomp_module()
    checks.pidfds()  # its kill signals the pids cgroup.procs lists through checked pidfds
    return Cgroup1(uid_base)
