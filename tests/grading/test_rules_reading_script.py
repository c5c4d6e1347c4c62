"""scripts/labelling/rules_reading.py: the round engineers' tune-side reading prints its
figures and cells from graded rows (the grading itself is evaluation.grade_rows, tested
elsewhere)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from app.grading.freetext.evaluation import Row

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "labelling" / "rules_reading.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rules_reading", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
