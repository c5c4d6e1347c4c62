"""The chain's caps step reads a row's core from `chain.Prepared`, round 46 (docs/freetext-rounds.md
"Round 46: incorrect answers graded partial (engineer K6)"): `chain.row_caps` and `recapped` take
the row's `tell_caps.required_core` / `no_required_core` where the caller holds them (the chain's
`up_to_second_opinion` passes the prepared values: a learned tell replaces a row's verdict and
tags, never its evidence), and read them from the row's evidence otherwise, as before."""

from __future__ import annotations

from app.grading.freetext import chain
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

TAG = "big-models-gain-most"
QUESTION = "tf-function-speedup"


def _row(found: set[str]) -> Row:
    evidence = Evidence(frozenset(found), 1 / 3, ("partial",), False)
    return Row(
        QUESTION, "w", "tune", "incorrect", "partial", (TAG,), (TAG,), 0.0, "", "s", evidence
    )


def _learned() -> chain.Learned:
    partial = {(QUESTION, TAG): {"cap": "partial"}}
    sure = {QUESTION: {"answers": 9, "incorrect": 9, "cap": "incorrect"}}
    return chain.Learned(None, partial, {}, {}, {}, nothing=sure)  # type: ignore[arg-type]


def test_row_caps_reads_the_core_it_is_given() -> None:
    rubric = question(QUESTION).rubric
    with_required = _row({"compiles-graph", "python-overhead"})
    assert chain.row_caps(with_required, rubric, _learned(), False)[TAG] == "partial"
    given = chain.row_caps(with_required, rubric, _learned(), False, required=False, nothing=True)
    assert given[TAG] == "incorrect"


def test_recapped_without_the_core_reads_it_from_the_evidence() -> None:
    rubric = question(QUESTION).rubric
    nothing_required = _row({"compiles-graph"})
    assert chain.recapped(nothing_required, rubric, _learned(), False).verdict == "incorrect"
    kept = chain.recapped(nothing_required, rubric, _learned(), False, nothing=False)
    assert kept.verdict == "partial"
