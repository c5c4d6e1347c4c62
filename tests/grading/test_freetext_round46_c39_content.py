"""Round 46 of issue 14 (engineer C39, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas. Kept (each names a not-read answer's stated tag, no false tell, no exact answer lost):
on persistent-tape, the tape (its gradient call, TensorFlow) said to re-run the forward
computation (gradient-reruns-forward, known to four other rubrics) and the first gradient call
said to unwatch the variables, watching them again said to allow a second call
(gradient-unwatches-variables); on trainable-vs-all-variables, apply_gradients said to raise for
non-trainable variables (apply-rejects-non-trainable) and trainable=False said only to scale the
learning rate down (non-trainable-gets-scaled-updates): three labeller tags no rubric knew,
written from their descriptions. Four labeller tags map onto the rubric tag of the same belief.
Dropped (strict xfails): the forward pass run again with its own tape past a comma
(two-tapes-need-two-forwards), a tape said to give one level "so no nesting is needed"
(two-tapes-because-one-shot), the flag said to be redundant or leaving it out harmless
(training-auto-detected-in-tape), a missing flag given as the likely cause
(training-flag-enables-gradients), the watch on the model's variables given as the fix
(must-watch-variables) and trainable_variables said to be the variables this step uses
(trainable-means-used-this-step, a labeller tag no rubric knows): read-only names. True statements, denials and conditions
sharing the words name nothing. Statements written for this file (docs/freetext-rounds.md
"Round 46: ... (engineer C39)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

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
TF = "training-flag"

# Beliefs in words the rubric did not read (each fails on the round's start commit, c34b5d3).
NEW_WORDS = [
    (PT, "gradient-reruns-forward", "Each gradient call replays the whole forward pass, which a default tape can only do once."),
    (PT, "gradient-reruns-forward", "Under the hood TensorFlow re-executes the model every time you call tape.gradient."),
    (PT, "gradient-unwatches-variables", "After the first gradient call the tape stops watching the variables, so the second call has nothing to follow."),
    (PT, "gradient-unwatches-variables", "Call tape.watch(x) again and the second gradient works."),
    (TVA, "apply-rejects-non-trainable", "The optimizer rejects non-trainable variables, so model.variables would crash apply_gradients."),
    (TVA, "apply-rejects-non-trainable", "apply_gradients throws an error for the BatchNorm moving statistics."),
    (TVA, "non-trainable-gets-scaled-updates", "Setting trainable=False just scales the layer's learning rate down, like discriminative learning rates."),
    (TVA, "non-trainable-gets-scaled-updates", "Frozen layers only get a smaller learning rate, so they still move a little."),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names).
DROPPED = [
    (PT, "two-tapes-need-two-forwards", "What you do is run the forward pass twice, each inside its own tape."),
    (HOD, "two-tapes-because-one-shot", "Each tape handles one level of differentiation so you don't need any fancy nesting."),
    (TF, "training-auto-detected-in-tape", "Inside the train step training=True is redundant, the model is in training mode anyway."),
    (WNG, "training-flag-enables-gradients", "Most likely training=True is missing from the model call."),
    (WNG, "must-watch-variables", "Fix it with tape.watch(model.trainable_variables) at the start of the with block."),
    # (round 52, C51: "trainable_variables are only the variables actually used in the current forward pass." is named
    # now by the new trainable-means-used-this-step entry; it moved to test_freetext_round52_c51_content.py)
]  # fmt: skip

# True statements, denials and conditions beside the new words: name nothing.
STILL_TRUE = [
    (PT, "tape.gradient does not re-run the forward pass; it walks the recorded operations backwards, and a default tape frees them after the first call."),
    (PT, "The tape replays the recorded operations in reverse order to get the gradients, then frees them."),
    (PT, "TensorFlow never re-executes the model when you ask for a gradient."),
    (PT, "Re-watching the variables does not help: the recording is already freed."),
    (PT, "The tape stops watching new operations when the with block exits."),
    (TVA, "apply_gradients does not raise for non-trainable variables; it updates whatever it is given."),
    (TVA, "apply_gradients raises an error when every gradient is None, e.g. for the moving statistics alone."),
    (TVA, "trainable=False does not lower the learning rate; it removes the weights from trainable_variables."),
    (TVA, "When you unfreeze the base for fine-tuning, use a lower learning rate."),
]  # fmt: skip

# Labeller tags whose descriptions state a rubric tag's belief (tag-map.yaml, round 46).
MAPPED = [
    (TF, "default-call-is-training-mode", "training-auto-detected-in-tape"),
    (PT, "stop-recording-frees-tape", "persistent-records-after-block"),
    (PT, "stop-recording-as-cleanup", "persistent-records-after-block"),
    (PT, "persistent-tape-spans-epoch", "persistent-spans-steps"),
]


test_grade_freetext_names_a_round46_c39_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round46_c39_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: read-only names, no not-read gain (round 46, engineer C39)",
)
test_grade_freetext_round46_c39_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


@pytest.mark.parametrize(("question_id", "tag", "rubric_tag"), MAPPED)
def test_round46_labeller_tag_maps_to_the_rubric_tag_of_its_belief(
    question_id: str, tag: str, rubric_tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (rubric_tag,)


NEW_ENTRIES = {
    PT: ("gradient-reruns-forward", "gradient-unwatches-variables"),
    TVA: ("apply-rejects-non-trainable", "non-trainable-gets-scaled-updates"),
}

PUMPED = [
    "the tape re-runs the forward " * 300,
    "tensorflow tensorflow tf re-executes re-executes the the model " * 200,
    "after the first call the tape stops watching the variables " * 200,
    "tape.watch(x) again " * 400,
    "apply_gradients raises non-trainable frozen " * 300,
    "trainable=False scales the learning rate down " * 250,
    "frozen frozen lower lower lr lr " * 300,
]


def test_round46_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_of_tags(NEW_ENTRIES)
    # persistent-tape: gradient-reruns-forward 2, gradient-unwatches-variables 3; trainable-vs-all-variables 1 + 1
    assert len(patterns) == 7
    assert_linear_on(patterns, PUMPED)
