"""Round 47 of issue 14 (engineer C40, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): the stated beliefs the rules missed, counted
per (question, tag) over the tune personas, kept where they named not-read answers.
gradient-vs-apply: bn-stats-updated-by-optimizer (new entry: apply_gradients said to update the
BatchNorm statistics; the rubrics of training-flag and trainable-vs-all-variables knew it).
gradient-accumulation: gradients-computed-in-forward and optimizer-stores-accumulated-gradients (new
entries, copied whole from gradient-vs-apply and no-zero-grad, where they were the only rubrics that
knew beliefs labelled on this question).
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 47:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C40)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

NEW_ENTRIES = {
    "gradient-vs-apply": ["bn-stats-updated-by-optimizer"],
    "gradient-accumulation": [
        "gradients-computed-in-forward",
        "optimizer-stores-accumulated-gradients",
    ],
}

WRONG = [
    ("gradient-vs-apply", "bn-stats-updated-by-optimizer", "tape.gradient only computes; apply_gradients updates the trainable weights, and also the BatchNorm moving mean and variance."),
    ("gradient-vs-apply", "bn-stats-updated-by-optimizer", "apply_gradients changes every variable of the model, including the batch norm layers' running statistics."),
    ("gradient-vs-apply", "bn-stats-updated-by-optimizer", "The optimizer applies the update rule to the weights; the BN statistics are refreshed in this same step."),
    ("gradient-vs-apply", "bn-stats-updated-by-optimizer", "apply_gradients is where the weights change, and batchnorm's moving averages get updated by the optimizer too."),
    ("gradient-accumulation", "gradients-computed-in-forward", "TensorFlow computes the gradients during the forward pass, so tape.gradient just reads them after each micro-batch."),
    ("gradient-accumulation", "optimizer-stores-accumulated-gradients", "The gradients are stored in the optimizer between micro-batches, so you only call apply_gradients at the end."),
    ("gradient-accumulation", "optimizer-stores-accumulated-gradients", "The optimizer keeps the accumulated gradients in its slot variables, so nothing needs to be added up by hand."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients updates the trainable weights, but not the BatchNorm moving mean and variance: the layer assigns those itself in a training-mode forward pass."),
    ("gradient-vs-apply", "BatchNorm's moving statistics are updated in the forward pass with training=True, never by apply_gradients."),
    ("gradient-vs-apply", "apply_gradients does not touch the BatchNorm statistics; they are not trainable and get no gradient."),
    ("gradient-vs-apply", "If you passed model.variables, apply_gradients would update the weights and also the BatchNorm statistics."),
    ("gradient-vs-apply", "apply_gradients applies Adam's rule: it updates the moving averages of the gradient and then the weights."),
    ("gradient-vs-apply", "apply_gradients updates the weights and also Adam's running averages of the gradients, and increments the step counter."),
    ("gradient-accumulation", "Nothing is computed during the forward pass except the loss: the tape records it, and tape.gradient walks it backwards for each micro-batch; add the gradients into tf.Variable accumulators, apply the mean every four and reset them."),
    ("gradient-accumulation", "The optimizer does not keep the gradients between micro-batches; keep tf.Variable accumulators yourself, add each micro-batch's gradients, apply the mean every four and reset them."),
    ("gradient-accumulation", "With gradient_accumulation_steps=4 the Keras 3 optimizer keeps its own accumulators, applies the mean every fourth call and resets them."),
]  # fmt: skip


test_grade_freetext_names_a_round47_c40_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round47_c40_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "apply_gradients updates and also bn " * 250,
    "apply_gradients " + "updates weights " * 600 + "and bn",
    "bn statistics are updated by the optimizer " * 200,
    "batchnorm " + "stats " * 1_500 + "are updated",
    "if " * 3_000 + "apply_gradients updates and bn",
    "a" * 10_000,
]


def test_round47_c40_new_entries_are_read_back() -> None:
    assert len(phrasings_of_tags({"gradient-vs-apply": ["bn-stats-updated-by-optimizer"]})) == 8
    assert misconception_of("gradient-vs-apply", "bn-stats-updated-by-optimizer").cap == "partial"
    assert (
        misconception_of("gradient-accumulation", "gradients-computed-in-forward").any
        == misconception_of("gradient-vs-apply", "gradients-computed-in-forward").any
    )
    assert (
        misconception_of("gradient-accumulation", "optimizer-stores-accumulated-gradients").any
        == misconception_of("no-zero-grad", "optimizer-stores-accumulated-gradients").any
    )


def test_round47_c40_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(phrasings_of_tags(NEW_ENTRIES), PUMPED)
