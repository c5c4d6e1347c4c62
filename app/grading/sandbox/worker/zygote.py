"""The fork server (zygote): import TensorFlow once, run no op, fork one child per submission.

Runs inside the same bubblewrap sandbox as an exec-spawned worker (one zygote per sandbox), as
trusted code only. It imports TensorFlow, Keras and every worker module, runs no TF op (forking
after an op hangs the child: TF's runtime threads do not survive fork), makes itself
non-dumpable, says hello on its control socket and then serves fork requests.

Control protocol (a SOCK_SEQPACKET socket from the supervisor, one JSON message per packet):

- zygote -> supervisor, once: `{"zygote": true, "versions": ..., "import_s": ..,
  "shared_writable": [...]}` (writable MAP_SHARED mappings: the supervisor refuses a zygote
  that has any, since a child could write through one into its siblings);
- supervisor -> zygote: `{"fork": name}` with exactly four descriptors attached
  (SCM_RIGHTS): the child's job pipe (read end), result, output and status pipes (write
  ends; the status pipe stays with the reaper, which writes the child's exit status to it);
- zygote -> supervisor: `{"forked": name, "pid": pid}` (pid in the sandbox's pid namespace);
- supervisor -> zygote: `{"retire": true}`, or EOF: fork no more, wait for the live children,
  exit.

A child keeps only its own three pipes (as fds 0, 1/2 and 3; everything else, the control
socket included, is closed), waits for the supervisor's `go` line (sent once the supervisor has
put the child into its own cgroup, so every page it touches from then on is charged there), then
`isolate`s: a new user namespace mapping only its own uid, new pid, mount and ipc namespaces,
and a second fork so the submission runs as pid 1 of a namespace that holds nothing else. There
it mounts its own /proc (when the kernel allows it), /tmp and /dev/shm, drops every capability,
stays non-dumpable, and then runs exactly what an exec-spawned worker runs (`__main__.serve`):
warm up, say ready, read the job, lock down (rlimits + seccomp), run it, report, `os._exit`
(its warm-up is shorter: the contracts the supervisor names, and one eager step if asked).
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import fcntl
import gc
import json
import os
import signal
import socket
import sys
import time
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x8, 0x4000, 0x40000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP = 1, 4, 24
CAP_LAST = 63
SYS_CAPSET = 126  # x86_64
MAX_MESSAGE = 64 * 1024
CHILD_FDS = 4
HIGH_FD = 200
MAX_GO = 4096
SANDBOX_TMP = "/tmp"  # noqa: S108 - inside the sandbox: a fresh tmpfs per child
SANDBOX_SHM = "/dev/shm"  # noqa: S108 - likewise
LAZY_IMPORTS = ("secrets", "numpy.random")
WORKER_MODULES = (
    "candidate", "declared", "lockdown", "models", "observe", "probes", "replay",
    "replay_declared", "runner", "scenarios", "trial", "__main__",
)  # fmt: skip
MAX_PREBUILD = 8
SHM_BYTES = 1024 * 1024
TMP_BYTES = 64 * 1024 * 1024  # as the sandbox's own /tmp (launcher.Limits.tmp_bytes)

_libc = ctypes.CDLL(None, use_errno=True)


class IsolationFailed(RuntimeError):
    """A namespace, mapping or mount the child needs could not be set up."""


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise IsolationFailed(f"{what}: {os.strerror(err)}")


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), f"prctl({option})")


def shared_writable(maps: str = "/proc/self/maps") -> list[str]:
    """Writable shared mappings of this process (perms `rw?s`): none may exist in a zygote."""
    found = []
    with open(maps) as listing:
        for line in listing:
            fields = line.split()
            if len(fields) > 1 and fields[1][1] == "w" and fields[1][3] == "s":
                found.append(" ".join(fields[5:]) or fields[0])
    return found


def preload() -> dict[str, str]:
    """Import everything a child needs, and run nothing that starts TF's runtime."""
    import importlib

    import keras
    import tensorflow as tf

    for name in LAZY_IMPORTS:  # what a child would otherwise import on its first scenario
        importlib.import_module(name)
    for name in WORKER_MODULES:
        importlib.import_module(f"{__package__}.{name}")

    return {"tensorflow": tf.__version__, "keras": keras.__version__}


