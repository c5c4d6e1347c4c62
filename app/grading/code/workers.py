"""One sandboxed worker seen from the supervisor: spawn it, hand it one job, read it, end it.

Everything here runs in the web process's event loop and never imports TensorFlow. Output
from the candidate is read continuously with a cap; the result channel is a separate pipe and
is read as one size-capped JSON line. Whatever happens, `close` kills the worker's whole
process tree through the sandbox backend (`app.grading.sandbox.backends`), whichever it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from app.grading.code import readable, starved
from app.grading.sandbox.backends import Backend, Tree
from app.grading.sandbox.launcher import Limits

MAX_RESULT = 2 * 1024 * 1024
STARTUP_SECONDS = 120.0
OUTPUT_SHOWN = 2_000


# Tree names are unique in the process, not per pool: the backends nest every tree under the
# server's pid (cgroup1, cgroup2), so two pools in one process (a test's session pool beside
# another test's app) counting from 1 each both made `z1`: 'File exists', and the second
# pool never filled (tests/routes/test_api_interviews_sandbox.py hung after the golden suite).
_TREE_NUMBERS = itertools.count(1)


def tree_name(prefix: str) -> str:
    """`w<n>` for a worker, `z<n>` for a zygote: never the name of another tree here."""
    return f"{prefix}{next(_TREE_NUMBERS)}"


class WorkerFailed(RuntimeError):
    """A worker could not be started (infrastructure, not the candidate)."""


DIED = "the worker process ended without reporting"  # no report, no limit: see `ended`
REPORT_LOST = 125  # the worker's exit status when the job closed or replaced its report fd
REPORT_GRACE = 5.0  # after the report channel closed: how long the worker may take to end

# How a run without a report and without a breached limit ended (`Outcome.ended`). Only
# "killed" can come from outside: the worker's code cannot send itself a signal nor exit with
# a status from 128 up (the seccomp filter ends it with SIGSYS instead), and cannot lower its
# CPU limit, so a SIGKILL that no limit explains was sent by the kernel's OOM killer or an
# operator. Everything else is the code's own doing and can be graded.
KILLED = "killed"  # SIGKILL, no limit: from outside; run again, never the answer's verdict
FORBIDDEN = "forbidden"  # SIGSYS: the seccomp filter ended it (a signal sent, exit >= 128)
EXITED = "exited"  # it exited by itself (os._exit) before reporting
CHANNEL = "channel"  # its report channel closed and it ran on (it closed or replaced fd 3)
CRASHED = "crashed"  # another signal: SIGSEGV, SIGABRT, SIGBUS, ... (a crash of the process)
GARBLED = "malformed"  # the report channel carried something that is not a report


@dataclass
class Outcome:
    """What came back from one job: a result, or the limit or crash that prevented one."""

    result: dict[str, Any] | None
    output: str = ""
    limit: str | None = None  # "wall time", "memory", "CPU time", "output"
    limit_value: str = ""
    crash: str = ""
    group: str = ""  # the worker's tree name: gone after the job, with every process in it
    ended: str = ""  # with no report and no limit: KILLED, FORBIDDEN, EXITED, ...
    elapsed: float = 0.0
    usage: dict[str, int] = field(default_factory=dict)


@dataclass
class Worker:
    tree: Tree
    process: asyncio.subprocess.Process
    results: asyncio.StreamReader
    versions: dict[str, str]
    results_pipe: asyncio.BaseTransport
    output: bytearray = field(default_factory=bytearray)
    output_task: asyncio.Task[None] | None = None
    output_breached: asyncio.Event = field(default_factory=asyncio.Event)


async def spawn(backend: Backend, limits: Limits, name: str) -> Worker:
    """Start a worker and wait until it is warm; a cancelled spawn leaves nothing behind."""
    starting = asyncio.ensure_future(_start(backend, limits, name))
    try:
        worker = await asyncio.shield(starting)  # process creation is never torn in half
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await close(await starting)
        raise
    try:
        ready = await asyncio.wait_for(worker.results.readline(), STARTUP_SECONDS)
        worker.versions = json.loads(ready)["versions"]
    except (TimeoutError, ValueError, KeyError) as err:
        await close(worker)
        shown = bytes(worker.output[-OUTPUT_SHOWN:]).decode(errors="replace")
        raise WorkerFailed(f"worker did not become ready ({err!r}): {shown}") from None
    except BaseException:  # cancelled while warming up (the pool is stopping)
        await close(worker)
        raise
    return worker


async def _start(backend: Backend, limits: Limits, name: str) -> Worker:
    tree = await asyncio.to_thread(backend.prepare, name, limits)
    read_fd, write_fd = os.pipe()
    try:
        argv, env = tree.command(write_fd)
        process = await asyncio.create_subprocess_exec(
            *argv, env=env, pass_fds=(write_fd,), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        tree.started(process.pid)
    except BaseException:
        os.close(read_fd)
        await asyncio.to_thread(tree.kill)
        raise
    finally:
        os.close(write_fd)
    results, results_pipe = await _reader(read_fd)
    worker = Worker(tree, process, results, {}, results_pipe)
    worker.output_task = asyncio.create_task(_drain(worker, limits.output_bytes))
    return worker


async def _reader(fd: int) -> tuple[asyncio.StreamReader, asyncio.BaseTransport]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_RESULT, loop=loop)
    pipe = os.fdopen(fd, "rb", 0)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    return reader, transport


async def _drain(worker: Worker, cap: int) -> None:
    """Read the worker's stdout+stderr to EOF; past the cap, flag a breach and discard."""
    assert worker.process.stdout is not None
    while chunk := await worker.process.stdout.read(65536):
        if worker.output_breached.is_set():
            continue  # keep draining so the pipe reaches EOF once the group is killed
        worker.output += chunk
        if len(worker.output) > cap:
            worker.output_breached.set()


