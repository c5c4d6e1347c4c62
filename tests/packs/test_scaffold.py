"""`tapequiz packs new`: the scaffold validates, refuses bad names and existing folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.grading.freetext import grade_freetext
from app.packs.loader import load_pack
from app.packs.scaffold import ScaffoldError, scaffold_pack
from app.packs.schema import FreeText


def test_scaffold_creates_pack_that_validates(tmp_path: Path) -> None:
    report = load_pack(scaffold_pack(tmp_path, "tape-basics"))
    assert report.problems == []
    assert report.pack is not None and report.pack.meta.id == "tape-basics"


def test_scaffold_prefixes_question_ids_with_pack_name(tmp_path: Path) -> None:
    report = load_pack(scaffold_pack(tmp_path, "cs101"))
    assert report.pack is not None
    assert all(q.question.id.startswith("cs101-") for q in report.pack.questions)


def test_scaffold_free_text_samples_agree_with_grader(tmp_path: Path) -> None:
    report = load_pack(scaffold_pack(tmp_path, "tape-basics"))
    assert report.pack is not None
    questions = [q.question for q in report.pack.questions if isinstance(q.question, FreeText)]
    graded = [
        (grade_freetext(q, s.answer).verdict, s.verdict) for q in questions for s in q.samples
    ]
    assert graded and all(got == want for got, want in graded)


@pytest.mark.parametrize("name", ["Tape", "-tape", "tape_basics", "a" * 41, "", "../x"])
def test_scaffold_refuses_invalid_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(ScaffoldError):
        scaffold_pack(tmp_path, name)


def test_scaffold_refuses_existing_folder(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(ScaffoldError, match="already exists"):
        scaffold_pack(tmp_path, "taken")


def test_cli_packs_new_writes_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["packs", "new", "my-pack", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "my-pack" / "pack.yaml").is_file()
    assert "packs test" in capsys.readouterr().out


def test_cli_packs_new_exits_2_on_bad_name(tmp_path: Path) -> None:
    assert main(["packs", "new", "Bad Name", "--dir", str(tmp_path)]) == 2


def test_example_pack_from_guide_validates() -> None:
    report = load_pack(Path(__file__).resolve().parents[2] / "docs" / "example-pack")
    assert report.problems == []
