"""Round 47 of issue 14 (engineer W5): a gap that crosses none of some words, ` ~!(since|because) `
(docs/freetext-rounds.md "Round 47: round 46's false tells (engineer W5)").

Round 46 spelled `app.packs.rubric.GAP_REGEX` out by hand in higher-order-derivatives'
`must-watch-variables` to bar "since" and "because" from its gaps, a copy that would drift if the
gap ever changed. The barred gap is built from the gap's own parts: the same expression as
round 46's, the same reading of every answer."""

from __future__ import annotations

import re
import time

import pytest

from app.grading.freetext.learned_evidence import loosened
from app.grading.freetext.lexicon import widen
from app.grading.freetext.misses import phrasing_roles
from app.packs.rubric import GAP_REGEX, barred_gap, expand_phrasing
from tests.grading.core_questions import misconception_of, tells_by_rules

HOD, MUST_WATCH = "higher-order-derivatives", "must-watch-variables"
# Round 46's phrasing as it was written, its gaps spelled out by hand.
ROUND46 = (
    r"\b(tf\.)?variables?\b(?:[^\w\n.]+(?!(?:since|because)\b)[\w.]+){0,8}?[^\w\n.]+"
    r"\b(watched|tracked|auto-?watched)\b(?:[^\w\n.]+(?!(?:since|because)\b)[\w.]+){0,8}?"
    r"[^\w\n.]+\b(automatically|by default|on their own|by (the )?(nested|inner|outer) tapes?)\b"
)


def barred_phrasing() -> str:
    (found,) = [p for p in misconception_of(HOD, MUST_WATCH).negated if "~!(since|because)" in p]
    return found


def test_the_gap_is_what_it_was() -> None:
    assert GAP_REGEX == r"(?:[^\w\n.]+[\w.]+){0,8}?[^\w\n.]+"


def test_a_barred_gap_is_round_46s_hand_spelled_gap() -> None:
    spelled = r"(?:[^\w\n.]+(?!(?:since|because)\b)[\w.]+){0,8}?[^\w\n.]+"
    assert barred_gap("since|because") == spelled


def test_must_watch_variables_reads_as_round_46_wrote_it() -> None:
    phrasing = barred_phrasing()
    assert expand_phrasing(phrasing) == ROUND46
    assert expand_phrasing(widen(phrasing)) == expand_phrasing(widen(ROUND46))
    assert loosened(phrasing) == [phrasing]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("the tape records them so it updates weights", True),
        ("the tape records them because it updates weights", False),
        ("the tape records them since it updates weights", False),
        ("the tape records sincerely and updates weights", True),  # a whole word is barred
    ],
)
def test_a_barred_gap_crosses_no_barred_word(text: str, found: bool) -> None:
    pattern = re.compile(expand_phrasing("tape ~!(since|because) updates"), re.IGNORECASE)
    assert (pattern.search(text) is not None) is found


def test_widening_reads_a_barred_gap_as_a_gap() -> None:
    """The lexicon widens the words after a barred gap as after a plain one, and leaves the
    bar as written."""
    plain, barred = "tape ~ (recorded|tracked)", "tape ~!(since|because) (recorded|tracked)"
    assert widen(plain) != plain
    assert widen(barred) == widen(plain).replace("~", "~!(since|because)")


def test_the_miss_diagnosis_splits_a_barred_gap_as_a_gap() -> None:
    """`misses` (benchmarks/freetext.py --miss-causes) reads each role between a phrasing's
    gaps; a barred gap is a gap there too, not an excluded role ("!(...)") hiding the next."""
    assert len(phrasing_roles("tape ~!(since|because) (recorded|tracked) ~ automatically")) == 3
    assert len(phrasing_roles(barred_phrasing())) == 3


@pytest.mark.parametrize(
    "text",
    [
        "Variables are not watched automatically, since the nested tapes need tape.watch.",
        "The tf.Variable is not tracked by default by the inner tape.",
    ],
)
def test_variables_said_unwatched_are_still_named(text: str) -> None:
    assert MUST_WATCH in tells_by_rules(HOD, text)


def test_a_reason_clause_still_ends_the_gap() -> None:
    text = (
        "If x is a tensor rather than a variable, it has to be watched on both tapes, because"
        " tensors are not watched automatically."
    )
    assert MUST_WATCH not in tells_by_rules(HOD, text)


@pytest.mark.parametrize("unit", ["variables since watched because ", "variables watched x "])
def test_a_barred_gap_is_searched_in_linear_time(unit: str) -> None:
    text = (unit * (40_000 // len(unit) + 1))[:40_000]
    pattern = re.compile(expand_phrasing(barred_phrasing()), re.IGNORECASE)
    started = time.thread_time()
    pattern.search(text)
    assert time.thread_time() - started < 0.25
