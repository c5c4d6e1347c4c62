"""Round 53 of issue 14: the hostile-shape tests read growth, not a CPU bound.

Round 52's CI failed two tests whose fixed bounds (0.5 s, 0.25 s) a busy two-core machine
exceeded on linear work. The tests now measure each shape at two lengths in the same run
(linear_time.py). Read that way, one of the shapes was not linear: `end_of_clause` searched
from each match to its clause's end, so a long clause with no punctuation and a match every
few words cost the square of its length (the "wishes" shape of round 35: 62x the cost at 8x
the length). It bisects the terminators read once per text now, with the same answers.
"""

from __future__ import annotations

import random

import pytest

from app.grading.freetext.hypotheses import supposed
from app.grading.freetext.phrasings import TERMINATOR, end_of_clause, mask
from tests.grading.linear_time import BOUND, assert_linear, growth, shape_at

_PIECES = [
    "a", "the tape", " ", "  ", ",", ";", " - ", " -- ", "->", " -> ", "=>", "-", "but", "and",
    " and you ", " and not ", "so", "unless", "instead of", "instead", "x", ".", "?", "f(a, b)",
]  # fmt: skip


def _searched(masked: str, position: int) -> int:
    term = TERMINATOR.search(masked, position)
    return term.start() if term else len(masked)


@pytest.mark.parametrize("seed", range(4))
def test_the_clause_ends_where_a_search_from_the_position_ends_it(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        masked = mask("".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 30))))
        for position in range(len(masked) + 1):
            assert end_of_clause(masked, position) == _searched(masked, position), (
                masked,
                position,
            )


def test_a_terminator_inside_one_the_scan_took_ends_the_clause() -> None:
    masked = "a - - b"  # the scan takes " - " at 1; a search from 3 finds " - " at 3
    assert (end_of_clause(masked, 2), end_of_clause(masked, 3)) == (3, 3)


def test_matches_through_a_long_unpunctuated_wish_are_read_in_linear_time() -> None:
    text = ("if you want the gradients summed you want them to accumulate " * 160)[:10_000]

    def read(text: str) -> None:
        masked = mask(text)
        for start in range(0, len(masked), 50):
            supposed(masked, start, min(len(masked), start + 40))

    assert_linear(read, text)


def _quadratic(text: str) -> None:
    for position in range(0, len(text), 10):
        text.count("x", position)  # a rescan to the end from each position


def test_the_growth_check_tells_quadratic_work_from_linear_work() -> None:
    text = "word " * 8_000
    assert growth(_quadratic, text) > BOUND
    assert growth(lambda text: text.count("x"), text * 40) < BOUND
    with pytest.raises(AssertionError, match="the cost at 8x the length"):
        assert_linear(_quadratic, text)


def test_a_shape_keeps_its_head_and_its_tail() -> None:
    text = "if you don't call " + "a." * 4_990 + "b the"
    short = shape_at(text, 100)
    assert (
        len(short) == 100 and short.startswith("if you don't call a.") and short.endswith("b the")
    )
    assert shape_at(text, 20_000) == text
