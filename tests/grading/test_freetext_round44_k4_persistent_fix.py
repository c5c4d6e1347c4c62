"""persistent-tape's fix weighs most, round 44 (docs/freetext-rounds.md "Round 44: where the
incorrect line falls (engineer K4)"): the prompt asks why the second call fails and how to get
both gradients; an answer that only explains the error, with a wrong belief beside it, is
labelled incorrect (13 of 13 over tune), and at weight 1 the explanation alone cleared the
partial line. `persistent-true` weighs 2: the explanation alone is below partial, the fix alone
stays partial, the three required parts are correct."""

from __future__ import annotations

import pytest

from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers)
EXPLAINED_WITH_A_BELIEF = (
    "A default tape releases its recording after the first gradient() call, so the second call "
    "fails. A persistent tape is free, it costs no extra memory."
)
EXPLAINED_ONLY = (
    "A default tape releases its recording after the first gradient() call, so the second call "
    "has nothing left to differentiate."
)
FIX_ONLY = "Create the tape with tf.GradientTape(persistent=True) and call gradient twice."
COMPLETE = (
    "A default tape releases its recording after the first gradient() call. Create it with "
    "tf.GradientTape(persistent=True) instead, and del the tape when you are done."
)


def _rules(text: str) -> tuple[str, list[str]]:
    result = grade_freetext(
        question("persistent-tape"), text, second_opinion=False, neighbours=False, tell_caps=False
    )
    return result.verdict, result.misconceptions


def test_the_error_explained_beside_a_wrong_belief_is_incorrect() -> None:
    assert _rules(EXPLAINED_WITH_A_BELIEF) == ("incorrect", ["persistent-is-free"])


@pytest.mark.parametrize(
    ("text", "verdict"),
    [(EXPLAINED_ONLY, "incorrect"), (FIX_ONLY, "partial"), (COMPLETE, "correct")],
)
def test_the_fix_weighs_most(text: str, verdict: str) -> None:
    assert _rules(text) == (verdict, [])


def test_the_fix_weighs_two() -> None:
    concepts = {c.id: c for c in question("persistent-tape").rubric.concepts}
    assert concepts["persistent-true"].weight == 2
    assert sum(c.weight for c in concepts.values()) == 4.5
