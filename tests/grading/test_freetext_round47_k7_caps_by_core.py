"""`benchmarks/freetext_caps_by_core.py` reads a row's core from `chain.Prepared`, round 47
(docs/freetext-rounds.md "Round 47: partial answers graded correct (engineer K7)"): its `current`
caps and what each per-question cap moves pass `chain.row_caps` / `recapped` the row's
`required_core` / `no_required_core` as prepared, as the chain's `up_to_second_opinion` has since
round 46, instead of recomputing them from the row's evidence. Its rows are the rules' rows, so
the values and the benchmark's output are the same; a `Prepared` that says otherwise than the
evidence shows which one is read."""

from __future__ import annotations

from typing import Any

import pytest

from app.grading.freetext import chain
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from benchmarks import freetext_caps_by_core as caps_by_core
from tests.grading.core_questions import question

TAG = "big-models-gain-most"
QUESTION = "tf-function-speedup"


def _row() -> Row:
    """A row whose evidence credits the question's required core (not `no_required_core`)."""
    evidence = Evidence(
        frozenset({"compiles-graph", "python-overhead"}), 1 / 3, ("partial",), False
    )
    return Row(
        QUESTION, "w", "tune", "incorrect", "partial", (TAG,), (TAG,), 0.0, "", "s", evidence
    )


def _caps(nothing: str | None = "incorrect") -> dict[str, Any]:
    """`chain.learn_caps`'s caps: the tag `partial`; tells with no required concept `nothing`."""
    sure = {QUESTION: {"answers": 9, "incorrect": 9, "cap": nothing}} if nothing else {}
    none: dict[str, Any] = {}
    partial = {(QUESTION, TAG): {"cap": "partial"}}
    return {"caps": partial, "beside": none, "required": none, "bare": none, "together": none,
            "nothing": sure}  # fmt: skip


def _learned(nothing: str | None = "incorrect") -> chain.Learned:
    return chain.Learned(None, models={}, classifier={}, **_caps(nothing))  # type: ignore[arg-type]


def _prepared(row: Row, *, nothing: bool) -> chain.Prepared:
    """What the chain prepared of `row`: no required concept where `nothing`."""
    rubrics = {QUESTION: question(QUESTION).rubric}
    key = id(row)
    return chain.Prepared(
        rubrics, {}, {}, {key: False}, required={key: not nothing}, nothing={key: nothing}
    )


@pytest.mark.parametrize(("nothing", "cap"), [(True, "incorrect"), (False, "partial")])
def test_current_caps_read_the_prepared_core(
    monkeypatch: pytest.MonkeyPatch, nothing: bool, cap: str
) -> None:
    row = _row()
    monkeypatch.setattr(chain, "learn_caps", lambda train, prepared: _caps())
    caps = caps_by_core.learn_current([], _prepared(row, nothing=nothing))
    assert caps(row)[TAG] == cap


def test_what_a_per_question_cap_moves_reads_the_prepared_core() -> None:
    row = _row()
    prepared = _prepared(row, nothing=True)
    moved = caps_by_core.moved_labels([row], _learned(), _learned(None), prepared)
    assert moved == {"incorrect": 1}
    assert not caps_by_core.moved_labels(
        [row], _learned(), _learned(None), _prepared(row, nothing=False)
    )
