"""Round 48 of issue 14 (engineer C43, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas; most not-read misses sit on answers already named for another tag the labellers
pair with them. Kept (each names not-read answers' stated tags, no false tell on a correct
answer, no exact answer lost), as claims over a belief's subject and predicate: on
training-flag, None said to come back for every weight without the flag
(missing-flag-stops-learning, the consequence the labellers file there), the flag said to make
the weights writable or unlocked, and the optimizer said not to be allowed to update them
without it (training-flag-is-optimizer-mode); on persistent-tape and higher-order-derivatives,
tape.gradient taken for a sampled, noisy estimate (gradient-is-stochastic-estimate, a labeller
tag of round 47's writers no rubric knew). Dropped (strict xfails): the optimizer applying
gradient steps to the moving statistics (read answers only), the tape said to be gone or to work
only inside its block, and None after the tape was already used (no not-read gain, or names
without the tag). True statements, denials, reported beliefs and conditions sharing the words
name nothing. Statements written for this file (docs/freetext-rounds.md "Round 48: ...
(engineer C43)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

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
TF = "training-flag"

# Beliefs in words the rubric did not read (each fails on the round's start commit, 642a621).
NEW_WORDS = [
    (TF, "missing-flag-stops-learning", "Leave the flag out and tape.gradient hands back None for every single weight."),
    (TF, "missing-flag-stops-learning", "Without training=True all of the gradients come back as None."),
    (TF, "training-flag-is-optimizer-mode", "training=True makes the layer weights writable for that call."),
    (TF, "training-flag-is-optimizer-mode", "The flag unlocks the variables so they can be modified during the step."),
    (TF, "training-flag-is-optimizer-mode", "apply_gradients can't touch the weights when the flag is missing."),
    (PT, "gradient-is-stochastic-estimate", "Every tape.gradient call returns a stochastic estimate of the gradient, so I average several calls."),
    (HOD, "gradient-is-stochastic-estimate", "The tape gives a noisy Monte Carlo estimate, and repeated calls differ a little."),
]  # fmt: skip

# True statements, denials, reported beliefs and conditions beside the new words: name nothing.
STILL_TRUE = [
    (TF, "It is a myth that all of the gradients come back as None without training=True; the tape records either way."),
    (TF, "The gradients are not None for all variables when you drop the flag; only dropout and batch norm behave differently."),
    (TF, "If the loss were computed outside the tape, every gradient would be None."),
    (TF, "Variables are always writable; the flag only switches dropout and batch norm."),
    (TF, "Variables are mutable in TensorFlow regardless of the flag."),
    (TF, "apply_gradients can update the weights either way; the flag only changes the forward pass."),
    (TF, "The optimizer is allowed to update every trainable variable whatever the flag says."),
    (TF, "apply_gradients cannot update the moving statistics of batch norm, they are non-trainable."),
    (TF, "A frozen layer is not writable by the optimizer: trainable=False keeps it out of the list."),
    (PT, "Two calls on the same recording return exactly the same gradient; the tape is not a stochastic estimate."),
    (PT, "The mini-batch gradient is a noisy estimate of the full-data gradient, but the tape computes it exactly."),
    (HOD, "With dropout inside the forward pass, each call differs because the masks are sampled."),
    (HOD, "Some people think the tape returns a noisy sampled estimate that varies each call; it is exact."),
    (HOD, "A finite-difference estimate of the second derivative is noisy, unlike the tape's exact gradient."),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names), or names
# on not-read answers whose labels do not state the tag.
DROPPED = [
    (TVA, "bn-stats-get-gradients", "Pass model.variables and the optimizer would also apply gradient steps to the moving statistics."),
    (PT, "tape-discarded-on-block-exit", "The tape is gone after the with block, so the gradient call has nothing to read."),
    (PT, "tape-discarded-on-block-exit", "A tape only works inside its with block."),
    (WNG, "non-persistent-gives-none", "The tape had already been consumed by a metric, so the gradients come back None."),
]  # fmt: skip


test_grade_freetext_names_a_round48_c43_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round48_c43_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: no not-read gain, or names without the tag (round 48, engineer C43)",
)
test_grade_freetext_round48_c43_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


NEW_PHRASINGS = {
    PT: ("gradient-is-stochastic-estimate",),
    HOD: ("gradient-is-stochastic-estimate",),
    TF: ("missing-flag-stops-learning", "training-flag-is-optimizer-mode"),
}

PUMPED = [
    "None None all every everything everywhere " * 300,
    "weights variables writable unlocked editable mutable " * 250,
    "apply_gradients optimizer allowed able update change " * 250,
    "tape gradient stochastic noisy sampled estimate differs each call " * 200,
]


def test_round48_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_of_tags(NEW_PHRASINGS)
    # the stochastic-estimate claim (one per question, the same text: listed once each),
    # missing-flag-stops-learning's and training-flag-is-optimizer-mode's phrasings
    assert any("stochastic" in p for p in patterns)
    assert_linear_on(patterns, PUMPED)


def test_round48_keyword_salads_name_none_of_the_new_tells() -> None:
    salads = [
        (TF, "None all every everything weights writable unlocked apply_gradients allowed update"),
        (PT, "tape gradient stochastic noisy sampled estimate differs each call average"),
    ]
    new_tags = {
        "missing-flag-stops-learning",
        "training-flag-is-optimizer-mode",
        "gradient-is-stochastic-estimate",
    }
    for qid, text in salads:
        assert not new_tags & set(tells_by_rules(qid, text)), (qid, text)
