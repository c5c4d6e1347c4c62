"""Round 45 of issue 14 (engineer C36, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): the stated beliefs the rules missed, counted
per (question, tag) over the tune personas, kept where they named not-read answers.
gradient-vs-apply: round 44's labellers' gradient-scalar-per-layer and tape-snapshots-weights (new
entries; MAX_MISCONCEPTIONS 40 -> 48 for them), tape-discarded-on-block-exit (copied from no-zero-grad,
plus tape.gradient said to have to be called inside the block), and optimizer-clears-grads past the
8-word gap. gradient-accumulation: gradient-scalar-per-layer, copied. numpy-inside-tape: numpy-is-recorded,
the dtype said to be the only problem across a colon.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 45:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C36)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["gradient-vs-apply", "gradient-accumulation", "numpy-inside-tape"]
NEW_ENTRIES = {
    "gradient-vs-apply": [
        "gradient-scalar-per-layer",
        "tape-snapshots-weights",
        "tape-discarded-on-block-exit",
    ],
    "gradient-accumulation": ["gradient-scalar-per-layer"],
}

WRONG = [
    ("gradient-vs-apply", "gradient-scalar-per-layer", "tape.gradient hands back a single value per layer, and apply_gradients moves that layer's weights by it."),
    ("gradient-vs-apply", "gradient-scalar-per-layer", "The gradient call returns, for every layer: one number telling how the loss reacts, then apply_gradients updates the weights."),
    ("gradient-vs-apply", "tape-snapshots-weights", "The tape keeps a snapshot of the variables when the block opens, and apply_gradients makes the change final."),
    ("gradient-vs-apply", "tape-snapshots-weights", "tape.gradient changes the weights tentatively and the tape can roll them back if you never call apply_gradients."),
    ("gradient-vs-apply", "tape-discarded-on-block-exit", "tape.gradient has to be called inside the with block, because the tape is gone once the block ends; apply_gradients updates the weights."),
    ("gradient-vs-apply", "optimizer-clears-grads", "optimizer.apply_gradients(zip(grads, model.trainable_variables)) assigns the new values to every variable using the learning rate, and then clears the gradients for the next step."),
    ("gradient-vs-apply", "optimizer-clears-grads", "apply_gradients applies the optimizer's rule to the weights and after that the gradients are reset to zero."),
    ("numpy-inside-tape", "numpy-is-recorded", "The only problem with the NumPy step: the dtype, because NumPy hands back float64 and the dense layer wants float32."),
    ("gradient-accumulation", "gradient-scalar-per-layer", "Each micro-batch gives one number for every layer, so keep four numbers per layer and average them before applying."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "tape.gradient does not return one number per layer; it returns one tensor per variable, shaped like it. apply_gradients updates the weights."),
    ("gradient-vs-apply", "The loss is a single number, and each layer gets gradient tensors shaped like its weights from tape.gradient; apply_gradients changes the weights."),
    ("gradient-vs-apply", "tape.gradient returns, for each layer: one tensor per variable. apply_gradients updates the weights."),
    ("gradient-vs-apply", "The tape takes no snapshot of the weights; it records operations. tape.gradient reads the recording, apply_gradients changes the weights."),
    ("gradient-vs-apply", "Nothing is rolled back: tape.gradient only computes, apply_gradients updates the weights."),
    ("gradient-vs-apply", "tape.gradient does not have to be called inside the with block; the three lines call it after the block. apply_gradients updates the weights."),
    ("gradient-vs-apply", "The forward pass and the loss must be computed inside the with block; tape.gradient comes after it and apply_gradients updates the weights."),
    ("gradient-vs-apply", "apply_gradients updates the weights and never clears the gradients: there is nothing stored to clear."),
    ("gradient-vs-apply", "apply_gradients updates the weights; the gradients are not reset, tape.gradient just returns new tensors each step."),
    ("gradient-vs-apply", "apply_gradients applies the update and releases nothing; in PyTorch the gradients are cleared by zero_grad instead."),
    ("gradient-vs-apply", "apply_gradients also clears the tape for the next step? No: the tape is freed after gradient() returns, apply_gradients only updates the weights."),
    ("numpy-inside-tape", "The layers before h get None. The main problem is the broken chain, the float64 dtype is harmless."),
    ("numpy-inside-tape", "The layers before h get None: the only problem is not the dtype, it is that NumPy ops are not recorded."),
    ("gradient-accumulation", "Each micro-batch gives one gradient tensor per variable, shaped like it; add them into accumulators and apply the mean every four micro-batches."),
]  # fmt: skip


test_grade_freetext_names_a_round45_c36_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round45_c36_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "one number per layer " * 400,
    "tape.gradient for each layer: a single " * 250,
    "tape snapshot weights roll back " * 300,
    "tape.gradient must be called inside the " * 250,
    "apply_gradients clears the gradients are " * 250,
    "optimizer " * 1_000,
    "the only problem: " * 600,
    "only problem is the " * 500,
    "a" * 10_000,
]


def test_round45_c36_phrasings_are_read_back() -> None:
    assert len(phrasings_under("# Round 45 (engineer C36)", QUESTIONS, first_only=True)) == 3
    assert len(phrasings_of_tags(NEW_ENTRIES)) == 12


def test_round45_c36_phrasings_search_pumped_text_in_linear_time() -> None:
    phrasings = phrasings_under("# Round 45 (engineer C36)", QUESTIONS, first_only=True)
    assert_linear_on([*phrasings, *phrasings_of_tags(NEW_ENTRIES)], PUMPED)
