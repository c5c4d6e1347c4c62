"""The cgroup2 backend against the kernel's unified hierarchy, as far as this host allows.

This CI host is cgroup v1 for memory, pids and cpu; its unified hierarchy (mounted beside v1)
offers only the controllers v1 left free (hugetlb here). So these tests run the real kernel
for what does not depend on memory/pids: enabling a controller through
`cgroup.subtree_control`, the no-internal-processes rule, moving processes, `cgroup.kill` of
a whole tree, `cgroup.events`, delegation to an ordinary user, and a real worker started,
graded and killed in a cgroup2 leaf. What needs the memory and pids controllers
(`memory.max`, `memory.swap.max`, `pids.max`, `cpu.weight`, `memory.events`) is checked
against the kernel's documented file formats only (Documentation/admin-guide/cgroup-v2.rst).
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.code.workers import close, run, spawn
from app.grading.sandbox import launcher
from app.grading.sandbox.backends import Unavailable, cgroup2
from app.grading.sandbox.launcher import MIB, Limits

MOUNT = cgroup2.unified_mount()
needs_root_v2 = pytest.mark.skipif(
    os.geteuid() != 0 or MOUNT is None, reason="needs root and a cgroup2 mount"
)


def test_unified_mount_is_read_from_the_mount_table(tmp_path: Path) -> None:
    table = tmp_path / "mounts"
    table.write_text(
        "cgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n"
        "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nsdelegate 0 0\n"
    )
    assert cgroup2.unified_mount(table) == Path("/sys/fs/cgroup/unified")
    table.write_text("proc /proc proc rw 0 0\n")
    assert cgroup2.unified_mount(table) is None


def test_own_cgroup_is_the_v2_line(tmp_path: Path) -> None:
    listing = tmp_path / "cgroup"
    listing.write_text("4:memory:/x\n0::/user.slice/app.scope\n")
    assert cgroup2.own_cgroup(listing) == "/user.slice/app.scope"


def test_limits_are_written_in_the_kernels_formats(tmp_path: Path) -> None:
    for name in ("memory.max", "memory.swap.max", "pids.max", "cpu.weight"):
        (tmp_path / name).write_text("max\n" if name != "cpu.weight" else "100\n")
    cgroup2.write_limits(tmp_path, Limits(memory_bytes=1024 * MIB, pids=64), cgroup2.ORDERED)
    written = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert written == {"memory.max": "1073741824", "memory.swap.max": "0", "pids.max": "64",
                       "cpu.weight": str(cgroup2.IDLE_WEIGHT)}  # fmt: skip
    assert 1 <= cgroup2.IDLE_WEIGHT < cgroup2.BUSY_WEIGHT == 100 <= 10000  # range, default


def test_usage_names_the_oom_kill_and_pids_breaches(tmp_path: Path) -> None:
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\n")
    (tmp_path / "pids.events").write_text("max 5\n")
    (tmp_path / "memory.peak").write_text("123\n")
    assert cgroup2.usage(tmp_path) == {"oom_kills": 2, "memory_failcnt": 12, "pids_max_hits": 5,
                                      "memory_max_usage": 123}  # fmt: skip


@pytest.fixture
def scratch() -> Iterator[Path]:
    assert MOUNT is not None
    path = MOUNT / f"tapequiz-test-{os.getpid()}"
    enabled = (MOUNT / "cgroup.subtree_control").read_text().split()
    path.mkdir()
    yield path
    for leaf in sorted(path.rglob("*"), key=lambda p: -len(p.parts)):
        if leaf.is_dir():
            cgroup2.kill(leaf, timeout=2.0)
            cgroup2.remove(leaf)
    cgroup2.remove(path)
    for name in set((MOUNT / "cgroup.subtree_control").read_text().split()) - set(enabled):
        (MOUNT / "cgroup.subtree_control").write_text(f"-{name}")  # leave the host as it was


def _start_in(leaf: Path, argv: list[str]) -> subprocess.Popen[bytes]:
    prefix, env = launcher.joining_chain(groups=[leaf])
    return subprocess.Popen([*prefix, *argv], env=env)


def _wait_for(leaf: Path, count: int) -> list[int]:
    for _ in range(400):
        if len(pids := cgroup2.processes(leaf)) >= count:
            return pids
        subprocess.run(["sleep", "0.01"], check=True)
    return cgroup2.processes(leaf)


@needs_root_v2
def test_enabled_controller_reaches_children_and_inner_nodes_refuse_processes(
    scratch: Path,
) -> None:
    offered = sorted(cgroup2.controllers(scratch.parent))
    if not offered:
        pytest.skip("this unified hierarchy offers no controller at all")
    cgroup2.enable(scratch.parent, offered)  # a controller reaches a child only via its parent
    assert set(offered) <= cgroup2.controllers(scratch)
    cgroup2.make_dir(scratch, offered)
    leaf = scratch / "leaf"
    leaf.mkdir()
    assert set(offered) <= cgroup2.controllers(leaf)
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        with pytest.raises(OSError) as refused:  # "no internal processes"
            (scratch / "cgroup.procs").write_text(str(sleeper.pid))
        assert refused.value.errno == errno.EBUSY
        (leaf / "cgroup.procs").write_text(str(sleeper.pid))
        assert cgroup2.processes(leaf) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()


@needs_root_v2
def test_cgroup_kill_takes_down_the_whole_tree(scratch: Path) -> None:
    leaf = scratch / "leaf"
    leaf.mkdir()
    tree = _start_in(leaf, ["/bin/sh", "-c", "sleep 300 & sleep 300 & wait"])
    pids = _wait_for(leaf, 3)
    assert tree.pid in pids and len(pids) == 3
    assert cgroup2.populated(leaf)
    assert Path(f"/proc/{pids[-1]}/cgroup").read_text().strip().endswith(f"/{scratch.name}/leaf")
    cgroup2.kill(leaf)
    assert not cgroup2.populated(leaf) and cgroup2.processes(leaf) == []
    assert tree.wait(timeout=5) == -9
    cgroup2.remove(leaf)
    assert not leaf.exists()


@needs_root_v2
def test_delegated_subtree_lets_its_user_move_processes_but_not_out(scratch: Path) -> None:
    user = "nobody"
    for name in ("", "cgroup.procs", "cgroup.subtree_control", "cgroup.threads"):
        shutil.chown(scratch / name, user)  # what systemd's Delegate=yes does
    (scratch / "a").mkdir()
    script = (
        f"echo $$ > {scratch}/a/cgroup.procs; exec setpriv --reuid={user} --regid=nogroup "
        "--clear-groups -- /bin/sh -c '"
        f"mkdir {scratch}/b && echo $$ > {scratch}/b/cgroup.procs && cat /proc/self/cgroup; "
        f"echo $$ > {MOUNT}/cgroup.procs 2>/dev/null && echo escaped || echo refused'"
    )
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, timeout=10)
    assert (scratch / "b").stat().st_uid != 0  # the user made its own child group
    assert f"0::/{scratch.name}/b" in done.stdout and done.stdout.strip().endswith("refused")


@needs_root_v2
@pytest.mark.sandbox
def test_real_worker_grades_and_dies_in_a_cgroup2_leaf(scratch: Path, tmp_path: Path) -> None:
    names = tuple(sorted(cgroup2.controllers(scratch.parent)))
    cgroup2.enable(scratch.parent, names)
    backend = cgroup2.Cgroup2(cgroup2.make_dir(scratch, names), names, uid_base=60900)
    question = yaml.safe_load((REPO_ROOT / "questions/gradient-tape/train-step.yaml").read_text())
    job = {"contract": "train-step", "sources": [{"name": "c", "code": question["reference"]}]}

    async def once() -> tuple[dict[str, object] | None, list[int], list[int]]:
        worker = await spawn(backend, Limits(), "w1")
        inside = worker.tree.processes()
        outcome = await run(worker, job, Limits(), 60.0)
        await close(worker)
        return outcome.result, inside, worker.tree.processes()

    result, inside, after = asyncio.run(once())
    assert result is not None and "runs" in result, result
    assert len(inside) >= 2 and after == []  # the chain's bwrap and the worker; none left
    assert not (scratch / "w1").exists()


def test_probe_names_what_this_host_lacks() -> None:
    if MOUNT is None or {"memory", "pids"} <= cgroup2.controllers(MOUNT):
        pytest.skip("this host's cgroup2 offers memory and pids: nothing is missing")
    if os.geteuid() != 0:
        pytest.skip("as an ordinary user the probe stops at delegation first")
    with pytest.raises(Unavailable, match="does not offer memory and pids"):
        cgroup2.probe(uid_base=60000)
