"""The "neither ... nor" mask reads what it read before, in one pass (round 39).

`phrasings.mask` blanks the "neither" of "neither X nor Y" (one denial with its "nor"). It was
`\\bneither\\b(?:[^.;:!?]|\\.(?=\\w))*?\\bnor\\b` with `sub`: from each "neither" a lazy scan
to the first "nor", failing at a sentence stop - quadratic in a run of "neither" with no "nor"
(round 38's audit: 5,000 characters 53 ms, bounded then only by the 500-character sentence
cut). It is one pass over the marks now; these tests hold it to the old pattern's output on
strings built from every mark it reads, and to linear time.
"""

from __future__ import annotations

import random
import re

import pytest

from app.grading.freetext import phrasings
from tests.grading.linear_time import assert_linear

_OLD = re.compile(r"\bneither\b(?:[^.;:!?]|\.(?=\w))*?\bnor\b", re.IGNORECASE)
_PIECES = [
    "neither", "Neither", "NEITHER", "nor", "NOR", "Nor", "norm", "xnor", "neithers", "ignore",
    " ", " ", " ", "\n", "x", "the tape", ".", ". ", ".x", ".nor", ";", ":", "!", "?", ",",
    "_", "-", "(", ")", "\u0130", "\u00e9",
]  # fmt: skip


def _old(text: str) -> str:
    return _OLD.sub(lambda m: "x" * 7 + m.group()[7:], text)


@pytest.mark.parametrize(
    "text",
    [
        "the tape is neither persistent nor free",
        "Neither the tape nor the optimizer. Neither this",
        "neither a neither b nor c nor d",
        "neither x.nor y",
        "neither x. nor y",
        "neither here; nor there, neither this nor",
        "neither_nor neither nor",
        "",
    ],
)
def test_neither_is_blanked_as_the_old_scan_blanked_it(text: str) -> None:
    assert phrasings.neither_joined_to_nor(text) == _old(text)


def test_neither_is_blanked_as_before_on_random_strings_of_its_marks() -> None:
    rng = random.Random(39)
    for _ in range(3_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
        assert phrasings.neither_joined_to_nor(text) == _old(text), text


def test_a_long_run_of_neither_without_nor_is_read_in_linear_time() -> None:
    text = "neither x " * 5_000  # 50,000 characters: the old scan ~5 s of CPU
    assert_linear(phrasings.mask, text)