def serve(config: dict[str, Any], control_fd: int) -> None:
    """The zygote's loop. Never runs candidate code, never runs a TF op."""
    from . import lockdown

    control = socket.socket(fileno=control_fd)
    # RLIMIT_NPROC counts every process of this uid; children get their own after isolating
    lockdown.start_limits(int(config["nproc"]) * int(config.get("max_children", 16)),
                          int(config["file_size"]))  # fmt: skip
    began = time.monotonic()
    versions = preload()
    # Every object the imports made moves to a permanent generation that the collector never
    # scans: a child's collections would otherwise touch (and so copy) the pages of all of
    # them. Measured in a forked child grading train-step: 20k -> 9k minor faults, CPU of the
    # grade 0.51 -> 0.36 s (docs/grading-benchmark.md).
    gc.collect()
    gc.freeze()
    prctl(PR_SET_DUMPABLE, 0)  # /proc/<zygote>/mem etc.: not for a same-uid child
    hello = {
        "zygote": True,
        "versions": versions,
        "import_s": round(time.monotonic() - began, 3),
        "shared_writable": shared_writable(),
        "threads": len(os.listdir("/proc/self/task")),
    }
    control.send(json.dumps(hello).encode())
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    retiring = False
    while not retiring:
        try:
            data, fds = _receive(control)
        except ConnectionError:
            break
        if not data:
            break
        request = json.loads(data)
        if "fork" not in request or len(fds) != CHILD_FDS:
            for fd in fds:
                os.close(fd)
            retiring = bool(request.get("retire"))
            continue
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            pid = os.fork()
        except OSError as err:  # out of processes or memory: say so, keep serving
            pid, reply = -1, {"forked": request["fork"], "error": str(err)}
        if pid == 0:
            _child(config, fds)  # never returns
        for fd in fds:
            os.close(fd)
        if pid > 0:
            reply = {"forked": request["fork"], "pid": pid}
        control.send(json.dumps(reply).encode())
    control.close()
    _wait_for_children()
    os._exit(0)


def _receive(control: socket.socket) -> tuple[bytes, list[int]]:
    fds = array.array("i")
    data, ancillary, _flags, _addr = control.recvmsg(
        MAX_MESSAGE, socket.CMSG_SPACE(CHILD_FDS * fds.itemsize)
    )
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    return data, list(fds)


def _wait_for_children() -> None:
    """A retired zygote stays until its children finish: its exit ends the sandbox."""
    while True:
        alive = [
            pid for pid in os.listdir("/proc") if pid.isdigit() and _parent(pid) == os.getpid()
        ]
        if not alive:
            return
        time.sleep(0.05)


