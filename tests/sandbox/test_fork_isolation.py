"""The fork server's isolation: a forked child cannot reach its zygote, a sibling or the next child.

Each case is a `train_step` that attacks from inside a child the zygote forked and reports what
it could see and do (as the message of a ValueError, which reaches the feedback); the test then
checks the other side from the host: the zygote and the other ready workers are alive and
untouched, and the next child starts clean. See docs/sandbox.md, "The fork server".
"""

from __future__ import annotations

import ast
import errno
import os
from dataclasses import replace
from pathlib import Path
from string import Template
from typing import Any

import pytest

from app.grading.code import zygotes
from tests.sandbox.conftest import SandboxGrader, load_question

pytestmark = pytest.mark.sandbox
STEP = """
import ctypes, errno, json, os, signal, sys, threading, time, mmap
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
$body
    raise ValueError(repr(report))
"""

# Signal 0 probes a pid exactly as a kill would reach it (ESRCH: not in its namespace), and is
# the only signal the seccomp filter lets a step send (any other ends it: SIGNAL_EVERYTHING).
PROBE_EVERYTHING = """
    visible = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
    report = {"pid": os.getpid(), "ppid": os.getppid(), "visible": visible, "kills": {}}
    try:
        os.killpg(0, 0)
        report["killpg"] = "sent"
    except OSError as err:
        report["killpg"] = err.errno
    own = {int(t) for t in os.listdir('/proc/self/task')}  # its own threads: itself
    for pid in [os.getppid(), *range(2, 400)]:
        if pid in own or pid == 0:  # 0: its own process group (only itself, see killpg)
            continue
        try:
            os.kill(pid, 0)
            report['kills'][pid] = 'sent'
        except OSError as err:
            report['kills'][pid] = err.errno
    try:
        os.kill(-1, 0)
        report['kill_all'] = 'sent'
    except OSError as err:
        report['kill_all'] = err.errno
    report['kills'] = sorted(p for p, r in report['kills'].items() if r == 'sent')
"""
SIGNAL_EVERYTHING = """
    os.kill(-1, signal.SIGKILL)
    os.killpg(0, signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
    report = 'the step ran on after sending SIGKILL'
"""

PTRACE_AND_MEMORY = """
    libc = ctypes.CDLL(None, use_errno=True)
    report = {'attached': [], 'mem': [], 'environ': [], 'vm_read': None}
    own = {int(t) for t in os.listdir('/proc/self/task')}
    for pid in range(1, 400):
        if pid in own:
            continue
        if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
            report['attached'].append(pid)
        for name in ('mem', 'environ'):
            try:
                with open(f'/proc/{pid}/{name}', 'rb') as f:
                    f.read(1)
                report[name].append(pid)
            except OSError:
                pass
    buf = ctypes.create_string_buffer(8)
    local = (ctypes.c_void_p * 2)(ctypes.cast(buf, ctypes.c_void_p), 8)
    remote = (ctypes.c_void_p * 2)(0x400000, 8)
    libc.process_vm_readv(2, local, 1, remote, 1, 0)
    report['vm_read'] = ctypes.get_errno()
"""

SHARED_MAPPINGS = """
    report = {'shared_writable': [], 'found': []}
    for line in open('/proc/self/maps'):
        perms = line.split()[1]
        if perms[1] == 'w' and perms[3] == 's':
            report['shared_writable'].append(line.strip())
    for path in ('/tmp/tq-left-behind', '/dev/shm/tq-left-behind', '/dev/tq-left-behind'):
        if os.path.exists(path):
            report['found'].append(path)
        try:
            with open(path, 'w') as f:
                f.write('left by an earlier child')
        except OSError:
            pass
    libc = ctypes.CDLL(None, use_errno=True)
    report['shm_found'] = libc.shmget(0x7A7A, 0, 0) >= 0  # a System V segment left behind?
    report['shm_made'] = libc.shmget(0x7A7A, 4096, 0o1666) >= 0  # IPC_CREAT: leave one
    shared = mmap.mmap(-1, 4096, flags=mmap.MAP_SHARED)
    shared.write(b'mine only')
"""

