"""The unified-hierarchy backend: root, or an ordinary user who owns a delegated subtree.

Follows the kernel's cgroup-v2 rules (Documentation/admin-guide/cgroup-v2.rst): processes
live only in leaves ("no internal processes"), a controller is usable in a child only once
its parent lists it in `cgroup.subtree_control`, and a delegated subtree is one whose
directory and `cgroup.procs`, `cgroup.subtree_control` files belong to the user. Per worker
leaf: `memory.max` with `memory.swap.max` 0, `pids.max`, `cpu.weight` (1 while warming, 100
on a job), `cgroup.kill` for the whole tree, `memory.events` (`oom_kill`) to name a breach.

Layout: as root, `<mount>/tapequiz/<pid>/<worker>`; delegated (a container with its own
cgroup namespace, or `systemd-run --user -p Delegate=yes`), the server first moves itself
into `<own>/supervisor` so that `<own>` may enable controllers, then uses
`<own>/tapequiz-<pid>/<worker>`. As root each worker also gets its own uid; as an ordinary
user workers share the user's uid inside their own user namespaces.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.grading.sandbox import launcher, uids
from app.grading.sandbox.backends import Unavailable, checks
from app.grading.sandbox.backends.processes import confirm
from app.grading.sandbox.cgroups import alive
from app.grading.sandbox.launcher import Limits

REQUIRED = ("memory", "pids")
OPTIONAL = ("cpu",)
ORDERED = (*REQUIRED, *OPTIONAL)
IDLE_WEIGHT, BUSY_WEIGHT = 1, 100  # cpu.weight: 1..10000, default 100
KILL_SECONDS = 5.0


def unified_mount(mounts: Path = Path("/proc/self/mounts")) -> Path | None:
    for line in mounts.read_text().splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[2] == "cgroup2":
            return Path(fields[1])
    return None


def own_cgroup(listing: Path = Path("/proc/self/cgroup")) -> str:
    for line in listing.read_text().splitlines():
        if line.startswith("0::"):
            return line[3:]
    return ""


def controllers(path: Path) -> set[str]:
    return set(_read(path / "cgroup.controllers").split())


def enable(path: Path, names: Sequence[str]) -> None:
    """Let `path`'s children use `names` (each must be in `path`'s cgroup.controllers)."""
    enabled = set(_read(path / "cgroup.subtree_control").split())
    for name in names:
        if name not in enabled:
            (path / "cgroup.subtree_control").write_text(f"+{name}")


def make_dir(path: Path, names: Sequence[str]) -> Path:
    """An inner node whose children get `names`."""
    path.mkdir(exist_ok=True)
    enable(path, names)
    return path


def write_limits(leaf: Path, limits: Limits, names: Sequence[str]) -> None:
    if "memory" in names:
        (leaf / "memory.max").write_text(str(limits.memory_bytes))
        if (leaf / "memory.swap.max").exists():  # absent without swap accounting: no swap
            (leaf / "memory.swap.max").write_text("0")
    if "pids" in names:
        (leaf / "pids.max").write_text(str(limits.pids))
    if "cpu" in names:
        (leaf / "cpu.weight").write_text(str(IDLE_WEIGHT))


def kill(leaf: Path, timeout: float = KILL_SECONDS) -> None:
    """cgroup.kill (Linux 5.14+) SIGKILLs every process in the subtree; wait until empty."""
    try:
        (leaf / "cgroup.kill").write_text("1")
    except FileNotFoundError:
        return  # the leaf is gone already
    deadline = time.monotonic() + timeout
    while populated(leaf) and time.monotonic() < deadline:
        time.sleep(0.005)


def populated(leaf: Path) -> bool:
    return "populated 1" in _read(leaf / "cgroup.events")


def usage(leaf: Path) -> dict[str, int]:
    """Counters that tell which limit a dead worker hit (memory.events, pids.events)."""
    facts = {"oom_kills": _field(leaf / "memory.events", "oom_kill")}
    facts["memory_failcnt"] = _field(leaf / "memory.events", "max")  # cgroup1's name for it
    facts["memory_max_usage"] = _int(_read(leaf / "memory.peak"))  # Linux 5.19+
    facts["pids_max_hits"] = _field(leaf / "pids.events", "max")
    return facts


def processes(leaf: Path) -> list[int]:
    return sorted(int(pid) for pid in _read(leaf / "cgroup.procs").split())


def remove(leaf: Path) -> None:
    with contextlib.suppress(OSError):
        leaf.rmdir()


@dataclass
class Cgroup2Tree:
    name: str
    leaf: Path
    limits: Limits
    names: tuple[str, ...]
    claim: uids.UidClaim | None
    pid: int = 0
    killed: bool = field(default=False)
    pausable: bool = True  # nothing is ever paused on this backend

    def command(self, result_fd: int) -> tuple[list[str], dict[str, str]]:
        groups = [self.leaf]
        if self.claim is None:  # an ordinary user: its own uid, inside its user namespace
            sandbox = launcher.worker_command(result_fd=result_fd, limits=self.limits)
            prefix, env = launcher.joining_chain(groups=groups)
            return [*prefix, *sandbox], env
        views: list[tuple[str, str]] = []
        sandbox = launcher.worker_command(result_fd=result_fd, limits=self.limits, views=views)
        prefix, env = launcher.dropping_chain(uid=self.claim.uid, groups=groups, views=views)
        return [*prefix, *sandbox], env

    def started(self, pid: int) -> None:
        self.pid = pid

    def adopt(self, pid: int, handle: int) -> None:
        (self.leaf / "cgroup.procs").write_text(str(pid))
        confirm(handle)  # it lived through the write: the number was still its own

    def set_busy(self) -> None:
        if "cpu" in self.names:
            with contextlib.suppress(OSError):
                (self.leaf / "cpu.weight").write_text(str(BUSY_WEIGHT))

    async def watch(self) -> str:
        await asyncio.Event().wait()  # the kernel enforces every limit itself
        return ""

    def kill(self) -> dict[str, int]:
        kill(self.leaf)
        facts = usage(self.leaf) if not self.killed else {}
        remove(self.leaf)
        if self.claim is not None:
            self.claim.release()
        self.killed = True
        return facts

    def processes(self) -> list[int]:
        return processes(self.leaf)


@dataclass
class Cgroup2:
    instance: Path
    names: tuple[str, ...]
    uid_base: int | None  # None: an ordinary user, no uid per worker
    name: str = "cgroup2"

    def prepare(self, name: str, limits: Limits) -> Cgroup2Tree:
        leaf = self.instance / name
        if leaf.exists():
            kill(leaf)
            remove(leaf)
        leaf.mkdir()
        try:
            write_limits(leaf, limits, self.names)
            claim = uids.claim(self.uid_base) if self.uid_base is not None else None
        except BaseException:
            remove(leaf)
            raise
        return Cgroup2Tree(name, leaf, limits, self.names, claim)

    def sweep(self) -> None:
        """Kill and remove instance directories whose server process is gone."""
        for owner in self.instance.parent.iterdir():
            number = owner.name.removeprefix("tapequiz-")
            if owner.is_dir() and number.isdigit() and not alive(int(number)):
                for leaf in [p for p in owner.iterdir() if p.is_dir()]:
                    kill(leaf, timeout=1.0)
                    remove(leaf)
                remove(owner)

    def close(self) -> None:
        remove(self.instance)


def probe(*, uid_base: int) -> Cgroup2:
    mount = unified_mount()
    if mount is None:
        raise Unavailable("no cgroup v2 hierarchy is mounted")
    checks.bubblewrap()
    checks.seccomp_module()
    checks.pidfds()  # a zygote's child is adopted by a checked pidfd (Tree.adopt)
    if os.geteuid() == 0:
        checks.root_tools()
        parent = _root_parent(mount)
        return Cgroup2(_instance(parent, f"{os.getpid()}"), _names(parent), uid_base)
    checks.user_namespaces()
    checks.interpreter_readable()
    parent = _delegated_parent(mount)
    return Cgroup2(_instance(parent, f"tapequiz-{os.getpid()}"), _names(parent), None)


def _names(parent: Path) -> tuple[str, ...]:
    offered = controllers(parent)
    return tuple(n for n in ORDERED if n in offered)


def _root_parent(mount: Path) -> Path:
    _require(mount)
    try:
        enable(mount, [n for n in ORDERED if n in controllers(mount)])
        return make_dir(mount / "tapequiz", _names(mount))
    except OSError as err:
        raise Unavailable(f"cannot set up the cgroup v2 tree ({err.strerror})") from None


def _delegated_parent(mount: Path) -> Path:
    own = mount / own_cgroup().lstrip("/")
    if not all(os.access(own / f, os.W_OK) for f in ("", "cgroup.procs", "cgroup.subtree_control")):
        raise Unavailable("this user has no delegated cgroup v2 subtree")
    _require(own)
    try:
        make_dir(own / "supervisor", [])
        (own / "supervisor" / "cgroup.procs").write_text(str(os.getpid()))
        enable(own, _names(own))
    except OSError as err:
        raise Unavailable(f"cannot use the delegated cgroup v2 subtree ({err.strerror})") from None
    return own


def _instance(parent: Path, name: str) -> Path:
    try:
        return make_dir(parent / name, _names(parent))
    except OSError as err:
        raise Unavailable(f"cannot create the cgroup v2 instance group ({err.strerror})") from None


def _require(path: Path) -> None:
    missing = [n for n in REQUIRED if n not in controllers(path)]
    if missing:
        raise Unavailable(f"the cgroup v2 hierarchy does not offer {' and '.join(missing)} here")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _int(text: str) -> int:
    return int(text.strip()) if text.strip().isdigit() else 0


def _field(path: Path, key: str) -> int:
    for line in _read(path).splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return _int(value)
    return 0
