"""Round 10 (issue 14): the nearest labelled answers read the verbs of updating as one word.

"tape.gradient nudges the weights" and "tape.gradient updates the weights" are one claim,
but a bag of lemmas kept them apart, so an answer stating a tell with a verb its labelled
neighbours did not use sat nearer right answers. The shared lexicon's update group
(lexicon.py) with "nudge", "tweak" and "alter" is now one word in neighbours.py, in the
cosine, the marking words and the claim reading. The statements below were written before the change was tried
(engineer N, round 10); with the neighbours on, none of the true ones may gain a tell."""

# ruff: noqa: E501 - answers read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext import neighbours as nb
from tests.grading.core_questions import question

TRUE_STATEMENTS = [
    ("gradient-vs-apply", "tape.gradient never nudges the weights; apply_gradients is what adjusts them."),
    ("gradient-vs-apply", "Only the optimizer modifies the variables; tape.gradient just hands back numbers."),
    ("gradient-vs-apply", "apply_gradients nudges each weight against its gradient; tape.gradient leaves them alone."),
    ("gradient-vs-apply", "Neither call re-runs the forward pass: the tape replays what it recorded backwards."),
    ("gradient-vs-apply", "The weights stay put when tape.gradient runs; they only move inside apply_gradients."),
    ("no-zero-grad", "Nothing is wiped because nothing is kept: each tape.gradient call builds fresh tensors."),
    ("no-zero-grad", "The optimizer doesn't clear anything, there is simply no gradient buffer to clear."),
    ("no-zero-grad", "There's no accumulation in TF: every call to tape.gradient returns new gradients, so no reset is needed."),
    ("persistent-tape", "A persistent tape keeps its recording alive until you drop the last reference, so del it when done."),
    ("persistent-tape", "The default tape frees its record after one gradient call; that is why the second call raises."),
    ("persistent-tape", "Make it persistent=True and delete it afterwards; a persistent tape is not free, it holds memory."),
    ("trainable-vs-all-variables", "Passing model.variables would also hand the optimizer the BatchNorm moving averages, which must not be trained."),
    ("training-flag", "training=True only switches dropout and batch norm to their training behaviour; gradients flow either way."),
    ("numpy-inside-tape", "NumPy calls leave the tape's graph, so the gradient back through them is None, not an error."),
    ("tf-function-speedup", "Small models with many tiny ops gain the most from tf.function, because Python overhead dominates."),
    ("higher-order-derivatives", "Take the inner gradient inside the outer tape's block, so the outer tape records it."),
    ("gradient-accumulation", "Add each micro-batch's gradients into running sums and call apply_gradients once at the end."),
    ("why-none-gradients", "The loss was computed after the with block, so the tape never saw it; move it inside."),
]  # fmt: skip


@pytest.mark.parametrize(("qid", "text"), TRUE_STATEMENTS)
def test_a_true_statement_gains_no_tell(qid: str, text: str) -> None:
    q = question(qid)
    assert grade_freetext(q, text, neighbours=True) == grade_freetext(q, text, neighbours=False)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("tape.gradient nudges the weights", "tape.gradient updates the weights"),
        ("apply_gradients changed the weights", "apply_gradients adjusts the weights"),
        ("it tweaks the weights", "it modifies the weights"),
    ],
)
def test_synonyms_are_one_word(one: str, other: str) -> None:
    assert nb.words(one) == nb.words(other)


def test_a_word_outside_the_group_is_kept() -> None:
    assert nb.words("the tape moves the params") == ["tape", "move", "params"]


VOTERS = [
    "tape.gradient updates the weights a little each time.",
    "tape.gradient already changes the weights.",
    "Calling tape.gradient modifies the variables.",
]


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("tape.gradient nudges the weights.", True),
        ("tape.gradient never nudges the weights; apply_gradients does.", False),
        ("tape.gradient does not alter anything.", False),
    ],
)
def test_reads_a_synonym_group_word_in_any_of_its_words(text: str, stated: bool) -> None:
    assert nb.reads_as_stated(text, [nb.synonym("update")], VOTERS) is stated
