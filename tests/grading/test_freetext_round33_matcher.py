"""Round 33 of issue 14 (engineer M5): matcher causes left by rounds 31-32 (docs/freetext-rounds.md
"Round 33: matcher causes left by rounds 31-32 (engineer M5)").

1. A fronted clause of time ("When you call apply_gradients, ...", "Once ...", "As soon as
   ...", "Whenever ...") says when the main clause holds, as a fronted "After X," does: a
   claim takes roles from it, also for a third clause that goes on with the main clause.
2. A "non-" prefix in an earlier clause of a match denies its own word, not the clause the
   match ends in ("A GradientTape is non-persistent: it holds ..."): the hit is left behind,
   as a cue in the match's first clause leaves it (names no tell, still credits).
3. A comma-less if-clause whose object is a noun opens its consequence on a pronoun subject
   with a finite verb ("if you don't zero the accumulators they keep growing"): the denial
   in the condition denies the condition (the zeroing is needed), as with a comma.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.conditions import consequence_start
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

WRONG = [
    # 1. a fronted clause of time
    ("no-zero-grad", "optimizer-clears-grads", "Whenever apply_gradients runs, the gradients are wiped."),
    ("no-zero-grad", "optimizer-clears-grads", "As soon as apply_gradients finishes, the grads get zeroed."),
    ("no-zero-grad", "optimizer-clears-grads", "Once apply_gradients has run, the grads feed the update and afterwards get wiped automatically."),
    # guards: already named at the start, kept
    ("no-zero-grad", "optimizer-clears-grads", "Once the optimizer has stepped, the gradients it used are flushed."),
    ("no-zero-grad", "optimizer-clears-grads", "When the optimizer applies them, the gradients go into the update and then get cleared for you."),
]  # fmt: skip

CORRECT = [
    # 1. a fronted clause of time before a denial or someone's own accumulators
    ("no-zero-grad", "When you call apply_gradients, nothing is reset; the gradients are plain tensors that get dropped."),
    ("no-zero-grad", "When you build your own accumulators, the optimizer does not touch them and they are reset by you."),
]  # fmt: skip

test_grade_freetext_round33_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round33_tell = names_the_tell(WRONG, tells=tells_by_rules)


HOLDS = r"tape ~ holds ~ activations"


@pytest.mark.parametrize(
    ("sentence", "affirmed", "conditional"),
    [
        # 2. the prefix in an earlier clause: left behind (affirmed, names no tell)
        (
            "A GradientTape is non-persistent: it holds the activations until the first call.",
            True,
            True,
        ),
        ("The tape is non-persistent, it holds the activations.", True, True),
        # guards: a prefix in the match's own clause still denies; no prefix, a plain claim
        ("The tape holds non-trainable activations.", False, False),
        ("The tape is persistent: it holds the activations.", True, False),
    ],
)
def test_a_non_prefix_denies_its_own_clause(
    sentence: str, affirmed: bool, conditional: bool
) -> None:
    (hit,) = find_phrasings(normalise(sentence).units, [HOLDS])
    assert (hit.affirmed, hit.conditional) == (affirmed, conditional)


@pytest.mark.parametrize(
    ("sentence", "opens"),
    [
        ("if you don't zero the accumulators they keep growing", "keep growing"),
        ("if the loss is computed outside the block it raises an error", "raises an error"),
        ("if you call it it doesn't accumulate anything", "doesn't accumulate anything"),
        # guards: a pronoun that is an object, no finite verb after it, no if-clause
        ("if you keep the tape around it", None),
        ("if you pass the optimizer them", None),
        ("the loss is computed outside the block it raises an error", None),
    ],
)
def test_a_pronoun_subject_opens_a_comma_less_consequence(sentence: str, opens: str | None) -> None:
    masked = mask(sentence)
    found = consequence_start(masked, len(masked))
    assert (masked[found:] if found >= 0 else None) == opens


@pytest.mark.parametrize(
    "text",
    [
        "Add each micro-batch's gradients into accumulators and apply every fourth step; if you don't zero the accumulators they keep growing.",
        "Sum four micro-batches of gradients into buffers and apply once; if you don't clear the buffers they grow without bound.",
    ],
)
def test_a_denied_action_before_a_pronoun_consequence_is_needed(text: str) -> None:
    assert "reset" in concepts_by_rules("gradient-accumulation", text)


HOSTILE = {
    "fronted clauses of time": (
        "when you call apply_gradients, the gradients are wiped and then reset " * 150
    )[:10_000],
    "pronoun consequences": ("if you don't zero the sums they keep growing " * 230)[:10_000],
    "non- prefixes across clauses": ("the tape is non-persistent: it holds the activations " * 190)[
        :10_000
    ],
    "one unpunctuated if-clause": ("if you don't clear " + "the sums it " * 830)[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for question_id in ("no-zero-grad", "trainable-vs-all-variables", "persistent-tape"):
        assert_grades_in_linear_time(question_id, HOSTILE[name])


def test_consequence_start_is_linear() -> None:
    text = ("if you don't clear " + "the sums they grow " * 530)[:10_000]
    assert_linear(lambda text: consequence_start(masked := mask(text), len(masked)), text)
