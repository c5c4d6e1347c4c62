"""Evaluation by persona: labelled persona files, the tag map, sides and the figures."""

# ruff: noqa: E501 - tables of answers read best one per line

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.freetext.evaluation import (
    Row,
    Sides,
    figures,
    grade_rows,
    load_persona_answers,
    load_sides,
    load_tag_map,
)
from app.packs.loader import Pack, load_pack

LABELLED = Path(__file__).parent / "freetext_labelled"
TUNE_EXACT_FLOOR = 0.92  # the four blind tune sets measured 93.3% (336/360) when last tuned
TUNE_BINARY_FLOOR = 0.95  # measured 96.4% (347/360)


@cache
def core_pack() -> Pack:
    loaded = load_pack(REPO_ROOT / "questions" / "gradient-tape")
    assert loaded.pack is not None, loaded.problems
    return loaded.pack


def write_persona(folder: Path, persona: str, answers: list[dict[str, object]]) -> Path:
    path = folder / f"{persona}.yaml"
    data = {"persona": persona, "labeller": "t", "new_tags": {}, "answers": answers}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def row(
    label: str, verdict: str, expected: tuple[str, ...] = (), named: tuple[str, ...] = ()
) -> Row:
    return Row("q", "p", "tune", label, verdict, expected, named, 1.0, "", "")


def test_load_persona_answers_gives_each_answer_its_file_persona(tmp_path: Path) -> None:
    answer = {"question": "no-zero-grad", "verdict": "correct", "misconceptions": [], "answer": "x"}
    write_persona(tmp_path, "terse-expert", [answer])
    answers, problems = load_persona_answers(tmp_path)
    assert problems == [] and [(a.persona, a.split) for a in answers] == [
        ("terse-expert", "terse-expert")
    ]


def test_load_tag_map_maps_globally_and_per_question(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text("a: b\nc: {q1: d}\ne: null\n", encoding="utf-8")
    tags = load_tag_map(path)
    assert [tags.rubric_tags("q1", t) for t in ("a", "c", "e", "z")] == [("b",), ("d",), (), ("z",)]
    assert tags.rubric_tags("q2", "c") == ("c",)


def test_sides_hold_out_every_persona_not_listed_for_tuning(tmp_path: Path) -> None:
    path = tmp_path / "sides.yaml"
    path.write_text("tune: [a]\ndev_heldout: [b]\n", encoding="utf-8")
    sides = load_sides(path)
    assert [sides.side(p) for p in ("a", "b", "final")] == ["tune", "held-out (dev)", "held-out"]


def test_figures_count_named_tells_and_false_tells_on_correct_answers() -> None:
    rows = [
        row("correct", "correct"),
        row("correct", "partial", named=("x",)),
        row("incorrect", "incorrect", expected=("x", "y"), named=("x",)),
    ]
    found = figures(rows)
    assert (found.exact, found.binary, found.tags_expected, found.tags_named) == (2, 2, 2, 1)
    assert (found.correct_labelled, found.false_tells_on_correct) == (2, 1)


def test_grade_rows_maps_labeller_tags_before_comparing(tmp_path: Path) -> None:
    answer = {
        "question": "no-zero-grad", "verdict": "incorrect", "misconceptions": ["zeroing-needed"],
        "answer": "Call optimizer.zero_grad() at the start of every step, before the tape.",
    }  # fmt: skip
    write_persona(tmp_path, "p", [answer])
    (tmp_path / "map.yaml").write_text("zeroing-needed: needs-zero-grad\n", encoding="utf-8")
    answers, _ = load_persona_answers(tmp_path / "p.yaml")
    sides = Sides(frozenset(), frozenset())
    rows, problems = grade_rows(
        core_pack(), answers, tag_map=load_tag_map(tmp_path / "map.yaml"), sides=sides
    )
    assert (
        problems == [] and rows[0].expected_tags == ("needs-zero-grad",) and rows[0].tags_named == 1
    )


ROUND_ONE = ("terse-expert", "pytorch-first", "confidently-wrong", "rambling-but-right")
ROUND_TWO = ("jax-first", "myth-buster")


@pytest.mark.parametrize("persona", ROUND_ONE + ROUND_TWO)
def test_blind_tune_sets_are_in_the_repo_with_ninety_answers(persona: str) -> None:
    data = yaml.safe_load((LABELLED / "personas" / f"{persona}.yaml").read_text(encoding="utf-8"))
    assert data["persona"] == persona and len(data["answers"]) == 90


def test_grader_keeps_its_agreement_on_the_blind_tune_sets() -> None:
    sides = load_sides(LABELLED / "meta" / "sides.yaml")
    answers, problems = load_persona_answers(LABELLED / "personas")
    tune = [a for a in answers if sides.side(a.persona) == "tune" and a.persona in ROUND_ONE]
    rows, _ = grade_rows(
        core_pack(), tune, tag_map=load_tag_map(LABELLED / "meta" / "tag-map.yaml"), sides=sides
    )
    found = figures(rows)
    assert problems == [] and found.total == 360
    assert (
        found.exact / found.total >= TUNE_EXACT_FLOOR
        and found.binary / found.total >= TUNE_BINARY_FLOOR
    )


def test_benchmark_runs_on_any_folder_of_labelled_files(tmp_path: Path) -> None:
    answer = {
        "question": "why-none-gradients",
        "verdict": "partial",
        "misconceptions": [],
        "answer": "Put the loss inside the with block.",
    }
    write_persona(tmp_path, "final-persona", [answer])
    run = subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / "freetext.py"), "--labelled", str(tmp_path), "--repeat", "1"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert "held-out                       n=1    exact 100.0% (1/1)" in run.stdout
