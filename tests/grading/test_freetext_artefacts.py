"""The trained artefacts' loader and train command (round 9): one reader for both, and the
`python -m ... train` entry points run without runpy's double-import warning."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import app.grading.freetext as freetext
from app.config import REPO_ROOT
from app.grading.freetext.artefacts import read_artefact


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=120
    )


@pytest.mark.parametrize(
    "module", ["second_opinion", "neighbours", "tell_caps", "embedding_verdict"]
)
def test_train_entry_point_runs_without_runpy_warning(module: str) -> None:
    done = _run("-m", f"app.grading.freetext.{module}")  # no "train": usage, exit 2
    assert done.returncode == 2
    assert f"python -m app.grading.freetext.{module} train" in done.stdout
    assert "RuntimeWarning" not in done.stderr, done.stderr


def test_importing_the_package_loads_no_grader_module() -> None:
    done = _run(
        "-c",
        "import sys, app.grading.freetext; "
        "print(sorted(m for m in sys.modules if m.startswith('app.grading.freetext.')))",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", freetext.__all__)
def test_package_name_is_its_home_modules(name: str) -> None:
    home = importlib.import_module(f"app.grading.freetext.{freetext._HOMES[name]}")
    assert getattr(freetext, name) is getattr(home, name)


def test_package_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = freetext.no_such_name


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, {}),  # no file
        ("{broken", {}),
        ("[1, 2]", {}),  # JSON, but not an object
        ('{"questions": {}}', {"questions": {}}),
    ],
)
def test_read_artefact_gives_empty_unless_an_object(
    tmp_path: Path, content: str | None, expected: dict[str, object]
) -> None:
    path = tmp_path / "artefact.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert read_artefact(path) == expected
