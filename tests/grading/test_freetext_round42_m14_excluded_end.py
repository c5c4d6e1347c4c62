"""Round 42 of issue 14 (engineer M14): an excluded role that keeps a word out says so itself
(docs/freetext-rounds.md "Round 42: an excluded role's closed end (engineer M14)").

Round 41 (M13) found `gradient-twice-same-tape`'s claim on higher-order-derivatives keeping
"differentiate" out of it only because its excluded "different" is open at the end and
"differentiate" starts with it. The claim now names the word it means to keep out, so any
reading of where an excluded role ends keeps it out.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest
import regex

from app.grading.freetext.claims import claim_parts
from tests.grading.core_questions import question


def _twice_claim_excluded() -> list[str]:
    """The excluded roles of the claim "(call|take|use|compute) gradient again/twice"."""
    (tell,) = [
        m
        for m in question("higher-order-derivatives").rubric.misconceptions
        if m.tag == "gradient-twice-same-tape"
    ]
    (claim,) = [p for p in tell.any if p.startswith("(call|take|use|compute)\\w* & gradient &")]
    return [role[1:] for role in claim_parts(claim)[1]]


@pytest.mark.parametrize(
    "word",
    [
        "differentiate",
        "differentiates",
        "differentiated",
        "differentiating",
        "differentiation",
        "differentiable",
    ],
)
def test_the_twice_claim_excludes_differentiate_as_a_whole_word(word: str) -> None:
    excluded = _twice_claim_excluded()
    assert any(regex.fullmatch(role, word, regex.IGNORECASE) for role in excluded)