async def run(worker: Worker, job: dict[str, Any], limits: Limits, wall: float) -> Outcome:
    """Hand the job over and wait for the result, a limit breach or the worker's end."""
    worker.output.clear()  # TF's start-up chatter is not the candidate's output
    await asyncio.to_thread(worker.tree.set_busy)
    began = time.monotonic()
    assert worker.process.stdin is not None
    with contextlib.suppress(ConnectionError):
        worker.process.stdin.write(json.dumps(job).encode())
        await worker.process.stdin.drain()
        worker.process.stdin.close()
    outcome = await _await_result(worker, limits, wall)
    outcome.elapsed = time.monotonic() - began
    outcome.group = worker.tree.name
    outcome.output = readable.text(bytes(worker.output[:OUTPUT_SHOWN]).decode(errors="replace"))
    if outcome.result is not None:
        return outcome  # the caller closes the worker off the response's critical path
    ran_on = False
    if outcome.limit is None:
        with contextlib.suppress(TimeoutError):  # let it finish dying: its status tells why
            await asyncio.wait_for(worker.process.wait(), REPORT_GRACE)
        ran_on = worker.process.returncode is None  # no report, yet alive: we end it
    outcome.usage = await close(worker)
    if outcome.limit is None:
        cpu = getattr(worker.process, "cpu_seconds", None)  # a forked child's, from its reaper
        _explain_death(worker.process.returncode, outcome, limits, ran_on=ran_on, cpu=cpu)
    return outcome


async def _await_result(worker: Worker, limits: Limits, wall: float) -> Outcome:
    line_task = asyncio.create_task(worker.results.readline())
    breach_task = asyncio.create_task(worker.output_breached.wait())
    watch_task = asyncio.create_task(worker.tree.watch())  # supervisor-enforced limits
    waits: list[float] = []
    done, pending = await wait_unstarved({line_task, breach_task, watch_task}, worker, wall, waits)
    for task in pending:
        task.cancel()
    if watch_task in done and line_task not in done:
        return Outcome(None, limit=watch_task.result(), limit_value=_mib(limits.memory_bytes))
    if breach_task in done:
        return Outcome(None, limit="output", limit_value=_mib(limits.output_bytes))
    if line_task not in done:
        return Outcome(None, limit="wall time", limit_value=_wall_value(wall, waits))
    try:
        line = line_task.result()
        return Outcome(readable.report(json.loads(line)) if line else None)
    except (ValueError, RecursionError):  # too large, not JSON, absurdly nested: never correct
        return Outcome(None, crash="the worker's report was too large or malformed",
                       ended=GARBLED)  # fmt: skip


