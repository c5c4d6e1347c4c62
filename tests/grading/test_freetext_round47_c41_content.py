"""Round 47 of issue 14 (engineer C41, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas. Kept (each names a not-read answer's stated tag, no false tell, no exact answer lost):
on higher-order-derivatives, a tape said to be responsible for (take care of) one level of
derivative (two-tapes-because-one-shot with a verb of duty); on why-none-gradients, variables and
inputs on different devices said to break the tape (device-mismatch-gives-none, a labeller tag no
rubric knew, written from its description). One labeller tag maps onto the rubric tag of its
belief (non-trainable-get-zero-gradients -> pass-model-variables, as three synonyms before it).
Dropped (strict xfails): a persistent tape said to need nothing once finished (persistent-is-free:
it named about fifty answers whose labels do not state it, most without a persistent tape), None
said to be a stored zero or a stationary point (none-means-zero-signal: exact lost), the tape said
to work only inside its block (tape-discarded-on-block-exit), one tape per derivative order (a
false tell on a correct answer) and five more that named no not-read answer. True
statements, denials and conditions sharing the words name nothing. Statements written for this
file (docs/freetext-rounds.md "Round 47: ... (engineer C41)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from app.grading.freetext.evaluation import core_labelled
from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

PT = "persistent-tape"
HOD = "higher-order-derivatives"
TVA = "trainable-vs-all-variables"
WNG = "why-none-gradients"

# Beliefs in words the rubric did not read (each fails on the round's start commit, b8c9b89).
NEW_WORDS = [
    (HOD, "two-tapes-because-one-shot", "You need the second tape since every tape is responsible for a single order of derivative."),
    (HOD, "two-tapes-because-one-shot", "Each GradientTape takes care of one level of differentiation, so two levels need two tapes."),
    (WNG, "device-mismatch-gives-none", "A device mismatch between the inputs and the variables breaks the tape."),
    (WNG, "device-mismatch-gives-none", "Check the placement: weights on the GPU and a batch left on the CPU give you None."),
]  # fmt: skip

# True statements, denials and conditions beside the new words: name nothing.
STILL_TRUE = [
    (HOD, "The outer tape is responsible for one more order because it records the inner tape's gradient computation."),
    (HOD, "It is not true that a tape is responsible for only one derivative; nesting is what matters."),
    (HOD, "Each nested tape takes care of one level: the outer one records what the inner one computes."),
    (WNG, "Placing the variables on the GPU and the data on the CPU does not break the tape; TensorFlow copies between devices."),
    (WNG, "Under a MirroredStrategy each replica keeps its own copy of the variables on its device."),
    (WNG, "The device does not matter: None means the loss was computed outside the tape."),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names), or a
# false tell on a correct answer, or an exact answer lost.
DROPPED = [
    (PT, "persistent-is-free", "Once you have both gradients there is nothing to clean up afterwards; the tape just goes out of scope."),
    (WNG, "none-means-zero-signal", "A None gradient signals that the loss has reached a stationary point."),
    (PT, "tape-discarded-on-block-exit", "A tape can only be used inside its with block."),
    (HOD, "two-tapes-because-one-shot", "You need one tape per derivative order, that is why there are two."),
    (HOD, "tf-hessians-works-eagerly", "For second derivatives the dedicated API is tf.hessians(y, x), which builds the second-order graph for you."),
    (WNG, "gather-not-differentiable", "The lookup breaks the gradient, so the embedding weights come back None."),
    (TVA, "embedding-table-non-trainable", "Keras registers embedding tables as non-trainable variables, so they only show up in model.variables."),
    (WNG, "stop-gradient-disconnects-downstream", "stop_gradient disconnects everything downstream up to the loss."),
]  # fmt: skip


test_grade_freetext_names_a_round47_c41_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round47_c41_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: no not-read gain, a false tell or an exact answer lost (round 47, engineer C41)",
)
test_grade_freetext_round47_c41_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


def test_round47_zero_gradient_tag_maps_to_pass_model_variables() -> None:
    tags = core_labelled().tag_map.rubric_tags(TVA, "non-trainable-get-zero-gradients")
    assert tags == ("pass-model-variables",)


NEW_PHRASINGS = {
    HOD: ("two-tapes-because-one-shot",),
    WNG: ("device-mismatch-gives-none",),
}

PUMPED = [
    "each each every tape tape is is responsible for " * 250,
    "the gradient tape takes care of one one level " * 250,
    "device gpu cpu mismatch different devices " * 300,
    "variables on the gpu weights on the cpu inputs on the cpu " * 200,
]


def test_round47_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_of_tags(NEW_PHRASINGS)
    # higher-order-derivatives: round 45's phrasing and this round's two; why-none-gradients: two
    assert len(patterns) == 5
    assert_linear_on(patterns, PUMPED)
