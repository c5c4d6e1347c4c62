"""Round 50 (engineer G3): the precision and support bars of benchmarks/freetext_role_synonyms.py,
fixed before any reading - a synonym kept at 80% precision on 5 training answers, dropped at 79% or
on 4 answers - and the round-49 reading's fold, on made-up rows."""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.benchmark_scripts import load_benchmark

frs = load_benchmark("freetext_role_synonyms.py", "freetext_role_synonyms")

TAG = "tape-accumulates"
SLOT = (r"(zero|reset)\w*", "obliterate")
EVIDENCE = Evidence(frozenset({"x"}), 0.5, (), False)
ROUNDS = {"a": "final_r1", "b": "final_r2"}


def _row(source: str, *, tags: tuple[str, ...] = (TAG,), label: str = "partial",
         persona: str = "z", verdict: str = "partial") -> Row:  # fmt: skip
    return Row("gradient-accumulation", persona, "tune", label, verdict, tags, (), 0.0, "text",
               source, EVIDENCE)  # fmt: skip


def _completed(right: int, wrong: int) -> tuple[list[Row], object]:
    """Near-misses in two rounds; the slot completes TAG on `right` answers labelled with it and
    on `wrong` answers labelled with another tag or correct."""
    seen = [_row("m1", persona="a"), _row("m2", persona="b")]
    hits = [_row(f"r{i}") for i in range(right)]
    misses = [
        _row(f"w{i}", tags=("other",) if i % 2 else (), label="partial" if i % 2 else "correct")
        for i in range(wrong)
    ]
    rows = [*seen, *hits, *misses]
    found = frs.Found(
        {"m1": {(TAG, SLOT)}, "m2": {(TAG, SLOT)}},
        {r.source: {(TAG, SLOT)} for r in [*hits, *misses]},
    )
    return rows, found


@pytest.mark.parametrize(
    ("right", "wrong", "kept"),
    [
        (4, 1, True),  # 80% on 5 answers: kept
        (8, 2, True),  # 80% on 10
        (15, 4, False),  # 79% (15 / 19): dropped
        (3, 1, False),  # 75% on 4
        (4, 0, False),  # 100% on 4 answers: too few
    ],
)
def test_bars_keep_80_percent_on_five_answers(right: int, wrong: int, kept: bool) -> None:
    rows, found = _completed(right, wrong)
    got = frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.BARS)
    assert got == ({SLOT: 2} if kept else {})


def test_precision_replaces_none_on_correct() -> None:
    rows, found = _completed(4, 1)  # the one wrong completion is on a correct answer
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.G2_BARS) == {}
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.BARS) == {SLOT: 2}


def test_strict_bars_want_90_percent_on_eight() -> None:
    rows, found = _completed(8, 1)  # 89%
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.STRICT_BARS) == {}
    rows, found = _completed(9, 1)  # 90% on 10
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.STRICT_BARS) == {SLOT: 2}
    rows, found = _completed(7, 0)  # 7 answers
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.STRICT_BARS) == {}


def test_bars_count_training_answers_only() -> None:
    rows, found = _completed(5, 0)
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: True, frs.BARS) == {SLOT: 2}
    # the fold's own answers lend no support
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: r.source != "r0", frs.BARS) == {}
    # and the rounds are still counted on training answers' near-misses
    assert frs.kept_slots(rows, found, ROUNDS, lambda r: r.source != "m2", frs.BARS) == {}


def test_precision_is_per_completed_tag() -> None:
    rows, found = _completed(5, 0)
    found.completed["r0"] = {(TAG, SLOT), ("other", SLOT)}
    fires, right, answers = frs.slot_precision(rows, found, lambda r: True, {SLOT})
    assert (fires[SLOT], right[SLOT], answers[SLOT]) == (6, 5, 5)


def test_round49_fold_holds_its_four_writers() -> None:
    assert frs.held_by_r49(_row("x", persona="airflow-pipeline-engineer"))
    assert not frs.held_by_r49(_row("x", persona="a"))


def test_moved_counts_lowered_and_exact() -> None:
    before = [_row("1", verdict="correct", label="correct"), _row("2", label="incorrect")]
    after = [_row("1", verdict="partial", label="correct"),
             _row("2", verdict="incorrect", label="incorrect")]  # fmt: skip
    assert frs.moved(before, after) == (2, 1, 1, 1)


def test_where_it_acts_leaves_out_named_tags_and_the_answers_it_was_learned_from() -> None:
    rows = [
        _row("learned"),  # its own near-miss gave the slot: right by construction
        _row("elsewhere", tags=("other",)),  # a wrong tag elsewhere
        _row("named", tags=(TAG,)),  # the rules named the tag already
        _row("graded-correct", verdict="correct"),  # `below` does not read it
        _row("not-trained"),
    ]
    rows[2] = dataclasses.replace(rows[2], named_tags=(TAG,))
    found = frs.Found({"learned": {(TAG, SLOT)}}, {r.source: {(TAG, SLOT)} for r in rows})
    train = lambda r: r.source != "not-trained"  # noqa: E731
    assert frs.where_it_acts(rows, found, train, {SLOT: 2}) == (2, 1, 1, 0)
    assert frs.where_it_acts(rows, found, train, {}) == (0, 0, 0, 0)
