"""The fork server seen from the supervisor: start a zygote per sandbox, fork ready workers.

A zygote is started like any worker (`Tree.command` of the backend: same bubblewrap sandbox,
same uid drop and cgroup on root backends) but told to serve forks; its result fd is the
supervisor's end of a SOCK_SEQPACKET control socket. For each ready worker the supervisor:

1. prepares a new tree on the backend (its own cgroup on cgroup1/cgroup2, its own sampled
   process tree on rootless);
2. sends `fork` with the child's four pipes (job, result, output, status) attached;
3. finds the child's host pid (the zygote reports the pid in the sandbox's namespace; the
   host pid is the zygote child whose `NSpid` ends with it) and moves it into the new tree
   (`adopt`), before the child has touched any memory of its own;
4. writes `go` on the job pipe; the child isolates itself (see `worker/zygote.py`), warms up
   and says ready. From then on it is an ordinary `Worker`: `workers.run` and `workers.close`
   drive it exactly as an exec-spawned one.

A zygote is replaced when it dies, when the worker package changes on disk, and after
`max_forks` forks. A retired zygote forks no more and exits once its live children are done.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import os
import signal
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.grading.code.workers import (
    MAX_RESULT,
    STARTUP_SECONDS,
    Worker,
    WorkerFailed,
    _drain,
    _reader,
    tree_name,
)
from app.grading.sandbox.backends import Backend, Tree
from app.grading.sandbox.backends.processes import children, opened
from app.grading.sandbox.launcher import WORKER_DIR, Limits

log = logging.getLogger(__name__)
MAX_MESSAGE = 64 * 1024
PROC = Path("/proc")
ADOPT_SECONDS = 5.0
REPLY_SECONDS = 30.0
# Contracts a ready child prebuilds: the latest job's only. A child grades one job, so every
# other contract it built was wasted: a second one cost 0.02-0.045 CPU-s per child (round 3,
# docs/grading-benchmark.md) whenever two questions were in the traffic; a job for another
# contract builds its own state (the same CPU, ~0.03-0.07 s more latency).
RECENT = 1
WORKER_ARGS = [b"-s", b"-m", b"tqworker"]  # python -s -m tqworker: not bwrap, not sh


def worker_code_digest() -> str:
    """Changes whenever a file of the worker package changes (size, mtime or name)."""
    digest = hashlib.sha256()
    for path in sorted(WORKER_DIR.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(WORKER_DIR)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


@dataclass
class Zygote:
    name: str
    tree: Tree
    process: asyncio.subprocess.Process
    control: socket.socket
    host_pid: int
    versions: dict[str, str]
    digest: str
    started: float
    forks: int = 0
    retired: bool = False  # forks no more
    closed: bool = False  # told to exit (control socket closed)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    output: bytearray = field(default_factory=bytearray)
    output_task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self.process.returncode is None and not self.retired


class ForkedProcess:
    """The parts of `asyncio.subprocess.Process` that `workers.run`/`close` use, for a child
    the zygote forked: stdin is its job pipe, stdout its output pipe, and its exit status
    arrives on the status pipe (its reaper writes it; EOF without one means SIGKILL)."""

    def __init__(
        self,
        pid: int,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        status: asyncio.StreamReader,
        transports: list[asyncio.BaseTransport],
        handle: int,
    ) -> None:
        self.pid, self.stdin, self.stdout, self._status = pid, stdin, stdout, status
        self.returncode: int | None = None
        self.cpu_seconds: float | None = None  # the child's CPU time, from its reaper
        self._transports = transports
        self._pidfd = handle  # checked when found (`_find_child`); this object closes it
        self._ended = asyncio.ensure_future(self._watch())  # sets returncode as soon as it ends

    async def _watch(self) -> int:
        line = await self._status.readline()
        self.returncode, self.cpu_seconds = _ending(line)
        self._release()
        return self.returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def kill(self) -> None:
        if self._pidfd >= 0:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)

    def _release(self) -> None:
        for transport in self._transports:
            transport.close()
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1


def _ending(line: bytes) -> tuple[int, float | None]:
    """The reaper's `<status> <cpu seconds>` (see worker/zygote.py `_reap`); nothing at all
    (the reaper itself was killed) reads as SIGKILL, CPU unknown."""
    try:
        status, cpu = line.split()
        return int(status), float(cpu)
    except ValueError:
        return -signal.SIGKILL, None


class Unsupported(WorkerFailed):
    """This backend cannot host a zygote yet: the pool spawns workers with exec instead."""


async def start(backend: Backend, limits: Limits, name: str, max_children: int) -> Zygote:
    """Start a zygote in its own sandbox and wait until it has imported TensorFlow."""
    tree = await asyncio.to_thread(backend.prepare, name, limits)
    tree.pausable = False  # it only waits on its socket and forks; its children are its tree
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        argv, env = tree.command(theirs.fileno())
        config = json.loads(argv[-1])
        # Each child needs one user namespace of its own (see worker/zygote.py: it then bans
        # further ones itself, as --disable-userns does, and seccomp denies unshare/clone).
        argv.remove("--disable-userns")
        argv[-1] = json.dumps({**config, "zygote": True, "max_children": max_children})
        process = await asyncio.create_subprocess_exec(
            *argv, env=env, pass_fds=(theirs.fileno(),), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        tree.started(process.pid)
    except BaseException:
        ours.close()
        await asyncio.to_thread(tree.kill)
        raise
    finally:
        theirs.close()
    ours.setblocking(False)
    zygote = Zygote(name, tree, process, ours, 0, {}, worker_code_digest(), time.monotonic())
    zygote.output_task = asyncio.create_task(_drain_zygote(zygote))
    try:
        hello = await asyncio.wait_for(_receive(zygote), STARTUP_SECONDS)
        if not hello.get("zygote"):
            raise WorkerFailed(f"zygote {name} did not start: {_tail(zygote)}")
        if hello.get("shared_writable"):  # a child could write into its siblings through it
            raise WorkerFailed(f"zygote {name} has writable shared mappings: {hello}")
        zygote.versions = hello.get("versions", {})
        zygote.host_pid = await asyncio.to_thread(_find_zygote, process.pid)
        await asyncio.to_thread(tree.set_busy)  # forking is on every refill's critical path
        log.info("zygote %s ready: import %.2f s", name, hello.get("import_s", 0.0))
    except BaseException as err:
        await kill(zygote)
        if isinstance(err, (TimeoutError, ConnectionError, ValueError)):
            raise WorkerFailed(f"zygote {name} did not start: {err} {_tail(zygote)}") from err
        raise
    return zygote


async def fork(
    zygote: Zygote,
    backend: Backend,
    limits: Limits,
    name: str,
    prebuild: list[str],
    step: bool = True,
) -> Worker:
    """A fresh ready worker forked from `zygote`, in its own tree (with `step`, its warm-up
    includes one eager training step: see `worker.__main__.warm_up`); a cancelled fork leaves
    nothing behind."""
    starting = asyncio.ensure_future(_fork(zygote, backend, limits, name, prebuild, step))
    try:
        worker = await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(BaseException):
            worker = await starting
            from app.grading.code.workers import close

            await close(worker)
        raise
    return worker


async def _fork(
    zygote: Zygote, backend: Backend, limits: Limits, name: str, prebuild: list[str], step: bool
) -> Worker:
    tree = await asyncio.to_thread(backend.prepare, name, limits)
    pipes = [os.pipe() for _ in range(4)]  # job, result, output, status
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1], pipes[3][1]]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]]
    handle = -1  # a pidfd on the child, from `_find_child`: the ForkedProcess's once it exists
    try:
        async with zygote.lock:
            zygote.forks += 1
            message = json.dumps({"fork": name}).encode()
            fds = array.array("i", theirs)
            zygote.control.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
            for fd in theirs:
                os.close(fd)
            theirs = []
            try:
                reply = await asyncio.wait_for(_receive(zygote), REPLY_SECONDS)
            except BaseException:
                zygote.retired = True  # a late reply would answer the next request: replace it
                raise
        if reply.get("forked") != name or "pid" not in reply:
            raise WorkerFailed(f"zygote {zygote.name} answered {reply!r}")
        host_pid, handle = await asyncio.to_thread(_find_child, zygote.host_pid, int(reply["pid"]))
        await asyncio.to_thread(adopt, tree, host_pid, handle)
        tree.started(host_pid)
        os.write(ours[0], json.dumps({"prebuild": prebuild, "step": step}).encode() + b"\n")
    except BaseException:
        for fd in [*theirs, *ours, handle]:
            with contextlib.suppress(OSError):
                os.close(fd)
        await asyncio.to_thread(tree.kill)
        raise
    loop = asyncio.get_running_loop()
    job_transport, job_protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(ours[0], "wb", 0)
    )
    stdin = asyncio.StreamWriter(job_transport, job_protocol, None, loop)
    output, output_transport = await _reader(ours[2])
    status, status_transport = await _reader(ours[3])
    results, results_pipe = await _reader(ours[1])
    transports = [output_transport, status_transport]
    process = ForkedProcess(host_pid, stdin, output, status, transports, handle)
    worker = Worker(tree, process, results, {}, results_pipe)  # type: ignore[arg-type]
    worker.output_task = asyncio.create_task(_drain(worker, limits.output_bytes))
    try:
        line = await asyncio.wait_for(results.readline(), STARTUP_SECONDS)
        ready = json.loads(line) if line else {}
    except (TimeoutError, ValueError) as err:
        ready = {"error": repr(err)}
    except BaseException:
        from app.grading.code.workers import close

        await close(worker)
        raise
    if not ready.get("ready"):
        from app.grading.code.workers import close

        await close(worker)
        said = bytes(worker.output[-2000:]).decode(errors="replace")
        raise WorkerFailed(f"forked worker {name} did not get ready: {ready} {said}")
    worker.versions = ready.get("versions", {})
    worker.warm_up_s = ready.get("warm_up_s", 0.0)  # type: ignore[attr-defined]
    return worker


def adopt(tree: Tree, pid: int, handle: int) -> None:
    """Move `pid` (and so every process it starts later) into `tree`'s own limits."""
    tree.adopt(pid, handle)


