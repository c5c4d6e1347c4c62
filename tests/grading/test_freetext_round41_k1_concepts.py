"""Round 41 of issue 14 (engineer K1): required concepts that answers labelled correct lose, on
the concept side. Of the phrasings written for the concepts counted (rules alone, all tune
personas), one gained on answers nobody read: gradient-accumulation's `add-each` read in "add
them / the tensors into a list", with what is added named so that a list of the words earns
nothing. Statements written for this file, in words of their own (docs/freetext-rounds.md
"Round 41: required concepts correct answers lose (engineer K1)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    verdict_and_concepts_by_rules,
)

QUESTION = "gradient-accumulation"


def rules_reading(text: str) -> tuple[str, set[str]]:
    return verdict_and_concepts_by_rules(QUESTION, text)


NOW_CREDITED = [
    "Run the four micro-batches one by one, a new tape for every one; take the gradients and add those tensors into a Python list that starts at zero. After the fourth, divide the list by 4, call apply_gradients once and reset the list to zeros.",
    "Give each chunk its own tape; take its gradients and add the new tensors elementwise into a list that starts as tf.zeros_like of each weight. After four chunks, scale by 1/4, apply once, zero it again.",
    "Sum the returned tensors into a list, one entry per variable.",
]  # fmt: skip

NOT_CREDITED = [
    # denied
    "You do not add the gradients into a list; you call apply_gradients after each micro-batch.",
    # nothing named as what is added
    "Add into a list and apply once.",
]  # fmt: skip

KEYWORD_LISTS = [
    "add into list, python list, added to list",
    "add added adding into to list python list list",
]  # fmt: skip


@pytest.mark.parametrize("text", NOW_CREDITED)
def test_gradients_added_into_a_list_credit_add_each(text: str) -> None:
    assert "add-each" in rules_reading(text)[1]


def test_the_whole_recipe_with_a_list_is_correct() -> None:
    assert rules_reading(NOW_CREDITED[0])[0] == "correct"


@pytest.mark.parametrize("text", NOT_CREDITED)
def test_a_denial_or_no_object_credits_nothing(text: str) -> None:
    assert "add-each" not in rules_reading(text)[1]


@pytest.mark.parametrize("text", KEYWORD_LISTS)
def test_its_words_as_a_keyword_list_earn_nothing(text: str) -> None:
    verdict, found = rules_reading(text)
    assert verdict == "incorrect"
    assert "add-each" not in found


PUMPED = [
    "add " * 1500,
    "add the gradients " * 500,
    "added added to to " * 500,
    "add them them them into " * 300,
]


def test_round41_k1_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_under("Round 41 (engineer K1)", [QUESTION])
    assert len(patterns) == 1
    assert_linear_on(patterns, PUMPED)
