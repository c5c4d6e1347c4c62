"""Rubric phrasings are timed for backtracking outside publishing too (issue: the core pack is
never published, so its phrasings were never timed): `tapequiz packs validate` runs the
check, and the suite runs it over every built-in pack in questions/."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from app.cli import main as cli
from app.config import REPO_ROOT
from app.packs.catalog import pack_folders
from app.packs.loader import load_pack
from app.services.instructor.phrasing_timing import slow_phrasings
from tests.services.instructor_fakes import EXAMPLE


def test_cli_validate_refuses_a_backtracking_phrasing_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    question = folder / "ex-explain-none.yaml"
    text = question.read_text()
    first = "      any:\n        - (loss|forward pass)"
    assert first in text, "the example pack's first phrasing moved"
    line = text[: text.index(first)].count("\n") + 2
    edited = f"      any:\n        - {json.dumps('(a+)+$')}\n        - (loss|forward pass)"
    question.write_text(text.replace(first, edited, 1))
    assert cli(["packs", "validate", str(folder)]) == 1
    expected = f"ex-explain-none.yaml:{line}: phrasing '(a+)+$' took more than"
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize("folder", pack_folders(REPO_ROOT / "questions"), ids=lambda f: f.name)
def test_builtin_pack_phrasings_do_not_backtrack(folder: Path) -> None:
    report = load_pack(folder)
    assert report.pack is not None
    assert asyncio.run(slow_phrasings(report.pack)) == []
