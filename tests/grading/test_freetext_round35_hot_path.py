"""Round 35 (engineer K3): a claim is not split into clauses in a sentence that lacks a role.

`claims.unit_claims` masked and split every prose sentence of an answer that carries every
role somewhere, though only a sentence with every role can carry the claim in one clause. The
pre-check (`carries_roles`) skips the others; readings are the same (benchmarks/
freetext_hot_path.py: every tune answer graded the same, p50 lower; docs/freetext-rounds.md
"Round 35: learned parts that lower, and the hot path (engineer K3)").
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import claims
from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.normalise import normalise

ALL_NONE = r"(all|every|whole|entire) & (gradients?|grads?|weights?|variables?) & None & !(before|upstream|earlier)"

ANSWERS = [
    ("The loss is a scalar. All the gradients are None. The optimizer does nothing.", [True]),
    ("The weights train fine, and the loss is None. Every variable is watched.", []),
    ("Not all of the gradients are None. Some are zero.", [False]),
    ("The tape records ops. It then frees its buffers. Everything is None anyway.", []),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "affirmed"), ANSWERS)
def test_readings_are_those_without_the_pre_check(
    answer: str, affirmed: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    units = normalise(answer).units
    with_check = find_phrasings(units, [ALL_NONE])
    monkeypatch.setattr(claims, "carries_roles", lambda *_: True)
    assert find_phrasings(units, [ALL_NONE]) == with_check
    assert [h.affirmed for h in with_check] == affirmed


def test_a_sentence_lacking_a_role_is_not_split_into_clauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    split: list[str] = []
    original = claims.split_clauses
    monkeypatch.setattr(claims, "split_clauses", lambda m: split.append(m) or original(m))
    answer = "The loss is a scalar, computed once. All the gradients are None. The optimizer, sadly, does nothing."
    hits = find_phrasings(normalise(answer).units, [ALL_NONE])
    assert [h.affirmed for h in hits] == [True]
    assert split == [claims.mask("All the gradients are None.")]