LEAVE_BEHIND = """
    report = {'processes': sorted(p for p in os.listdir('/proc') if p.isdigit())}
    report['linger_file'] = os.path.exists('/tmp/tq-linger')
    def linger():
        while True:
            with open('/tmp/tq-linger', 'a') as f:
                f.write('x')
            time.sleep(0.01)
    threading.Thread(target=linger, daemon=True).start()
    libc = ctypes.CDLL(None, use_errno=True)
    report['clone'] = libc.syscall(56, 0x11, 0, 0, 0, 0)  # clone(SIGCHLD): a process
    report['clone_errno'] = ctypes.get_errno()
"""


@pytest.fixture(scope="module", autouse=True)
def reference_ready(sandbox: SandboxGrader) -> None:
    """The reference run (8 solutions in one job) once, with a wall budget a busy 2-core CI
    machine cannot miss; the session caches it, so the cases below time only the attacks."""
    grader, limits = sandbox.grader, sandbox.grader.limits
    grader.limits = replace(limits, wall_seconds=120.0)
    try:
        sandbox.reference(load_question("train-step"))
    finally:
        grader.limits = limits


def _attack(sandbox: SandboxGrader, body: str) -> dict[str, Any]:
    result = sandbox.grade(load_question("train-step"), Template(STEP).substitute(body=body))
    _LAST_GROUP[:] = [result.details["sandbox"]["group"]]  # type: ignore[index]
    assert result.verdict != "correct"
    message = result.feedback[0].message
    assert "ValueError: " in message, (result.verdict, result.feedback, result.details)
    said = message.split("ValueError: ")[1].rsplit(". [line", 1)[0]  # "...: {report}. [line 9]"
    report: dict[str, Any] = ast.literal_eval(said)
    return report


def _fork_server(sandbox: SandboxGrader) -> zygotes.ForkServer:
    forks = sandbox.grader.pool.forks
    if forks is None:
        pytest.skip("the fork server is off")
    return forks


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


_LAST_GROUP: list[str] = []  # the tree of the worker that ran the latest attack


def _ready_pids(sandbox: SandboxGrader) -> dict[str, int]:
    ready = sandbox.grader.pool.ready_workers()
    return {worker.tree.name: worker.process.pid for worker in ready}


def test_child_cannot_signal_the_zygote_or_a_sibling(sandbox: SandboxGrader) -> None:
    forks = _fork_server(sandbox)
    sandbox.loop.run(_wait_ready(sandbox, 2))  # one runs the attack, one is its sibling
    assert forks.zygote is not None
    zygote, siblings = forks.zygote, _ready_pids(sandbox)
    report = _attack(sandbox, PROBE_EVERYTHING)
    assert report["pid"] == 1 and report["ppid"] == 0  # pid 1 of its own namespace
    assert report["visible"] == [1]  # its own /proc: nothing else exists for it
    assert report["kills"] == []  # no other pid to signal
    assert report["kill_all"] == errno.ESRCH  # kill(-1): nobody else in its namespace
    assert _alive(zygote.host_pid) and zygote.process.returncode is None
    siblings = {name: pid for name, pid in siblings.items() if name not in _LAST_GROUP}
    assert siblings and all(_alive(pid) for pid in siblings.values())  # the other ready ones
    question = load_question("train-step")
    assert sandbox.grade(question, question.reference).verdict == "correct"
    assert forks.zygote is zygote  # the same zygote kept forking


def test_child_that_sends_a_signal_is_stopped_and_reaches_nobody(sandbox: SandboxGrader) -> None:
    forks = _fork_server(sandbox)
    sandbox.loop.run(_wait_ready(sandbox, 2))
    assert forks.zygote is not None
    zygote, siblings = forks.zygote, _ready_pids(sandbox)
    question = load_question("train-step")
    result = sandbox.grade(question, Template(STEP).substitute(body=SIGNAL_EVERYTHING))
    ran = result.details["sandbox"]["group"]  # type: ignore[index]
    assert (result.verdict, result.details.get("ended")) == ("incorrect", "forbidden")
    assert "tried to signal or end its own process" in result.feedback[0].message
    assert _alive(zygote.host_pid) and zygote.process.returncode is None
    assert all(_alive(pid) for name, pid in siblings.items() if name != ran)
    assert sandbox.grade(question, question.reference).verdict == "correct"


