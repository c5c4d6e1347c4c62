"""Round 53 of issue 14 (engineer C53): rubric content of persistent-tape and why-none-gradients.

Item 1: round 52's guard on `persistent-is-free`'s "it holds memory" phrasing skipped any sentence
that mentions deleting the tape, so round 15's held wrong statement "... so there's no reason to
delete the tape" went unnamed; the guard now excludes only a deletion the sentence affirms. Item 3:
round 52's two false tells on correct answers on these questions, by the rules alone: "no del needed
since each one frees itself" (`persistent-is-free`, a gap across a reason clause) and "casting to
integer, argmax" as non-differentiable operations (`int-inputs-none-grads`, an operation in the loss
that does cut the path) (docs/freetext-rounds.md "Round 53: ... (engineer C53)"). Rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import assert_linear_on, question, tells_by_rules
from tests.grading.held_statements import names_the_tell

PT = "persistent-tape"
FREE = "persistent-is-free"
WN = "why-none-gradients"
INT = "int-inputs-none-grads"

# Item 1: a deletion under a denial is the belief itself (the first: round 15's held statement, a
# strict xfail since round 52's merge; each fails on 9fd7e278).
DELETION_DENIED = [
    (PT, FREE, "persistent=True costs no extra memory, so there's no reason to delete the tape."),
    (PT, FREE, "A persistent tape doesn't use any extra memory, so you don't need to delete it."),
    (PT, FREE, "A persistent tape doesn't hold memory, so you can keep it around without deleting it."),
]  # fmt: skip

test_round53_a_denied_deletion_beside_no_memory_names_persistent_is_free = names_the_tell(
    DELETION_DENIED, tells=tells_by_rules
)

# A deletion the sentence affirms still guards the phrasing (round 52's mended false tell and its
# kin); "don't forget to" affirms it.
DELETION_AFFIRMED = [
    "Use persistent=True for both calls. When you're done you should do del tape so it doesn't keep using memory.",
    "If you do go the persistent=True route instead, remember to del tape afterwards so it doesn't hold onto memory.",
    "Don't forget to del tape so it doesn't hold onto memory.",
    "Delete the persistent tape once you have both gradients, so it no longer holds memory.",
]  # fmt: skip


@pytest.mark.parametrize("text", DELETION_AFFIRMED)
def test_round53_an_affirmed_deletion_beside_no_memory_names_nothing(text: str) -> None:
    assert FREE not in tells_by_rules(PT, text)


# Item 3: round 52's false tells on correct answers (each named on 9fd7e278), and the sentences of
# three read writers labelled partial that the same cast-to-int reading named.
NOT_THE_BELIEF = [
    (PT, FREE, "or two tapes opened together around the same forward pass and each gets used once. also fine, no del needed since each one frees itself after its one call."),
    (WN, INT, "Other causes that give the same symptom, usually for only some variables, are converting intermediate tensors to NumPy inside the tape and using non-differentiable operations (casting to integer, argmax)."),
    (WN, INT, "Something in the loss isn't differentiable - argmax, cast to int, rounding, that kind of thing - so the gradient is None."),
    (WN, INT, "Usually a tf.argmax/tf.cast to int in the loss; integer tensors have no gradient so everything upstream is None."),
]  # fmt: skip


@pytest.mark.parametrize(("qid", "tag", "text"), NOT_THE_BELIEF)
def test_round53_round52s_false_tells_name_nothing(qid: str, tag: str, text: str) -> None:
    assert tag not in tells_by_rules(qid, text)


# The beliefs those phrasings exist for are still named.
STILL_NAMED = [
    (PT, FREE, "You don't need to delete a persistent tape, it's free."),
    (WN, INT, "The labels are int32, so the gradients come back None."),
    (WN, INT, "Integer inputs make every gradient None, so cast your data to float32."),
]  # fmt: skip

test_round53_the_beliefs_are_still_named = names_the_tell(STILL_NAMED, tells=tells_by_rules)


def test_round53_the_mended_phrasings_stay_linear_on_pumped_text() -> None:
    free = next(m for m in question(PT).rubric.misconceptions if m.tag == FREE)
    mended = [p for p in free.negated if "get rid" in p or "~!(since" in p]
    assert len(mended) == 2
    assert_linear_on(
        mended,
        [
            "it holds keeps memory resources no not del delete need since free tape " * 250,
            "no reason to " * 700,
        ],
    )
    ints = next(m for m in question(WN).rubric.misconceptions if m.tag == INT)
    cast = [p for p in ints.any if "argmax" in p]
    assert len(cast) == 3
    assert_linear_on(cast, ["integer inputs None so cast the data to an int argmax labels " * 250])


# Item 4: two-tapes-need-two-forwards implied by separate-gradients-impossible in an answer that
# affirms a second (separate, own) tape (each named pair fails on 9fd7e278).
TWO = "two-tapes-need-two-forwards"
SEPARATE = "separate-gradients-impossible"
IMPOSSIBLE_SO_TWO_TAPES = [
    "It is not possible to obtain two separate sets of gradients from the same forward pass. The correct procedure is to perform the forward pass twice, each inside its own tape.",
    "A tape can only ever give one gradient, so you can't get both from the same forward pass. Open a second tape for loss2 and compute it there.",
]  # fmt: skip


@pytest.mark.parametrize("text", IMPOSSIBLE_SO_TWO_TAPES)
def test_round53_two_forwards_implied_beside_two_tapes(text: str) -> None:
    assert {SEPARATE, TWO} <= set(tells_by_rules(PT, text))


NO_SECOND_TAPE = [
    "A tape can only ever give one gradient, so you can't get both from the same forward pass; recompute the loss inside the same tape.",
    "You can't get two separate gradients from one forward pass, and you don't need a second tape either: rerun the step.",
    "Open two tapes together over one forward pass and call gradient once on each.",
]  # fmt: skip


@pytest.mark.parametrize("text", NO_SECOND_TAPE)
def test_round53_two_forwards_not_implied_without_both(text: str) -> None:
    assert TWO not in tells_by_rules(PT, text)
