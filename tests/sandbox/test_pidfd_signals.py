"""A backend signals a process it did not just spawn only through a pidfd it checked.

The rootless backend pauses warming and idle workers (SIGSTOP, then SIGCONT) by walking a
tree's children, and cgroup v1 kills the pids its `cgroup.procs` lists. Between reading a pid
and signalling it, the process may end and the kernel may give its number to an unrelated one.
These tests force that reuse: inside a pid namespace of their own (`unshare`, as root of its
user namespace), where writing `ns_last_pid` makes the next process take a chosen number, or
by handing the backend the listing it would have read just before the death.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from app.config import REPO_ROOT
from app.grading.code import zygotes
from app.grading.sandbox import cgroups, uids
from app.grading.sandbox.backends import Tree, cgroup1, cgroup2, processes, rootless
from app.grading.sandbox.launcher import Limits

pytestmark = pytest.mark.rootless  # the pid-reuse cases matter most as a real non-root user

UNSHARE = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"]

# Runs as pid 1 of its own pid namespace: every process it starts dies with it.
PRELUDE = """
import subprocess, time
from app.grading.sandbox.backends import processes, rootless
from app.grading.sandbox.launcher import Limits

def state(pid):
    for _ in range(50):  # a signal arrives asynchronously: give a stop 0.5 s to show
        now = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        if now == "T":
            break
        time.sleep(0.01)
    return now

def reuse(pid):
    # The next process this namespace starts gets `pid` (root of the owning user namespace
    # may set the counter: it is how checkpoint/restore tools recreate pids).
    with open("/proc/sys/kernel/ns_last_pid", "w") as counter:
        counter.write(str(pid - 1))

backend = rootless.Rootless()
idle, busy = backend.prepare("idle", Limits()), backend.prepare("busy", Limits())
"""

# The warming worker's tree noted its root; the root died (a failed start, before the pool
# closed its tree) and an unrelated process took its number. A job then starts elsewhere.
DEAD_ROOT = """
worker = subprocess.Popen(["sleep", "60"])
idle.started(worker.pid)
worker.kill()
worker.wait()
reuse(worker.pid)
stranger = subprocess.Popen(["sleep", "60"])
assert stranger.pid == worker.pid, (stranger.pid, worker.pid)
backend.busy(busy)
print(state(stranger.pid))
"""

# The walk read the root's children; one of them then died, its parent reaped it and an
# unrelated process took its number before the SIGSTOP went out.
DEAD_CHILD = """
root = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"])
for _ in range(500):
    if len(listed := processes.children(root.pid)) == 2:
        break
    time.sleep(0.01)
idle.started(root.pid)
gone, kept = listed
subprocess.run(["kill", "-9", str(gone)])
for _ in range(500):
    if gone not in processes.children(root.pid):
        break
    time.sleep(0.01)