def test_child_cannot_ptrace_or_read_the_memory_of_anyone(sandbox: SandboxGrader) -> None:
    _fork_server(sandbox)
    report = _attack(sandbox, PTRACE_AND_MEMORY)
    assert report["attached"] == [] and report["mem"] == [] and report["environ"] == []
    assert report["vm_read"] == 1  # EPERM: seccomp denies process_vm_readv


def test_zygote_has_no_writable_shared_mapping_and_is_not_dumpable(
    sandbox: SandboxGrader,
) -> None:
    forks = _fork_server(sandbox)
    sandbox.loop.run(_wait_ready(sandbox, 1))
    assert forks.zygote is not None
    maps = Path(f"/proc/{forks.zygote.host_pid}/maps").read_text().splitlines()
    assert not [line for line in maps if line.split()[1][1] == "w" and line.split()[1][3] == "s"]
    status = Path(f"/proc/{forks.zygote.host_pid}/status").read_text()
    assert "\nThreads:\t1\n" in status  # TF imported, its runtime (thread pools) not started
    # non-dumpable: its /proc files belong to root (of the host), not to the sandbox uid
    assert os.stat(f"/proc/{forks.zygote.host_pid}/mem").st_uid in (0, 65534)


def test_nothing_written_by_one_child_reaches_the_next(sandbox: SandboxGrader) -> None:
    _fork_server(sandbox)
    first = _attack(sandbox, SHARED_MAPPINGS)
    second = _attack(sandbox, SHARED_MAPPINGS)
    assert first["shared_writable"] == [] and second["shared_writable"] == []
    # own /tmp and /dev/shm per child; /dev itself is read-only (round 14: it was the zygote's
    # writable tmpfs, and what one child wrote there the next one found)
    assert first["found"] == [] and second["found"] == []
    assert first["shm_made"] and not second["shm_found"]  # an ipc namespace of its own


def test_a_thread_or_process_left_behind_does_not_reach_the_next_child(
    sandbox: SandboxGrader,
) -> None:
    _fork_server(sandbox)
    first = _attack(sandbox, LEAVE_BEHIND)
    assert first["clone"] == -1 and first["clone_errno"] == 1  # seccomp: no new process
    second = _attack(sandbox, LEAVE_BEHIND)
    assert second["processes"] == ["1"]  # alone in its pid namespace
    assert not second["linger_file"]  # the first child's thread is gone with its tree


def test_zygote_is_replaced_when_it_dies_and_after_max_forks(sandbox: SandboxGrader) -> None:
    forks = _fork_server(sandbox)
    question = load_question("train-step")
    sandbox.loop.run(_wait_ready(sandbox, 1))
    assert forks.zygote is not None
    old = forks.zygote
    os.kill(old.host_pid, 9)
    sandbox.loop.run(_drain_ready(sandbox))  # ready children of the dead zygote still grade
    assert sandbox.grade(question, question.reference).verdict == "correct"
    sandbox.loop.run(_wait_ready(sandbox, 1))
    assert forks.zygote is not None and forks.zygote is not old
    current, forks.max_forks = forks.zygote, forks.zygote.forks
    try:
        assert sandbox.grade(question, question.reference).verdict == "correct"
        sandbox.loop.run(_wait_ready(sandbox, 1))
        assert forks.zygote is not current
    finally:
        forks.max_forks = sandbox.grader.pool.zygote_max_forks


def test_zygote_is_replaced_when_the_worker_code_changes(
    sandbox: SandboxGrader, monkeypatch: pytest.MonkeyPatch
) -> None:
    forks = _fork_server(sandbox)
    question = load_question("train-step")
    sandbox.loop.run(_wait_ready(sandbox, 1))
    old = forks.zygote
    monkeypatch.setattr(zygotes, "worker_code_digest", lambda: "changed")
    assert sandbox.grade(question, question.reference).verdict == "correct"
    sandbox.loop.run(_wait_ready(sandbox, 1))
    assert forks.zygote is not old and forks.zygote is not None
    assert forks.zygote.digest == "changed"


async def _wait_ready(sandbox: SandboxGrader, count: int) -> None:
    import asyncio

    for _ in range(2400):
        if len(sandbox.grader.pool.ready_workers()) >= count:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the pool did not refill")


async def _drain_ready(sandbox: SandboxGrader) -> None:
    pool = sandbox.grader.pool
    while not pool._ready.empty():
        await pool._retire(pool._ready.get_nowait())
