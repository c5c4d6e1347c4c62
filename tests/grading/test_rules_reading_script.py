"""scripts/labelling/rules_reading.py: the round engineers' tune-side reading prints its
figures and cells from graded rows (the grading itself is evaluation.grade_rows, tested
elsewhere)."""

from __future__ import annotations

from app.grading.freetext.evaluation import Row
from tests.grading.benchmark_scripts import load_script


def _script():  # type: ignore[no-untyped-def]
    return load_script("scripts/labelling/rules_reading.py", "rules_reading")


def _row(label: str, verdict: str, expected: tuple[str, ...], named: tuple[str, ...]) -> Row:
    return Row("q", "p", "tune", label, verdict, expected, named, 1.0, "text", f"{label}{verdict}")


def test_a_line_counts_exact_binary_named_false_tells_and_cells() -> None:
    rows = [
        _row("correct", "correct", (), ()),
        _row("correct", "partial", (), ("a-tell",)),  # a false tell on a correct answer
        _row("incorrect", "partial", ("b", "c"), ("b",)),
        _row("partial", "incorrect", (), ()),
    ]
    assert _script().line("g", rows) == "| g (4) | 1 | 3 | 1 / 2 | 1 / 2 | 1 1 0 1 0 0 |"
