"""scripts/labelling/tune_gradings.py: work meant to grade nothing differently compares every
tune answer's whole grading; the comparison names each answer that differs and the parts."""

from __future__ import annotations

from typing import Any

from tests.grading.benchmark_scripts import load_script


def _script():  # type: ignore[no-untyped-def]
    return load_script("scripts/labelling/tune_gradings.py", "tune_gradings")


def _graded(verdict: str, caps: dict[str, str] | None = None) -> dict[str, Any]:
    return {"verdict": verdict, "score": 0.5, "details": {"caps": caps or {}}}


def test_differing_names_each_answer_and_the_parts_that_moved() -> None:
    before = {"a": _graded("partial"), "b": _graded("correct"), "c": _graded("partial")}
    now = {"a": _graded("partial"), "b": _graded("correct", {"t": "partial"}), "d": _graded("x")}
    assert _script().differing(before, now) == [
        ("b", ["details"]),
        ("c", ["graded in one reading only"]),
        ("d", ["graded in one reading only"]),
    ]
