"""`tapequiz doctor`: can this host grade code answers, with which backend, and what to fix.

Runs the same checks the backends' probes run (so its verdict is the server's), one line per
check with the fix for each failure, then names the backend `auto` would choose and why the
stronger ones are not usable.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from app.grading.sandbox import backends, cgroups
from app.grading.sandbox.backends import Unavailable, cgroup2, checks

APT = "sudo apt-get install -y"
DELEGATE = "start tapequiz under `systemd-run --user --scope -p Delegate=yes`"


class Finding(Unavailable):
    """A failed check with the fix for this cause (one check can fail for several)."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


def _user_namespaces() -> None:
    if not shutil.which("bwrap"):  # the probe starts bwrap: it says nothing about namespaces
        raise Finding("not checked: bubblewrap is not installed", f"{APT} bubblewrap, then re-run")
    checks.user_namespaces()


def _cgroup_v1() -> None:
    if not (cgroups.ROOT / "memory").is_dir():
        raise Finding(
            "no cgroup v1 memory hierarchy (normal on cgroup v2 hosts)",
            "none needed on a cgroup v2 host: see the cgroup v2 row",
        )
    if cgroups.available():
        return
    if os.geteuid() != 0:
        raise Finding("cgroup v1 memory and pids are writable by root only", "run as root")
    raise Finding(
        "cgroup v1 memory and pids are not writable, even by root",
        "mount them read-write (a container needs its own writable cgroups)",
    )


def _cgroup_v2() -> None:
    root = os.geteuid() == 0
    mount = cgroup2.unified_mount()
    if mount is None:
        raise Finding("no cgroup v2 hierarchy is mounted", _v2_fix_for_root())
    own = mount / cgroup2.own_cgroup().lstrip("/")
    offered = cgroup2.controllers(mount if root else own)
    missing = " or ".join(n for n in cgroup2.REQUIRED if n not in offered)
    if missing and root:
        raise Finding(f"cgroup v2 at {mount} offers no {missing} controller", _v2_fix_for_root())
    if missing:
        raise Finding(f"this user's cgroup v2 subtree has no {missing} controller", DELEGATE)
    if not root and not os.access(own, os.W_OK):
        raise Finding(f"cgroup v2 subtree {own} is not delegated to this user", DELEGATE)


def _v2_fix_for_root() -> str:
    """Root lacks cgroup v2 only on a v1 or hybrid host: there v1 holds memory and pids."""
    if cgroups.available():
        return "none needed: cgroup v1 is used (this host keeps memory and pids on cgroup v1)"
    return "boot with systemd.unified_cgroup_hierarchy=1 (a cgroup v2 host)"


CHECKS: list[tuple[str, Callable[[], None], str]] = [
    ("bubblewrap", checks.bubblewrap, f"{APT} bubblewrap"),
    ("seccomp module for this Python", checks.seccomp_module, f"{APT} python3-seccomp"),
    (
        "user namespaces (a bwrap sandbox starts as this user)",
        _user_namespaces,
        "sysctl -w kernel.unprivileged_userns_clone=1 (Debian/Ubuntu); in Docker, run with "
        "the seccomp profile in deploy/ (see the README)",
    ),
    ("interpreter and venv readable", checks.interpreter_readable, "use a venv this user owns"),
    (
        "pidfds (every backend signals through them)",
        checks.pidfds,
        "Linux 5.3 or later",
    ),
    ("cgroup v1 (memory, pids) writable", _cgroup_v1, "a cgroup v1 host, as root"),
    ("cgroup v2 with memory and pids for this user", _cgroup_v2, DELEGATE),
]


def run(wanted: str, uid_base: int, out: Callable[[str], None] = print) -> int:
    who = "root" if os.geteuid() == 0 else f"uid {os.geteuid()} (not root)"
    out(f"tapequiz doctor: {who}, Python {sys.version.split()[0]} at {Path(sys.prefix)}")
    for label, check, fix in CHECKS:
        try:
            check()
            out(f"  ok    {label}")
        except Unavailable as err:
            fix = err.fix if isinstance(err, Finding) else fix
            out(f"  no    {label}: {err}\n        fix: {fix}")
    backend, refused = backends.choose(wanted, uid_base=uid_base)
    out(backends.describe(backend, refused))
    if backend is None:
        out(
            "Code answers get an 'error' verdict until one backend works; the rest of the app runs."
        )
        return 1
    if backend.name == "rootless":
        out("rootless: memory is enforced by the supervisor, not the kernel (docs/sandbox.md)")
    return 0
