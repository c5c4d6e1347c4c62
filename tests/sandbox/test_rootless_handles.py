"""The rootless backend's handle on a tree: a pid namespace that died can take no one with it.

The kernel names a pid namespace by an inode number and gives a dead namespace's number to the
next one it creates. A tree that remembered its namespace by that name alone, after its worker
exited (it does, right after reporting), found the pool's next spare in "its" namespace and
SIGKILLed it (round 18's rootless CI leg). The first tests build such trees from plain
processes (`unshare`, no TensorFlow): a root whose only child is pid 1 of its own pid
namespace, as bwrap's and a forked child's reaper are. The last two grade on the real pool
(any backend): no descriptor of the supervisor's reaches a worker or stays behind.
"""

from __future__ import annotations

import ast
import asyncio
import fcntl
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from app.grading.sandbox.backends import rootless
from app.grading.sandbox.backends.processes import children, pid_namespace
from app.grading.sandbox.launcher import Limits
from tests.sandbox.conftest import SandboxGrader, load_question

ATTEMPTS = 40  # new namespaces tried, 0.1 s apart, for the dead one's number
# (the kernel frees it a little after the namespace dies: seen taken after ~1 s)


def _namespaced() -> subprocess.Popen[bytes]:
    """A root (`unshare`) whose only child is pid 1 of a new pid namespace; its init up."""
    root = subprocess.Popen(
        ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "sleep", "600"]
    )
    deadline = time.monotonic() + 10
    while not children(root.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    init = children(root.pid)
    assert init, "unshare did not start its namespace's init"
    return root


def _ends(root: subprocess.Popen[bytes]) -> None:
    """The tree's worker exits by itself: its init dies, the namespace with it, root reaped."""
    for init in children(root.pid):
        os.kill(init, signal.SIGKILL)
    root.wait(10)


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.fixture
def backend() -> rootless.Rootless:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1)")
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--pid", "--fork", "true"], capture_output=True
    )
    if probe.returncode:
        pytest.skip(f"no unprivileged pid namespaces here: {probe.stderr.decode()}")
    return rootless.Rootless()


def test_kill_after_the_namespace_died_spares_a_namespace_with_its_recycled_number(
    backend: rootless.Rootless,
) -> None:
    tree = backend.prepare("finished", Limits())
    root = _namespaced()
    tree.started(root.pid)
    tree.set_busy()  # the job starts: the namespace is noted while the worker lives
    noted = tree.namespace
    assert noted.startswith("pid:[")
    _ends(root)
    spares: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(ATTEMPTS):  # new spares until one takes the dead number, if it can
            spares.append(_namespaced())
            if pid_namespace(children(spares[-1].pid)[0]) == noted:
                break
            time.sleep(0.1)
        inits = [children(spare.pid)[0] for spare in spares]
        taken = [init for init in inits if pid_namespace(init) == noted]
        tree.kill()
        assert all(_alive(init) for init in inits)  # the kill touched no spare
        assert not taken  # the held namespace kept its number from every new one
        assert tree.processes() == []
    finally:
        for spare in spares:  # --kill-child: its init dies with it
            spare.kill()
            spare.wait(10)


def test_kill_releases_every_handle_and_none_is_inherited(backend: rootless.Rootless) -> None:
    before = _open_fds()
    for number in range(20):
        tree = backend.prepare(f"t{number}", Limits())
        root = _namespaced()
        tree.started(root.pid)
        tree.set_busy()
        for fd in (tree.root_fd, tree.namespace_fd):  # never reach a process we start
            assert fd >= 0 and fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
        if number % 2:
            _ends(root)  # the worker exited by itself first, as after reporting
        tree.kill()
        root.wait(10)
        assert tree.processes() == [] and tree.killed
    assert _open_fds() == before and not backend.stuck and not backend.live


def test_kill_still_ends_the_whole_namespace(backend: rootless.Rootless) -> None:
    tree = backend.prepare("whole", Limits())
    root = _namespaced()
    try:
        tree.started(root.pid)
        init = children(root.pid)[0]
        assert tree.processes() == sorted([root.pid, init])  # noted on first look
        tree.kill()
        assert not _alive(init) and root.wait(10) is not None
    finally:
        root.kill()
        root.wait(10)


FDS_STEP = """
import os
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    fds = {}
    for fd in os.listdir('/proc/self/fd'):
        try:
            fds[fd] = os.readlink('/proc/self/fd/' + fd)
        except OSError as err:
            fds[fd] = repr(err)
    raise ValueError(repr(fds))
"""
GRADINGS = 8


async def _pool_full(sandbox: SandboxGrader) -> None:
    pool = sandbox.grader.pool
    for _ in range(2400):
        if len(pool.ready_workers()) >= pool.size and not pool._spawning:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the pool did not refill")


@pytest.mark.sandbox
def test_a_worker_holds_no_handle_of_the_supervisor(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(load_question("train-step"), FDS_STEP)
    message = next(f.message for f in result.feedback if "ValueError: " in f.message)
    fds = ast.literal_eval(message.split("ValueError: ")[1].rsplit(". [line", 1)[0])
    assert fds and not [link for link in fds.values() if "pid" in link], fds


@pytest.mark.sandbox
def test_gradings_leave_no_descriptor_open_in_the_supervisor(sandbox: SandboxGrader) -> None:
    question = load_question("train-step")
    sandbox.loop.run(_pool_full(sandbox))
    before = len(_open_fds())
    for _ in range(GRADINGS):
        assert sandbox.grade(question, question.reference).verdict == "correct"
    sandbox.loop.run(_pool_full(sandbox))
    assert len(_open_fds()) == before
