"""Round 36's churn benchmark (benchmarks/freetext_learned_churn.py; docs/freetext-rounds.md
"Round 36: learned parts that flip between retrains (engineer K4)"): a part is swapped alone,
and a move is counted toward the label, away from it, or across."""

from __future__ import annotations

import dataclasses

from app.grading.freetext import chain
from benchmarks.freetext_learned_churn import PARTS, direction, swapped
from tests.grading.core_questions import question
from tests.grading.test_freetext_round19_chain import QID, TAG, _row


def test_a_part_is_swapped_alone() -> None:
    rows = [_row("a", n) for n in range(6)]
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    few, many = chain.learn(rows[:1], prepared), chain.learn(rows, prepared)
    mixed = swapped(few, many, "tell caps")
    assert all(getattr(mixed, f) == getattr(many, f) for f in PARTS["tell caps"])
    assert mixed.index is few.index and mixed.models == few.models


def test_a_move_is_toward_away_or_across() -> None:
    labelled = _row("a", 0, label="partial")  # names TAG, labelled with it
    graded = {v: dataclasses.replace(labelled, verdict=v) for v in ("correct", "partial")}
    assert direction(labelled, graded["correct"], graded["partial"]) == "toward"
    assert direction(labelled, graded["partial"], graded["correct"]) == "away"
    wrong = _row("a", 0, label="incorrect")
    assert direction(wrong, graded["correct"], graded["partial"]) == "across"
    untagged = dataclasses.replace(graded["partial"], named_tags=())
    assert direction(labelled, untagged, graded["partial"]) == "toward"  # TAG now named
    assert TAG in labelled.expected_tags