async def wait_unstarved(
    tasks: set[asyncio.Task[Any]], worker: Worker, wall: float, waits: list[float] | None = None
) -> tuple[set[asyncio.Task[Any]], set[asyncio.Task[Any]]]:
    """asyncio.wait for the first task, for `wall` seconds plus the time the job's busiest
    thread waited for a CPU (starved.py), at most STRETCH times `wall` in all. Each wait read
    is appended to `waits` (the last one is shown with a wall time verdict)."""
    began = time.monotonic()
    before = await asyncio.to_thread(starved.snapshot, worker.tree.processes())
    deadline = began + wall
    while True:
        timeout = max(0.0, deadline - time.monotonic())
        done, pending = await asyncio.wait(tasks, timeout=timeout,
                                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        if done:
            return done, pending
        waited = await asyncio.to_thread(starved.waited, before, worker.tree.processes())
        if waits is not None:
            waits.append(waited)
        stretched = began + min(wall + waited, wall * starved.STRETCH)
        if stretched <= time.monotonic() + 0.05:
            return done, pending
        deadline = stretched


def _wall_value(wall: float, waits: list[float]) -> str:
    """The limit as shown: "15 s", or "15 s, not counting 21 s it waited for a CPU"."""
    if not waits or waits[-1] < 0.5:
        return f"{wall:g} s"
    return f"{wall:g} s, not counting {waits[-1]:.0f} s it waited for a CPU"


def _explain_death(
    code: int | None, outcome: Outcome, limits: Limits, *, ran_on: bool, cpu: float | None
) -> None:
    number = signal_of(code)
    killed = number == signal.SIGKILL
    out_of_cpu = number == signal.SIGXCPU or (killed and _spent_cpu(outcome, limits, cpu))
    at_ceiling = outcome.usage.get("memory_failcnt", 0) > 0  # usage reached the memory limit
    # At the ceiling the kernel reclaims the worker's own code pages over and over; that
    # reclaim is CPU time charged to it, so a growing answer can reach the CPU limit first.
    if outcome.usage.get("oom_kills", 0) or (at_ceiling and (killed or out_of_cpu)):
        outcome.limit, outcome.limit_value = "memory", _mib(limits.memory_bytes)
    elif out_of_cpu:
        outcome.limit, outcome.limit_value = "CPU time", f"{limits.cpu_seconds} s"
    elif number == signal.SIGXFSZ:  # the kernel's signal for RLIMIT_FSIZE, once reset to default
        outcome.limit, outcome.limit_value = "file size", _mib(limits.file_size)
    elif outcome.crash:
        return  # a malformed report: said already
    elif ran_on or code == REPORT_LOST:
        outcome.ended, outcome.crash = CHANNEL, f"{DIED}: its report channel was closed"
    elif number is None:
        outcome.ended, outcome.crash = EXITED, f"{DIED} (it exited with status {code})"
    else:
        name = _signal_name(number)
        outcome.ended = {int(signal.SIGKILL): KILLED, int(signal.SIGSYS): FORBIDDEN}.get(
            number, CRASHED
        )
        outcome.crash = f"{DIED} (signal {name})"


def signal_of(code: int | None) -> int | None:
    """The signal that ended the worker, or None when it exited by itself. asyncio and a
    forked child's reaper say -N; the launch chain of an exec-spawned worker (bwrap) says
    128 + N, a status the code itself cannot exit with (seccomp)."""
    if code is None or 0 <= code < 128:
        return None
    return -code if code < 0 else code - 128


def _spent_cpu(outcome: Outcome, limits: Limits, cpu: float | None) -> bool:
    """Whether a SIGKILL was the kernel's at the hard CPU limit: a forked child's reaper
    measured its CPU time; an exec-spawned worker's is judged from the wall time."""
    spent = cpu if cpu is not None else outcome.elapsed
    return spent >= limits.cpu_seconds


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def died(outcome: Outcome) -> bool:
    """The worker was killed from outside (the kernel's OOM killer, an operator): no report,
    no limit, SIGKILL. Its code cannot do that to itself, so the run says nothing about the
    answer and is run again on a fresh worker."""
    return outcome.result is None and not outcome.limit and outcome.ended == KILLED


async def close(worker: Worker) -> dict[str, int]:
    """Kill the worker's whole tree; return its counters, read before the tree goes.

    Safe to call twice (the second call finds an empty tree that is already gone)."""
    usage = await asyncio.to_thread(worker.tree.kill)
    with contextlib.suppress(ProcessLookupError):
        worker.process.kill()
    await worker.process.wait()
    # Release every pipe now, while the loop runs: the dead process gives EOF at once.
    worker.results_pipe.close()
    if worker.process.stdin is not None:
        worker.process.stdin.close()
    if worker.output_task is not None:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(worker.output_task), 1.0)
        worker.output_task.cancel()
    return usage


def _mib(value: int) -> str:
    return f"{value // (1024 * 1024)} MiB"
