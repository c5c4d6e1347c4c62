"""The tune/held split shared by the rounds' written statements (rounds 12-14).

Each round's engineer wrote true and wrong statements before changing anything and split
every question's list by position: even positions are the tune half (read while fixing),
odd positions the held half (run only at the round's start and end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def true_halves(true: Mapping[str, Sequence[str]], *, held: bool) -> list[tuple[str, str]]:
    """(question id, statement) pairs of one half of the true statements."""
    return [(qid, text) for qid, texts in true.items() for text in texts[int(held) :: 2]]


def wrong_halves(
    wrong: Mapping[str, Sequence[tuple[str, str]]], *, held: bool
) -> list[tuple[str, str, str]]:
    """(question id, statement, expected tag) triples of one half of the wrong statements."""
    return [(qid, text, tag) for qid, pairs in wrong.items() for text, tag in pairs[int(held) :: 2]]
