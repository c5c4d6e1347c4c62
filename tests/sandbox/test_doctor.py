"""`tapequiz doctor`: each failing row's fix matches the cause it found, not the check's usual
one. The host is simulated (no bwrap on PATH, root or not, which cgroup controllers exist);
no sandbox starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.grading.sandbox import doctor
from app.grading.sandbox.backends import cgroup1


def rows(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The doctor's output as {row label: its text up to the next row}."""
    monkeypatch.setattr(doctor.backends, "choose", lambda wanted, uid_base: (None, {}))
    lines: list[str] = []
    doctor.run("auto", 60000, out=lines.append)
    return {label: next((x for x in lines if label in x), "") for label, _, _ in doctor.CHECKS}


def as_root(monkeypatch: pytest.MonkeyPatch, *, root: bool) -> None:
    monkeypatch.setattr(doctor.os, "geteuid", lambda: 0 if root else 1000)


def test_doctor_without_bubblewrap_does_not_blame_user_namespaces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(doctor.shutil, "which", lambda name: None)
    monkeypatch.setattr(doctor.checks.shutil, "which", lambda name: None)

    row = rows(monkeypatch)["user namespaces (a bwrap sandbox starts as this user)"]

    assert "not checked: bubblewrap is not installed" in row
    assert "fix: sudo apt-get install -y bubblewrap" in row
    assert "sysctl" not in row


def test_doctor_as_root_on_a_hybrid_host_needs_no_cgroup_v2_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    as_root(monkeypatch, root=True)
    monkeypatch.setattr(doctor.cgroup2, "unified_mount", lambda: Path("/sys/fs/cgroup/unified"))
    monkeypatch.setattr(doctor.cgroup2, "controllers", lambda path: set())
    monkeypatch.setattr(doctor.cgroups, "available", lambda: True)

    row = rows(monkeypatch)["cgroup v2 with memory and pids for this user"]

    assert "offers no memory or pids controller" in row
    assert "fix: none needed: cgroup v1 is used" in row
    assert "root, or" not in row and "systemd-run" not in row


def test_doctor_as_root_without_v1_or_v2_controllers_points_at_cgroup_v2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    as_root(monkeypatch, root=True)
    monkeypatch.setattr(doctor.cgroup2, "unified_mount", lambda: Path("/sys/fs/cgroup"))
    monkeypatch.setattr(doctor.cgroup2, "controllers", lambda path: {"pids"})
    monkeypatch.setattr(doctor.cgroups, "available", lambda: False)

    row = rows(monkeypatch)["cgroup v2 with memory and pids for this user"]

    assert "offers no memory controller" in row
    assert "fix: boot with systemd.unified_cgroup_hierarchy=1" in row


def test_doctor_as_a_user_without_delegation_suggests_systemd_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    as_root(monkeypatch, root=False)
    monkeypatch.setattr(doctor.cgroup2, "unified_mount", lambda: tmp_path)
    monkeypatch.setattr(doctor.cgroup2, "own_cgroup", lambda: "/user.slice")
    monkeypatch.setattr(doctor.cgroup2, "controllers", lambda path: {"memory", "pids"})
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)

    row = rows(monkeypatch)["cgroup v2 with memory and pids for this user"]

    assert "is not delegated to this user" in row
    assert "fix: start tapequiz under `systemd-run --user --scope -p Delegate=yes`" in row


def test_doctor_as_root_with_read_only_cgroup_v1_does_not_say_run_as_root(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    as_root(monkeypatch, root=True)
    (tmp_path / "memory").mkdir()
    monkeypatch.setattr(doctor.cgroups, "ROOT", tmp_path)
    monkeypatch.setattr(doctor.cgroups, "available", lambda: False)

    row = rows(monkeypatch)["cgroup v1 (memory, pids) writable"]

    assert "not writable, even by root" in row
    assert "fix: mount them read-write" in row


def test_a_host_without_pidfds_is_named_by_the_doctor_and_cgroup1_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def denied(pid: int) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(doctor.checks.os, "pidfd_open", denied)

    row = rows(monkeypatch)["pidfds (every backend signals through them)"]

    assert "no    pidfds" in row and "Linux 5.3 or later" in row
    with pytest.raises(doctor.checks.Unavailable, match="no pidfds"):
        doctor.checks.pidfds()
    # cgroup1 as root, on a host whose other checks pass: refused for pidfds alone
    monkeypatch.setattr(cgroup1.checks, "root_tools", lambda: None)
    monkeypatch.setattr(cgroup1.checks, "bubblewrap", lambda: None)
    monkeypatch.setattr(cgroup1.checks, "seccomp_module", lambda: None)
    monkeypatch.setattr(cgroup1.cgroups, "available", lambda: True)
    with pytest.raises(doctor.checks.Unavailable, match="no pidfds"):
        cgroup1.probe(uid_base=60000)


def test_this_host_gives_pidfds() -> None:
    doctor.checks.pidfds()  # the rootless suites rely on it here
