"""Round 41 of issue 14 (engineer M13): what any reading of an excluded role's end must keep
(docs/freetext-rounds.md "Round 41: matcher causes left by round 40 (engineer M13)").

Rounds 35, 39 and 40 tried to close the end of a claim's excluded role (`!(...)`) and each
lost on personas nobody read; round 41 measured one more reading (closed before a letter,
past an ending a stem takes, open after a non-letter) and dropped it too: it keeps every
case below, but "!(different)" then no longer keeps "differentiate" out, and a claim reads
answers the open end kept out by accident. These are the cases the open end gets right and a
later reading of the end must still get right.

Round 42 (engineer M14) closed the end (claims.EXCLUDED_END: the word, its inflections, its
compounds in -most / -ward(s); open after a non-letter, "_" or a digit) once that claim named
"differentiate" itself; every case below still holds, and
tests/grading/test_freetext_round42_m14_excluded_end.py pins what the closed end lets in.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.normalise import normalise

CLAIM = "(tape) & (records?) & !({})"


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        # a word going on with "_" or a digit is an identifier of the role's word
        ("The tape records the ops of inner_tape.", "inner"),
        ("The tape records what outer2 computed.", "outer"),
        # stems as rubric authors write them: an inflection of the stem is the same word
        ("The tape records the ops on smaller models.", "small"),
        ("The tape records the ops on GPUs.", "gpu"),
        ("The tape records the ops when run eagerly.", "eager"),
        # a role ending on a non-letter ends where it ends
        ("The tape records jacobian(y, x) calls.", "jacobian\\("),
        ("It records p.grad and the tape records ops.", "\\.grad"),
    ],
)
def test_an_excluded_role_keeps_its_open_end_cases_out(text: str, excluded: str) -> None:
    assert not find_phrasings(normalise(text).units, [CLAIM.format(excluded)])


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        # round 35: an excluded role starts at a word's start
        ("To be honest, the tape records the ops.", "nest"),
        ("The tape records the ops you adjust.", "just"),
    ],
)
def test_an_excluded_role_still_starts_at_a_word_start(text: str, excluded: str) -> None:
    assert find_phrasings(normalise(text).units, [CLAIM.format(excluded)])
