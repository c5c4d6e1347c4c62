"""`make run` / `make test` on a new machine: the interpreter is checked before anything is
built, a .venv built with another Python is not reused, and the Debian packages come before
the virtualenv (so a missing python3-venv is named by scripts/install-system-deps first)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from app.config import REPO_ROOT


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(REPO_ROOT), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def fake_python(folder: Path, version: str) -> Path:
    """An interpreter that only says its version, as the check asks it."""
    folder.mkdir(parents=True, exist_ok=True)
    python = folder / "python"
    python.write_text(f"#!/bin/sh\necho {version}\n")
    python.chmod(0o755)
    return python


def test_make_refuses_another_python_before_building(tmp_path: Path) -> None:
    python = fake_python(tmp_path / "py312", "3.12")

    done = make("setup", f"PYTHON={python}", f"VENV={tmp_path / 'venv'}")

    assert done.returncode != 0
    assert f"tapequiz needs Python 3.11; make found Python 3.12 at {python}" in done.stderr
    assert "PYTHON=/usr/bin/python3.11 make run" in done.stderr
    assert not (tmp_path / "venv").exists()
    assert "install-system-deps" not in done.stdout


def test_make_names_a_missing_interpreter(tmp_path: Path) -> None:
    done = make("python-check", "PYTHON=python3-nowhere", f"VENV={tmp_path / 'venv'}")

    assert done.returncode != 0
    assert "no interpreter called 'python3-nowhere' was found" in done.stderr


def test_make_removes_a_venv_built_with_another_python(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    fake_python(venv / "bin", "3.12")
    (venv / ".installed").touch()
    python = fake_python(tmp_path / "py311", "3.11")

    done = make("python-check", f"PYTHON={python}", f"VENV={venv}")

    assert done.returncode == 0, done.stderr
    assert not venv.exists()
    assert f"removing {venv}: it was built with Python 3.12, not 3.11" in done.stderr


def test_make_keeps_a_venv_built_with_the_right_python(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    fake_python(venv / "bin", "3.11")
    python = fake_python(tmp_path / "py311", "3.11")

    done = make("python-check", f"PYTHON={python}", f"VENV={venv}")

    assert done.returncode == 0, done.stderr
    assert (venv / "bin" / "python").exists()


def test_make_setup_installs_system_packages_before_the_venv_with_one_python(
    tmp_path: Path,
) -> None:
    venv = tmp_path / "venv"

    steps = make("-n", "setup", "PYTHON=/usr/bin/python3.11", f"VENV={venv}").stdout.splitlines()

    order = [
        next(i for i, line in enumerate(steps) if needle in line)
        for needle in ("scripts/check-python", "scripts/install-system-deps", "-m venv")
    ]
    assert order == sorted(order), steps
    assert f"/usr/bin/python3.11 -m venv {venv}" in steps[order[2]]


def test_check_python_needs_what_pyproject_requires() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    script = (REPO_ROOT / "scripts" / "check-python").read_text()

    need = re.search(r"^need=(\S+)$", script, re.M)

    assert need is not None
    assert pyproject["project"]["requires-python"] == f">={need[1]},<3.12"
