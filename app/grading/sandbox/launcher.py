"""Build the commands that start one sandboxed worker: the bubblewrap sandbox and its prefixes.

`worker_command` is the same on every backend: bubblewrap with every namespace unshared (no
network), a read-only view of /usr, the interpreter and the worker package only, a small
private /tmp, no /sys, and an empty environment. The backends put a prefix in front of it,
exec-only (the web process is never forked without exec): `dropping_chain` for root
(`unshare --mount` gives a private mount namespace in which `sh` joins the worker's cgroups
and bind-mounts any directory the worker uid could not reach, pyenv interpreters live under
/root, mode 0700; `setpriv` drops to the worker's uid with no capabilities), `joining_chain`
for an ordinary user with a delegated cgroup, and nothing for the rootless backend.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

WORKER_DIR = Path(__file__).resolve().parent / "worker"
VIEWS = Path("/run/tapequiz-views")
INSIDE = Path("/opt/tapequiz")
SECCOMP_DIRS = ("/usr/lib/python3/dist-packages",)
MIB = 1024 * 1024
SANDBOX_TMP = "/tmp"  # noqa: S108 - a private tmpfs inside the sandbox, not the host /tmp
SHM_BYTES = 1 * MIB  # the sandbox's /dev/shm; the same size as a forked child's own

_JOIN = """set -e
for group in $TQ_GROUPS; do echo $$ > "$group/cgroup.procs"; done
exec "$@"
"""
_CHAIN = """set -e
for group in $TQ_GROUPS; do echo $$ > "$group/cgroup.procs"; done
while [ "$TQ_VIEWS" ]; do
  source=${TQ_VIEWS%%|*}; rest=${TQ_VIEWS#*|}; view=${rest%%|*}
  case "$rest" in *"|"*) TQ_VIEWS=${rest#*|} ;; *) TQ_VIEWS= ;; esac
  mount --bind -o ro "$source" "$view"
done
exec setpriv --reuid="$TQ_UID" --regid="$TQ_UID" --clear-groups --inh-caps=-all \
  --bounding-set=-all --no-new-privs -- "$@"
"""


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 15.0
    cpu_seconds: int = 10
    memory_bytes: int = 1024 * MIB
    pids: int = 64
    file_size: int = 1 * MIB
    open_files: int = 64
    output_bytes: int = 1 * MIB
    tmp_bytes: int = 64 * MIB
    source_bytes: int = 64 * 1024


def worker_command(
    *, result_fd: int, limits: Limits, views: list[tuple[str, str]] | None = None
) -> list[str]:
    """bubblewrap's argv, then the worker's. With `views`, directories another uid could not
    reach are recorded there and replaced by view paths (see `dropping_chain`)."""
    binds: list[str] = []
    mounts = [(path, path) for path in _python_dirs()]
    mounts += [
        (WORKER_DIR, INSIDE / "tqworker"),
        (seccomp_module(), INSIDE / "lib" / seccomp_module().name),
    ]
    for host, inside in mounts:
        shown = str(host) if views is None else _visible(host, views)
        binds += ["--ro-bind", shown, str(inside)]
    config = {
        "result_fd": result_fd,
        "nproc": limits.pids,
        "file_size": limits.file_size,
        "cpu_seconds": limits.cpu_seconds,
        "open_files": limits.open_files,
    }
    worker = [sys.executable, "-s", "-m", "tqworker", json.dumps(config)]
    return [*bwrap_args(limits), *binds, "--", *worker]


def dropping_chain(
    *, uid: int, groups: list[Path], views: list[tuple[str, str]]
) -> tuple[list[str], dict[str, str]]:
    """Root's prefix: private mounts, join the cgroups, bind the views, drop to `uid`.

    The environment goes to the chain only; bubblewrap clears it for the worker."""
    argv = ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", _CHAIN, "sh"]
    env = {
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
        "TQ_GROUPS": " ".join(str(p) for p in groups),
        "TQ_VIEWS": "|".join(f"{s}|{v}" for s, v in views),
        "TQ_UID": str(uid),
    }
    return argv, env


def joining_chain(*, groups: list[Path]) -> tuple[list[str], dict[str, str]]:
    """An ordinary user's prefix: join the (delegated) cgroups, then exec bubblewrap."""
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TQ_GROUPS": " ".join(map(str, groups))}
    return ["/bin/sh", "-c", _JOIN, "sh"], env


def bwrap_args(limits: Limits) -> list[str]:
    args = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent"]
    args += ["--new-session", "--clearenv", "--ro-bind", "/usr", "/usr"]
    for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / top
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), f"/{top}"]
        elif host.is_dir():
            args += ["--ro-bind", str(host), f"/{top}"]
    if Path("/etc/ld.so.cache").exists():
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(limits.tmp_bytes),
        "--tmpfs",
        SANDBOX_TMP,
        # /dev is bwrap's own tmpfs, writable and unbounded: a fork server's children share it
        # with their zygote, so a file one submission left there was read by the next, and
        # 1.1 GiB written there in 3 s was memory the rootless sampler never saw (round 14).
        # Only /dev/shm stays writable, a small tmpfs of its own (a forked child mounts a
        # fresh one over it).
        "--size",
        str(SHM_BYTES),
        "--tmpfs",
        "/dev/shm",  # noqa: S108 - a private tmpfs inside the sandbox
        "--remount-ro",
        "/dev",
    ]
    args += ["--chdir", SANDBOX_TMP]
    for name, value in _environment().items():
        args += ["--setenv", name, value]
    return args


def _environment() -> dict[str, str]:
    return {
        "HOME": SANDBOX_TMP,
        "PATH": "/usr/bin",
        "PYTHONPATH": f"{INSIDE}:{INSIDE / 'lib'}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "KERAS_HOME": f"{SANDBOX_TMP}/keras",
        "TF_CPP_MIN_LOG_LEVEL": "2",
        "TF_NUM_INTRAOP_THREADS": "1",
        "TF_NUM_INTEROP_THREADS": "2",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2",
    }


def _python_dirs() -> list[Path]:
    dirs = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i] and not _under(d, Path("/usr"))]


def _under(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents


def _reachable(path: Path) -> bool:
    """True when an unprivileged uid can traverse every directory down to `path`."""
    for part in [*reversed(path.parents), path]:
        mode = part.stat().st_mode
        if not mode & (stat.S_IXOTH if stat.S_ISDIR(mode) else stat.S_IROTH):
            return False
    return True


def _visible(path: Path, views: list[tuple[str, str]]) -> str:
    """A host path the slot uid can reach: itself, or a bind-mount view of it."""
    if _reachable(path):
        return str(path)
    folder = path if path.is_dir() else path.parent
    view = VIEWS / f"v{len(views)}"
    view.mkdir(parents=True, exist_ok=True)
    views.append((str(folder), str(view)))
    return str(view if folder == path else view / path.name)


def seccomp_module() -> Path:
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    for folder in [*sys.path, *SECCOMP_DIRS]:
        for candidate in Path(folder or ".").glob(f"seccomp.{tag}*.so"):
            return candidate
    raise FileNotFoundError("python3-seccomp is not installed (apt-get install python3-seccomp)")
