"""Round 37's raising benchmark (benchmarks/freetext_learned_raising.py; docs/freetext-rounds.md
"Round 37: learned raises over beliefs no rubric knows (engineer K5)"): a raise withheld by a
variant lands where the second opinion would have left the partial, labelled tags the rules miss
are told apart by whether the rubric knows them, and a partial the second opinion is sure of is
counted with the condition that holds it."""

from __future__ import annotations

import math
from typing import Any

from app.grading.freetext import chain
from app.grading.freetext import second_opinion as so
from benchmarks.freetext_learned_raising import (
    VARIANTS,
    held_by,
    longer,
    margin_by_length,
    read_row,
    tag_kind,
    variant_verdict,
)
from tests.grading.core_questions import question
from tests.grading.test_freetext_round19_chain import QID, TAG, _row


def _raised(**changes: Any) -> dict[str, Any]:
    row = {
        "label": "partial",
        "pre": "partial",
        "shipped": "correct",
        "p": 0.86,
        "p_evidence": 0.75,
        "p_incorrect": 0.1,
        "may_raise": True,
        "eligible": True,
        "length": math.log1p(200) / 5,
        "expected": [],
        "rules_named": [],
        "known": [TAG],
    }
    return {**row, **changes}


def test_a_withheld_raise_is_read_by_the_incorrect_model() -> None:
    row = _raised()
    assert variant_verdict(row, VARIANTS["shipped"]) == "correct"
    assert variant_verdict(row, VARIANTS["no raise"]) == "partial"
    assert variant_verdict(_raised(p_incorrect=so.INCORRECT), VARIANTS["no raise"]) == "incorrect"
    kept = _raised(shipped="partial")  # not raised: no variant moves it
    assert all(variant_verdict(kept, keep) == "partial" for keep in VARIANTS.values())


def test_the_length_margin_reads_the_second_opinions_length() -> None:
    assert longer({"length": math.log1p(121) / 5}, 120)
    assert not longer({"length": math.log1p(120) / 5}, 120)
    keep = margin_by_length(120, 0.10)
    assert not keep(_raised(p=0.86))  # 200 words: needs 0.90
    assert keep(_raised(p=0.86, length=math.log1p(100) / 5))


def test_tags_the_rules_miss_are_known_or_not() -> None:
    assert tag_kind(_raised()) == "no tag"
    assert tag_kind(_raised(expected=[TAG])) == "known tag unnamed"
    assert tag_kind(_raised(expected=[TAG], rules_named=[TAG])) == "no tag"
    assert tag_kind(_raised(expected=[TAG, "broadcast-every-step"])) == "unknown tag"


def test_a_sure_partial_is_held_by_a_named_condition() -> None:
    assert held_by(_raised()) == "raised"
    assert held_by(_raised(p_evidence=0.5)) == "evidence floor"
    assert held_by(_raised(p_evidence=0.5, may_raise=False)) == (
        "evidence floor + required missing"
    )


def test_a_fold_reading_keeps_the_chain_before_and_after_the_second_opinion() -> None:
    rows = [_row("a", n) for n in range(6)]
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    learned = chain.learn(rows[1:], prepared)
    read = read_row(rows[0], learned, prepared)
    assert read["rules"] == rows[0].verdict and read["label"] == rows[0].label
    assert read["shipped"] == chain.graded(rows[0], learned, prepared).verdict
    assert TAG in read["known"]