async def retire(zygote: Zygote) -> None:
    """Fork no more; the zygote exits once its children are done, then its tree goes."""
    if zygote.closed:
        return
    zygote.retired = zygote.closed = True
    with contextlib.suppress(OSError):
        zygote.control.send(json.dumps({"retire": True}).encode())
    zygote.control.close()

    async def reap() -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(zygote.process.wait(), STARTUP_SECONDS)
        await kill(zygote)

    task = asyncio.create_task(reap())
    _RETIRING.add(task)
    task.add_done_callback(_RETIRING.discard)


_RETIRING: set[asyncio.Task[None]] = set()


async def settle() -> None:
    """Wait until every retired zygote has exited and its tree is gone."""
    while _RETIRING:
        await asyncio.gather(*list(_RETIRING), return_exceptions=True)


async def kill(zygote: Zygote) -> None:
    """Kill the zygote's whole tree at once (children in their own trees are not in it)."""
    zygote.retired = zygote.closed = True
    with contextlib.suppress(OSError):
        zygote.control.close()
    await asyncio.to_thread(zygote.tree.kill)
    with contextlib.suppress(ProcessLookupError):
        zygote.process.kill()
    await zygote.process.wait()
    if zygote.output_task is not None:
        zygote.output_task.cancel()


async def _receive(zygote: Zygote) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    data = await loop.sock_recv(zygote.control, MAX_MESSAGE)
    if not data:
        raise ConnectionError(f"zygote {zygote.name} closed its control socket")
    message: dict[str, Any] = json.loads(data)
    return message


