"""A claim doubted aloud and then taken back (round 40, engineer M12; retraction.py).

"X, and then you assign them yourself. I think you still call set_weights or something? Hmm,
no, actually I've never written that. It updates them in place." The "no" answers the hedged
question, which goes on with X; round 30's reach took back the question only, so X stayed
stated (C24's reading in round 39: nervous-self-corrector's correct answer was named
`apply-returns-new-weights`). A hedge put as a question now takes the claim before it back
with it. Statements written for this file, read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.retraction import withdraw
from tests.grading.core_questions import tells_by_rules

DOUBTED = [
    "tape.gradient computes the gradients, and apply_gradients returns the new weights, and then you assign them yourself. I think you still call model.set_weights or something? Hmm, no, actually I've never written that. It updates them in place.",
    "apply_gradients returns the updated weights and you copy them back. Maybe with assign or something? No, wait, it changes the variables in place.",
]


@pytest.mark.parametrize("answer", DOUBTED)
def test_a_claim_doubted_aloud_and_taken_back_names_no_tell(answer: str) -> None:
    assert tells_by_rules("gradient-vs-apply", answer) == []


@pytest.mark.parametrize(
    ("sentences", "kept"),
    [
        # the hedged question goes with the claim before it
        (
            ["A is B, and you do C.", "I think you still do D or something?", "Hmm, no, E."],
            ["", "", "E."],
        ),
        # past a sentence of hesitation (round 30)
        (["A is B.", "Hmm.", "Maybe D?", "Hmm, no, E."], ["", "", "", "E."]),
        # only the last stretch, from its last ";"
        (["A is B; C is D.", "I think D?", "Hmm, no, E."], ["A is B;", "", "E."]),
        # a question not hedged takes back only itself (round 35)
        (["A is B.", "C is D, right?", "No, it is E."], ["A is B.", "", "it is E."]),
        (["A is B.", "Is C D?", "Hmm, no, E."], ["A is B.", "", "E."]),
        # a hedge that is no question is withdrawn alone, as before
        (["A is B.", "I think C is D.", "Hmm, no, E."], ["A is B.", "", "E."]),
        # the sentence before is a question itself: nothing more is taken back
        (["Is A B?", "I think so?", "Hmm, no, E."], ["Is A B?", "", "E."]),
    ],
)
def test_the_reach_of_a_doubted_claim(sentences: list[str], kept: list[str]) -> None:
    assert withdraw(sentences) == kept
