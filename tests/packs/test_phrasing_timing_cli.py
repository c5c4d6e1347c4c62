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


# Round 18: the check's answers built from a phrasing's structure (attack_answers.py) found
# one shipped phrasing cubic in an answer's length: why-none-gradients' persistent-fixes-none
# `\bpersistent\w*(=true|\))*\W* ~ ...` (the group, `\W*` and the gap all took the ")"s of
# the code line "f(persistent" + ")" * n: n=500 1.7 s, 1,000 13.7 s, 2,000 107 s of CPU through
# grade_freetext). The lead made the group possessive and dropped `\W*` (the gap's own
# separator covers it): n=500 and 1,000 now 0.01 s. Any phrasing the check refuses is a
# failure; list one here only with its measured cost and an owner.
KNOWN_SLOW: list[tuple[str, str]] = []


# ~41 s of CPU since round 18 (answers built from each phrasing's structure): 288-296 s on
# the wall clock at load ~14 on the 2-core host, near the suite's 600 s per test.
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("folder", pack_folders(REPO_ROOT / "questions"), ids=lambda f: f.name)
def test_builtin_pack_phrasings_do_not_backtrack(folder: Path) -> None:
    report = load_pack(folder)
    assert report.pack is not None
    problems = asyncio.run(slow_phrasings(report.pack))
    known = [(name, f"phrasing {start!r}"[:-1]) for name, start in KNOWN_SLOW]
    found = [k for p in problems for k in known if f"/{k[0]}:" in p and k[1] in p]
    assert len(found) == len(problems), problems  # no other phrasing
    assert sorted(found) == sorted(known), problems  # and these until they are rewritten