async def _drain_zygote(zygote: Zygote) -> None:
    assert zygote.process.stdout is not None
    while chunk := await zygote.process.stdout.read(65536):
        zygote.output += chunk
        del zygote.output[:-MAX_RESULT]


def _tail(zygote: Zygote) -> str:
    return bytes(zygote.output[-1500:]).decode(errors="replace")


def namespace_pids(pid: int) -> list[int]:
    """`NSpid`: this process's pid in its own and every enclosing pid namespace."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return [int(n) for n in line.split()[1:]]
    except (OSError, ValueError):
        pass
    return []


def _is_child(zygote_pid: int, inner: int, pid: int) -> bool:
    return namespace_pids(pid)[-1:] == [inner] and pid in children(zygote_pid)


def _find_zygote(root: int) -> int:
    """The zygote's host pid: the descendant of the launch chain running `tqworker`."""
    todo = [root]
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError):
            if (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")[1:4] == WORKER_ARGS:
                return pid
        todo += children(pid)
    raise WorkerFailed("the zygote's process could not be found")


def _find_child(zygote_pid: int, inner: int) -> tuple[int, int]:
    """The host pid of the zygote's child `inner` (its pid in the zygote's namespace), and a
    pidfd on it opened before the check, so it names that child and no later holder of the
    number (the zygote reaps its children itself: the supervisor never sees them end)."""
    deadline = time.monotonic() + ADOPT_SECONDS
    while time.monotonic() < deadline:
        for pid in children(zygote_pid):
            handle = opened(pid, functools.partial(_is_child, zygote_pid, inner))
            if handle >= 0:
                return pid, handle
        time.sleep(0.002)
    raise WorkerFailed(f"forked child {inner} not found under the zygote")


class ForkServer:
    """The pool's source of ready workers when the fork server is on: one live zygote at a
    time, replaced when it died, when the worker package changed, or after `max_forks`."""

    def __init__(
        self, backend: Backend, limits: Limits, *, max_forks: int, max_children: int
    ) -> None:
        self.backend, self.limits = backend, limits
        self.max_forks, self.max_children = max_forks, max_children
        self.zygote: Zygote | None = None
        self.started = 0
        self.recent: list[str] = []  # contracts of the latest jobs: what children prebuild
        self._lock = asyncio.Lock()

    def saw(self, contract: object) -> None:
        """A job for `contract` arrived: the next children prebuild its scenario state."""
        if isinstance(contract, str) and contract:
            self.recent = [contract, *[c for c in self.recent if c != contract]][:RECENT]

    async def spawn(self, name: str, *, step: bool = True) -> Worker:
        zygote = await self._current()
        try:
            return await fork(zygote, self.backend, self.limits, name, list(self.recent), step)
        except (WorkerFailed, OSError, TimeoutError, ValueError) as err:
            if zygote.process.returncode is not None or zygote.control.fileno() < 0:
                await retire(zygote)  # dead or deaf: the next spawn starts a new one
            if isinstance(err, WorkerFailed):
                raise
            raise WorkerFailed(f"fork from zygote {zygote.name} failed: {err!r}") from err

    async def _current(self) -> Zygote:
        async with self._lock:
            zygote = self.zygote
            if zygote is not None and not self._usable(zygote):
                self.zygote = None
                await retire(zygote)
            if self.zygote is None:
                self.started += 1
                self.zygote = await start(
                    self.backend, self.limits, tree_name("z"), self.max_children
                )
            return self.zygote

    def _usable(self, zygote: Zygote) -> bool:
        if not zygote.alive:
            return False
        if zygote.forks >= self.max_forks:
            log.info("zygote %s retired after %d forks", zygote.name, zygote.forks)
            return False
        if zygote.digest != worker_code_digest():
            log.info("zygote %s retired: the worker code changed", zygote.name)
            return False
        return True

    async def close(self) -> None:
        async with self._lock:
            if self.zygote is not None:
                await retire(self.zygote)
                self.zygote = None
        await settle()
