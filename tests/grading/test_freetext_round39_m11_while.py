"""A clause that goes on from the main clause after a fronted "while" clause takes roles from
it too (round 39, claims._joined_start).

Round 33 read "When you call apply_gradients, the gradients are used, and then reset" as one
claim: a clause joined to the main clause after a fronted phrase of time takes that phrase
too. A fronted "while" clause was not read so, because "while" is a clause terminator (the
clause starts after it, so it never looked like a fronted phrase): "While the outer tape is
still open, the inner tape computes dy/dx, and it logs the backward pass" could not take
"outer" for a claim read in its last clause (the cause rounds 13-38 left as '"it" after
"while"'). Rules alone over tune: 0 answers moved (a general reading, as rounds 36-38 kept).
"""

from __future__ import annotations

import pytest

from app.grading.freetext import claims
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import tells_by_rules

_CLAIM = claims.parse_claim("outer & logs & backward")


def _read(sentence: str) -> list[tuple[str, bool]]:
    return [
        (h.snippet, h.affirmed) for h in claims.find_claim_hits(normalise(sentence).units, _CLAIM)
    ]


def test_a_clause_joined_after_a_fronted_while_clause_takes_its_roles() -> None:
    sentence = (
        "While the outer tape is still open, the inner tape computes dy/dx, "
        "and it logs the backward pass."
    )
    assert _read(sentence) == [
        ("outer tape is still open, the inner tape computes dy/dx, and it logs the backward", True)
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        # not fronted: "while" opens the second clause
        "The outer tape is still open while the inner tape computes dy/dx, "
        "and it logs the backward pass.",
        # no join: the third clause has a subject of its own
        "While the outer tape is still open, the inner tape computes dy/dx, "
        "and the model logs the backward pass.",
        # the fronted clause is not "while"
        "The outer tape is still open, the inner tape computes dy/dx, "
        "and it logs the backward pass.",
    ],
)
def test_other_clauses_take_no_roles_from_two_clauses_back(sentence: str) -> None:
    assert _read(sentence) == []


def test_a_contrast_opened_by_while_names_no_tell_of_the_other_framework() -> None:
    sentence = (
        "While PyTorch accumulates gradients into .grad, TensorFlow returns fresh ones on "
        "each call, and it never adds them up."
    )
    assert tells_by_rules("no-zero-grad", sentence) == []