reuse(gone)
stranger = subprocess.Popen(["sleep", "60"])
assert stranger.pid == gone, (stranger.pid, gone)
real, stale = processes.children, [list(listed)]
processes.children = lambda pid: stale.pop() if pid == root.pid and stale else real(pid)
backend.busy(busy)
processes.children = real
print(state(stranger.pid), state(kept))
"""


# A zygote's child ended (its zygote reaps it at once) and an unrelated process took its number
# before the pool adopted it by that number; the pool's handle, opened and checked when the
# child was found, still names the child.
ADOPTED = """
child = subprocess.Popen(["sleep", "60"])
handle = processes.pidfd(child.pid)
child.kill()
child.wait()
reuse(child.pid)
stranger = subprocess.Popen(["sleep", "60"])
assert stranger.pid == child.pid, (stranger.pid, child.pid)
idle.adopt(child.pid, handle)
backend.busy(busy)
paused = state(stranger.pid)
idle.kill()
time.sleep(0.2)
print(paused, state(stranger.pid))
"""


def _in_own_pid_namespace(script: str) -> str:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1)")
    done = subprocess.run(
        [*UNSHARE, sys.executable, "-c", textwrap.dedent(PRELUDE + script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    if "ns_last_pid" in done.stderr or (done.returncode and "unshare:" in done.stderr):
        pytest.skip(f"cannot choose pids in a pid namespace here: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_pause_spares_a_process_that_took_a_dead_roots_pid() -> None:
    assert _in_own_pid_namespace(DEAD_ROOT) != "T"


def test_pause_spares_a_process_that_took_a_dead_childs_pid_and_stops_the_rest() -> None:
    stranger, kept = _in_own_pid_namespace(DEAD_CHILD).split()
    assert stranger != "T"
    assert kept == "T"  # the walk went on: the tree's live child is paused


def test_an_adopted_child_is_signalled_through_its_handle_never_by_its_number() -> None:
    paused, after_kill = _in_own_pid_namespace(ADOPTED).split()
    assert paused != "T" and after_kill not in ("T", "Z")


@pytest.mark.parametrize("backend", ["cgroup1", "cgroup2"])
def test_a_cgroup_refuses_a_child_that_ended_before_its_adoption(
    backend: str, tmp_path: Path
) -> None:
    child = subprocess.Popen(["sleep", "60"])
    handle = processes.pidfd(child.pid)
    child.kill()
    child.wait()  # its number is free: what was written may have named someone else
    if backend == "cgroup1":
        claim = uids.UidClaim(60000, -1)
        tree: Tree = cgroup1.Cgroup1Tree("t", cgroups.Group({"memory": tmp_path}), claim, Limits())
    else:
        tree = cgroup2.Cgroup2Tree("t", tmp_path, Limits(), (), None)
    try:
        with pytest.raises(ProcessLookupError):
            tree.adopt(child.pid, handle)
        assert (tmp_path / "cgroup.procs").read_text() == str(child.pid)
    finally:
        os.close(handle)


def test_find_child_hands_over_a_handle_on_the_child_it_found() -> None:
    parent = subprocess.Popen(["sh", "-c", "sleep 60 & wait"])
    try:
        for _ in range(500):
            if listed := processes.children(parent.pid):
                break
            time.sleep(0.01)
        pid, handle = zygotes._find_child(parent.pid, listed[0])  # host namespace: inner = pid
        try:
            assert pid == listed[0] and not processes.exited(handle)
            assert os.get_inheritable(handle) is False
            assert processes.send(handle, signal.SIGKILL)
            for _ in range(500):
                if processes.exited(handle):
                    break
                time.sleep(0.01)
            assert processes.exited(handle)  # the handle names that very process
        finally:
            os.close(handle)
    finally:
        parent.kill()
        parent.wait()


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_cgroup_kill_spares_a_listed_pid_that_left_the_group(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A member was listed, then died; its number went to a process outside the group.
    stranger = subprocess.Popen(["sleep", "60"])
    try:
        listings = [[stranger.pid], [], []]  # the loop's listing, the check's, the loop's
        monkeypatch.setattr(cgroups.Group, "procs", lambda _: listings.pop(0) if listings else [])
        cgroups.kill(cgroups.Group({"memory": tmp_path}), timeout=1.0, remove=False)
        time.sleep(0.1)
        assert stranger.poll() is None and _state(stranger.pid) != "Z"
    finally:
        stranger.kill()
        stranger.wait()


def test_cgroup_kill_still_kills_what_the_group_lists(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    member = subprocess.Popen(["sleep", "60"])
    try:
        monkeypatch.setattr(
            cgroups.Group, "procs", lambda self: [member.pid] if member.poll() is None else []
        )
        cgroups.kill(cgroups.Group({"memory": tmp_path}), timeout=5.0, remove=False)
        assert member.wait(5) == -signal.SIGKILL
    finally:
        member.kill()
        member.wait()


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_pauses_samples_and_kills_leave_no_descriptor_and_lend_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every pidfd the helper opens is close-on-exec: record them while a tree is walked.
    opened: list[int] = []
    real_open = os.pidfd_open

    def recording(pid: int, flags: int = 0) -> int:
        fd = real_open(pid, flags)
        opened.append(fd)
        assert os.get_inheritable(fd) is False
        return fd

    monkeypatch.setattr(processes.os, "pidfd_open", recording)
    before = _open_fds()
    backend = rootless.Rootless()
    for number in range(30):
        idle, busy = backend.prepare(f"idle{number}", Limits()), backend.prepare("b", Limits())
        root = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"])
        sleeps: list[int] = []
        try:
            for _ in range(500):
                if len(sleeps := processes.children(root.pid)) == 2:
                    break
                time.sleep(0.01)
            idle.started(root.pid)
            backend.busy(busy)  # pauses the idle tree
            assert idle.used() > 0
            backend.gone(busy)  # continues it
            idle.kill()
            busy.kill()
        finally:
            for pid in sleeps:  # the test's own children's children: no pid reuse here
                os.kill(pid, signal.SIGKILL)
            root.kill()
            root.wait()
    assert opened and _open_fds() == before and not backend.live and not backend.stuck


def test_an_adopting_tree_keeps_a_close_on_exec_copy_of_the_handle_and_lets_it_go() -> None:
    before = _open_fds()
    tree = rootless.Rootless().prepare("adopted", Limits())
    child = subprocess.Popen(["sleep", "60"])
    try:
        handle = processes.pidfd(child.pid)
        tree.adopt(child.pid, handle)
        os.close(handle)  # the caller's: the tree holds its own
        assert tree.root_fd >= 0 and os.get_inheritable(tree.root_fd) is False
        tree.kill()
        assert child.wait(5) == -signal.SIGKILL
        assert _open_fds() == before
    finally:
        child.kill()
        child.wait()