def _parent(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _child(config: dict[str, Any], fds: list[int]) -> None:
    """In the forked child: keep only its own pipes, wait for `go`, isolate, serve one job."""
    code = 70
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()  # else kill(0, ...) reaches the zygote's process group: every sibling
        job, result, output, status = (fcntl.fcntl(fd, fcntl.F_DUPFD, HIGH_FD) for fd in fds)
        for fd, target in ((job, 0), (output, 1), (output, 2), (result, 3), (status, 4)):
            os.dup2(fd, target)
        os.closerange(5, _max_fd())  # the control socket, the zygote's own files, the originals
        go = _read_go()
        isolate()
        from . import __main__ as worker
        from . import lockdown

        lockdown.start_limits(int(config["nproc"]), int(config["file_size"]))
        prebuild = [str(c) for c in go.get("prebuild", [])][:MAX_PREBUILD]
        step = go.get("step") is True
        worker.serve({**config, "result_fd": 3, "zygote": False, "prebuild": prebuild,
                      "warm_step": step})  # fmt: skip
    except BaseException as err:  # whatever happened: say it and leave
        with contextlib.suppress(Exception):
            os.write(2, f"zygote child failed: {type(err).__name__}: {err}\n".encode())
        with contextlib.suppress(Exception):
            os.write(3, json.dumps({"worker_error": f"fork child: {err}"}).encode() + b"\n")
    os._exit(code)


def _max_fd() -> int:
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft > 0 else 1024


def _read_go() -> dict[str, Any]:
    """The supervisor's start line (JSON: which contracts to prebuild, whether to run the
    eager warm step), read byte by byte so that nothing of the job that follows is consumed."""
    seen = b""
    while not seen.endswith(b"\n") and len(seen) < MAX_GO:
        chunk = os.read(0, 1)
        if not chunk:
            os._exit(0)  # the supervisor gave up on this child before it started
        seen += chunk
    go: dict[str, Any] = json.loads(seen)
    return go


def isolate() -> None:
    """Own user, pid, mount and ipc namespaces; return as pid 1 of the new pid namespace.

    The forked process stays behind as a reaper that only waits and forwards the status."""
    uid, gid = os.getuid(), os.getgid()
    prctl(PR_SET_DUMPABLE, 1)  # a non-dumpable process cannot write its own id maps
    _check(
        _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC),
        "unshare",
    )
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    prctl(PR_SET_DUMPABLE, 0)
    pid = os.fork()
    if pid:
        _reap(pid)
    os.close(4)  # the status pipe is the reaper's
    os.setsid()  # a process group of its own: kill(0, ...) reaches only itself
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the reaper gone: this namespace goes too
    _mounts()
    drop_capabilities()
    prctl(PR_SET_DUMPABLE, 0)


def _reap(pid: int) -> None:
    """The reaper: holds only the status pipe, and writes the child's end to it as
    `<status> <cpu seconds>`: the status is negative for a signal (`-9`: killed), as asyncio
    reports one, so that no exit status the code chooses reads as a signal, and the CPU time
    tells the kernel's CPU-limit SIGKILL from a kill from outside."""
    for fd in range(4):
        with contextlib.suppress(OSError):
            os.close(fd)
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(70)
    signalled = os.WIFSIGNALED(status)
    code = -os.WTERMSIG(status) if signalled else os.WEXITSTATUS(status)
    cpu = usage.ru_utime + usage.ru_stime
    with contextlib.suppress(OSError):
        os.write(4, f"{code} {cpu:.3f}\n".encode())
    os._exit(128 - code if signalled else code)


def _mounts() -> None:
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None, "make / private")
    for target, size in ((SANDBOX_TMP, TMP_BYTES), (SANDBOX_SHM, SHM_BYTES)):
        if os.path.isdir(target):
            _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=0700", target)
    with contextlib.suppress(IsolationFailed):  # refused where /proc has locked overmounts
        _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None, "/proc")
    with contextlib.suppress(OSError):  # as bwrap's --disable-userns: no nested namespaces
        _write("/proc/sys/user/max_user_namespaces", "0")
    os.chdir(SANDBOX_TMP)


def _mount(
    source: str | None, target: str, kind: str | None, flags: int, data: str | None, what: str
) -> None:
    def arg(text: str | None) -> bytes | None:
        return text.encode() if text is not None else None

    _check(
        _libc.mount(arg(source), arg(target), arg(kind), ctypes.c_ulong(flags), arg(data)),
        f"mount {what}",
    )


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_capabilities() -> None:
    """Every capability the new user namespace gave: gone from every set, bounding included."""
    for cap in range(CAP_LAST + 1):
        if _libc.prctl(PR_CAPBSET_DROP, ctypes.c_ulong(cap), 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(_libc.syscall(SYS_CAPSET, ctypes.byref(header), ctypes.byref(data)), "capset")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
