"""Round 54 of issue 14 (engineer W12): one scan of a text's clause terminators.

`end_of_clause` read two cached scans of the same masked text with the same pattern (one for
the terminators' starts, one for their ends). One cached scan now returns both and serves
`start_of_clause`, `end_of_clause` and `denial_stops_at_cut`; their answers are those of a
search from the position, on random texts of terminator pieces at every position (round 53's
equivalence reading), and a run of clauses is still read in linear time.
"""

from __future__ import annotations

import random
import re

import pytest

from app.grading.freetext import phrasings
from app.grading.freetext.phrasings import (
    CUE,
    TERMINATOR,
    denial_stops_at_cut,
    end_of_clause,
    mask,
    start_of_clause,
)
from tests.grading.linear_time import assert_linear

_PIECES = [
    "a", "the tape", " ", "  ", ",", ";", " - ", " -- ", "->", " -> ", "=>", "-", "but", "and",
    " and you ", " and not ", "so", "unless", "instead of", "instead", "x", ".", "?", "f(a, b)",
    "none of the tapes", " none of", ", so", " then", " and then ",
]  # fmt: skip


def _started(masked: str, position: int, inclusive: bool) -> int:
    """The end of the last terminator ending at or before `position` (before it, when not
    inclusive), found by scanning: what `start_of_clause` answers by bisection."""
    ends = [t.end() for t in TERMINATOR.finditer(masked)]
    kept = [e for e in ends if (e <= position if inclusive else e < position)]
    return kept[-1] if kept else 0


def _stops_at_cut(masked: str, cue: re.Match[str]) -> bool:
    """Round 50's reading of a clause-bound cue with a fresh search for its clause's cut."""
    if not re.fullmatch(r"none\s+of", cue.group(), re.IGNORECASE):
        return False
    starts = [t.start() for t in TERMINATOR.finditer(masked) if t.start() >= cue.end()]
    cut = starts[0] if starts else len(masked)
    belief_cut = re.compile(r"\s*(?:;|,?\s*(?:so|then|and\s+then)\b)", re.IGNORECASE)
    return belief_cut.match(masked, cut) is not None


@pytest.mark.parametrize("seed", range(3))
def test_one_scan_answers_as_searches_do(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(400):
        masked = mask("".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 30))))
        for position in range(len(masked) + 1):
            term = TERMINATOR.search(masked, position)
            assert end_of_clause(masked, position) == (term.start() if term else len(masked))
            for inclusive in (True, False):
                assert start_of_clause(masked, position, inclusive=inclusive) == _started(
                    masked, position, inclusive
                ), (masked, position, inclusive)
        for cue in CUE.finditer(masked):
            assert denial_stops_at_cut(masked, cue) == _stops_at_cut(masked, cue), masked


class _CountingTerminator:
    """TERMINATOR with its scans of whole texts counted."""

    def __init__(self) -> None:
        self.scans = 0

    def finditer(self, text: str, *args: int) -> object:
        self.scans += 1
        return TERMINATOR.finditer(text, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(TERMINATOR, name)


def test_a_text_is_scanned_for_terminators_once(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _CountingTerminator()
    monkeypatch.setattr(phrasings, "TERMINATOR", counting)
    masked = mask("none of the w12 tapes are kept, so make them persistent; then call it")
    cue = next(CUE.finditer(masked))
    end_of_clause(masked, 3)
    start_of_clause(masked, 40)
    denial_stops_at_cut(masked, cue)
    assert counting.scans == 1


def test_a_run_of_clauses_is_read_in_linear_time() -> None:
    text = ("none of the tapes are kept, so make them persistent and then " * 200)[:10_000]

    def read(text: str) -> None:
        masked = mask(text)
        for cue in CUE.finditer(masked):
            denial_stops_at_cut(masked, cue)
        for position in range(0, len(masked), 7):
            end_of_clause(masked, position)
            start_of_clause(masked, position)

    assert_linear(read, text)
