"""`tapequiz doctor`: can this host grade code answers, with which backend, and what to fix.

Runs the same checks the backends' probes run (so its verdict is the server's), one line per
check with the fix for each failure, then names the backend `auto` would choose and why the
stronger ones are not usable.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from app.grading.sandbox import backends, cgroups
from app.grading.sandbox.backends import Unavailable, cgroup2, checks

APT = "sudo apt-get install -y"


def _cgroup_v1() -> None:
    if not (cgroups.ROOT / "memory").is_dir():
        raise Unavailable("no cgroup v1 memory hierarchy (normal on cgroup v2 hosts)")
    if not cgroups.available():
        raise Unavailable("cgroup v1 memory and pids are not writable by this user")


def _cgroup_v2() -> None:
    mount = cgroup2.unified_mount()
    if mount is None:
        raise Unavailable("no cgroup v2 hierarchy is mounted")
    own = mount / cgroup2.own_cgroup().lstrip("/")
    offered = cgroup2.controllers(mount if os.geteuid() == 0 else own)
    missing = [n for n in cgroup2.REQUIRED if n not in offered]
    if missing:
        raise Unavailable(f"cgroup v2 at {mount} offers no {' or '.join(missing)} controller")
    if os.geteuid() != 0 and not os.access(own, os.W_OK):
        raise Unavailable(f"cgroup v2 subtree {own} is not delegated to this user")


CHECKS: list[tuple[str, Callable[[], None], str]] = [
    ("bubblewrap", checks.bubblewrap, f"{APT} bubblewrap"),
    ("seccomp module for this Python", checks.seccomp_module, f"{APT} python3-seccomp"),
    (
        "user namespaces (a bwrap sandbox starts as this user)",
        checks.user_namespaces,
        "sysctl -w kernel.unprivileged_userns_clone=1 (Debian/Ubuntu); in Docker, run with "
        "the seccomp profile in deploy/ (see the README)",
    ),
    ("interpreter and venv readable", checks.interpreter_readable, "use a venv this user owns"),
    ("cgroup v1 (memory, pids) writable", _cgroup_v1, "only root on a cgroup v1 host"),
    (
        "cgroup v2 with memory and pids for this user",
        _cgroup_v2,
        "root, or start under `systemd-run --user --scope -p Delegate=yes`",
    ),
]


def run(wanted: str, uid_base: int, out: Callable[[str], None] = print) -> int:
    who = "root" if os.geteuid() == 0 else f"uid {os.geteuid()} (not root)"
    out(f"tapequiz doctor: {who}, Python {sys.version.split()[0]} at {Path(sys.prefix)}")
    for label, check, fix in CHECKS:
        try:
            check()
            out(f"  ok    {label}")
        except Unavailable as err:
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
