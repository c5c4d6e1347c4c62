"""Round 40 of issue 14 (engineer B2): the partial line on the concept side. Counted by cause
over every tune persona (rules alone), the three concept-side cells were mostly labelling
splits on one concept set and tells; of the phrasings written for the causes, one gained on
answers nobody read: higher-order-derivatives' `outer-records-inner` read in "the ops of the
first derivative land on / end up on the outer tape". Statements written for this file, in
words of their own (docs/freetext-rounds.md "Round 40: the partial line on the concept side
(engineer B2)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    verdict_and_concepts_by_rules,
)

QUESTION = "higher-order-derivatives"


def rules_reading(text: str) -> tuple[str, set[str]]:
    return verdict_and_concepts_by_rules(QUESTION, text)


NOW_CREDITED = [
    "Nest two tapes and take the inner gradient inside the outer block; its ops end up on the outer tape, so outer.gradient(dy_dx, x) is the second derivative.",
    "Put one tape inside another and call the inner tape's gradient inside the outer block. The operations behind that first derivative go onto the outer tape, so the outer tape's gradient of it is the second derivative.",
]  # fmt: skip

NOT_CREDITED = [
    # denied
    "The ops of the first derivative do not land on the outer tape. Nest two tapes and take the inner gradient inside the outer block, then outer.gradient(dy_dx, x).",
    # another tape named
    "Nest two tapes; the inner gradient's ops land on the inner tape and nowhere else.",
]  # fmt: skip

NOT_RAISED = [
    # two tapes one after the other (a misconception) stays below correct
    "Use two tapes one after the other: the first gives dy/dx, the second one watches dy/dx and its ops end up on the outer tape.",
    # the claim alone, without the order, stays partial
    "Nest the tapes and call outer.gradient. Ops land on the outer tape.",
]  # fmt: skip

KEYWORD_LISTS = [
    "ops, land, outer tape, nested tapes, outer.gradient, inner gradient, operations, end up",
    "ops land on outer tape nested tapes outer.gradient inner gradient",
]  # fmt: skip


@pytest.mark.parametrize("text", NOW_CREDITED)
def test_the_ops_landing_on_the_outer_tape_credit_the_mechanism(text: str) -> None:
    verdict, found = rules_reading(text)
    assert "outer-records-inner" in found
    assert verdict == "correct"


@pytest.mark.parametrize("text", NOT_CREDITED)
def test_a_denial_or_another_tape_credits_nothing(text: str) -> None:
    assert "outer-records-inner" not in rules_reading(text)[1]


@pytest.mark.parametrize("text", NOT_RAISED)
def test_the_claim_raises_no_incomplete_answer_to_correct(text: str) -> None:
    assert rules_reading(text)[0] == "partial"


@pytest.mark.parametrize("text", KEYWORD_LISTS)
def test_its_words_as_a_keyword_list_earn_nothing(text: str) -> None:
    assert rules_reading(text)[0] == "incorrect"


PUMPED = [
    "ops " * 1500,
    "the ops land on the " * 400,
    "operations end up on the outer " * 300,
    "ops ops land land on on outer outer tape tape " * 200,
]


def test_round40_b2_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_under("Round 40 (engineer B2)", [QUESTION])
    assert len(patterns) == 1
    assert_linear_on(patterns, PUMPED)
