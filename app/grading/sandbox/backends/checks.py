"""Host checks shared by the backends' probes and `tapequiz doctor`.

Each check raises `Unavailable` with a reason in plain words (no host paths: it may reach a
learner through a code answer) and returns quietly when the host is fine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from app.grading.sandbox import launcher
from app.grading.sandbox.backends import Unavailable

PROBE_SECONDS = 10.0
PATH = re.compile(r"/[^\s:]+")  # keep host paths out of what users may read


def bubblewrap() -> None:
    if not shutil.which("bwrap"):
        raise Unavailable("bubblewrap is not installed (Debian package: bubblewrap)")


def seccomp_module() -> None:
    try:
        launcher.seccomp_module()
    except FileNotFoundError:
        raise Unavailable(
            "the seccomp module for this Python is not installed (Debian package: python3-seccomp)"
        ) from None


def root_tools() -> None:
    if os.geteuid() != 0:
        raise Unavailable("not running as root")
    for tool in ("unshare", "setpriv"):
        if not shutil.which(tool):
            raise Unavailable(f"{tool} is not installed (Debian package: util-linux)")


def not_root() -> None:
    if os.geteuid() == 0:
        raise Unavailable("running as root: bubblewrap must not run as root without a uid drop")


def user_namespaces() -> None:
    """An unprivileged bubblewrap sandbox really starts (user, pid, net, ipc, mount namespaces)."""
    bubblewrap()
    argv = [*launcher.bwrap_args(launcher.Limits()), "--", "/usr/bin/true"]
    try:
        done = subprocess.run(  # noqa: S603 - a fixed argv, no user input
            argv, capture_output=True, text=True, timeout=PROBE_SECONDS
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Unavailable(f"bubblewrap could not start a sandbox ({type(err).__name__})") from None
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        said_plainly = PATH.sub("a path", said[0].removeprefix("bwrap: "))
        raise Unavailable(f"bubblewrap cannot create namespaces as this user ({said_plainly})")


def interpreter_readable() -> None:
    """This user can read the interpreter and the venv it will bind into the sandbox."""
    for folder in {Path(sys.prefix), Path(sys.base_prefix)}:
        if not os.access(folder, os.R_OK | os.X_OK):
            raise Unavailable("this user cannot read the Python interpreter or its venv")


def pidfds() -> None:
    """The kernel gives pidfds and nothing denies them: every backend signals (or, for a
    zygote's child, adopts) a process it did not spawn only through a checked pidfd
    (backends/processes.py), never by a pid that may be reused."""
    try:
        fd = os.pidfd_open(os.getpid())
    except OSError:
        raise Unavailable(
            "this host gives no pidfds (pidfd_open needs Linux 5.3 or later, and a seccomp "
            "profile that allows it)"
        ) from None
    os.close(fd)
