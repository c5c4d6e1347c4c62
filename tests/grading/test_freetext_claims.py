"""Claim phrasings: roles one clause must carry, in any order, with the matcher's polarity."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import affirms
from app.grading.freetext.claims import find_phrasings, is_claim, parse_claim
from app.grading.freetext.normalise import normalise

ALL_NONE = r"(all|every|whole|entire) & (gradients?|grads?|weights?|variables?) & None & !(before|upstream|earlier)"

CLAIMS = [
    ("All the gradients are None.", True),
    ("The gradients will all be None.", True),  # another order
    ("None is what every gradient becomes.", True),
    ("Not all of the gradients are None.", False),  # denied
    ("It's a myth that all the gradients are None.", False),  # reported as a myth
    ("Every variable before h gets None.", False),  # excluded role: the correct claim
    ("All the weights train, and the loss is None.", False),  # roles in two clauses
    ("In PyTorch all the grads are None here.", False),  # another framework
    ("```\nall_grads = [None for v in weights]\n```", False),  # code states no claim
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "stated"), CLAIMS)
def test_affirms_a_claim_when_one_clause_carries_every_role(sentence: str, stated: bool) -> None:
    assert affirms(sentence, ALL_NONE) is stated


def test_find_phrasings_reads_a_claim_in_the_lemma_twin() -> None:
    hits = find_phrasings(normalise("The tape frees its buffers.").units, ["free & buffer"])
    assert [h.affirmed for h in hits] == [True]


def test_find_phrasings_denies_a_claim_judged_false_after_it() -> None:
    hits = find_phrasings(normalise("Every gradient is None? No.").units, [ALL_NONE])
    assert [h.affirmed for h in hits] == [False]


def test_find_phrasings_keeps_ordered_phrasings_as_they_were() -> None:
    units = normalise("tape.gradient updates the weights.").units
    hits = find_phrasings(units, [r"tape\.gradient ~ updates? ~ weights", "weights & updates"])
    assert [h.affirmed for h in hits] == [True, True]


def test_a_role_never_takes_words_another_role_took() -> None:
    assert not affirms("The gradients are fine.", "gradients? & grad\\w*")
    assert affirms("The gradients of the grads are fine.", "gradients? & grad\\w*")


def test_an_excluded_role_anywhere_in_the_sentence_cancels_the_claim() -> None:
    twice = r"gradient & twice & !(inner|outer)"
    assert affirms("Take the gradient twice on the same tape.", twice)
    assert not affirms("Take the gradient twice, first with the inner tape.", twice)


PRONOUN_SUBJECTS = [
    ("tape.gradient runs backprop, and it updates the weights.", True),  # "it" = tape.gradient
    ("tape.gradient runs backprop, which updates the weights.", True),
    ("tape.gradient runs backprop; the optimizer updates the weights.", False),  # new subject
    ("tape.gradient runs backprop, and it does not update the weights.", False),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "stated"), PRONOUN_SUBJECTS)
def test_a_pronoun_subject_takes_its_roles_from_the_clause_before(
    sentence: str, stated: bool
) -> None:
    assert affirms(sentence, r"tape\.gradient & updates? & weights") is stated


def test_parse_claim_splits_roles_and_exclusions() -> None:
    claim = parse_claim(ALL_NONE)
    assert is_claim(ALL_NONE) and not is_claim(r"tape\.gradient ~ updates")
    assert (len(claim.roles), len(claim.excluded)) == (3, 1)
