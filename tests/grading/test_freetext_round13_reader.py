"""Round 13 (engineer R): known defects of the free-text reader, each with statements
written before the change. *_HELD lists were kept back and read once, at the end
(docs/freetext-rounds.md "Round 13: reader defects (engineer R)"). Rules alone.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import concepts_by_rules
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

# 1. "without training=True" with no comma: the short cue denies its object (a keyword
# argument or a call), not the statement that follows it.
SCOPE_WRONG = [
    ("training-flag", "training-flag-enables-gradients", "Without training=True gradients are None."),
    ("training-flag", "training-flag-enables-gradients", "Without training=True tape.gradient returns None for every weight."),
]  # fmt: skip
SCOPE_WRONG_HELD = [
    ("training-flag", "training-flag-enables-gradients", "Without training=True every gradient comes back as None."),
]  # fmt: skip
# (question, concept, found?): what follows the object is read as written.
SCOPE_CREDIT = [
    ("training-flag", "consequence", True, "Without training=True model(x) runs in inference mode."),
    ("training-flag", "consequence", False, "Without training=True dropout is still applied."),
    ("training-flag", "consequence", False, "Without training=True dropout is still active during training."),
]  # fmt: skip
SCOPE_CREDIT_HELD = [
    ("training-flag", "consequence", True, "Without training=True model(x) behaves as at inference time."),
    ("training-flag", "consequence", False, "Without training=True dropout still drops units as usual."),
]  # fmt: skip
# Short cues still deny a phrase that continues their object.
SCOPE_KEPT = [
    ("training-flag", "missing-training-flag-errors", "Without training=True Keras raises an error."),
    ("training-flag", "training-flag-enables-gradients", "Without training=True the gradients are None."),
]  # fmt: skip
# Written with these and dropped before the change: "Without training=True model(x) raises an
# error" and "Called without training=True model(x) throws an exception" - the reader reads
# them after the change, but no phrasing of missing-training-flag-errors names "model(x)
# raises" (rubric content, engineer C).


test_a_short_cue_denies_its_object_not_the_statement_after_it = names_the_tell(
    SCOPE_WRONG + SCOPE_WRONG_HELD + SCOPE_KEPT, fields="qid tag text", tells=_tells
)


@pytest.mark.parametrize(("qid", "concept", "found", "text"), SCOPE_CREDIT + SCOPE_CREDIT_HELD)
def test_the_statement_after_a_short_cues_object_is_read_as_written(
    qid: str, concept: str, found: bool, text: str
) -> None:
    assert (concept in concepts_by_rules(qid, text)) is found


# 2. A verb that moves the weights is an update of them: "tape.gradient already moves the
# weights a little" is gradient-updates-weights (round 11's neighbours xfail, read by rules).
MOVES_WRONG = [
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient already moves the weights a little; apply_gradients just finalises it."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient nudges the weights slightly and apply_gradients finishes the step."),
    ("gradient-vs-apply", "gradient-updates-weights", "Calling tape.gradient shifts the variables a bit, then apply_gradients commits the change."),
]  # fmt: skip
# The held check's miss (run once, at the end): "the gradient call" is no subject the tell's
# ordered phrasings read, and its claim excludes apply_gradients sentence-wide (rubric content).
MOVES_WRONG_HELD_MISSED = [
    ("gradient-vs-apply", "gradient-updates-weights", "The gradient call nudges the parameters, and apply_gradients just records the step."),
]  # fmt: skip
# The direction to move in, a move that is denied, and the optimizer's move name no tell.
MOVES_TRUE = [
    ("gradient-vs-apply", "tape.gradient tells you which way to move the weights; apply_gradients moves them."),
    ("gradient-vs-apply", "tape.gradient only computes the gradients; apply_gradients moves the weights."),
    ("gradient-vs-apply", "tape.gradient gives the direction in which the optimizer should move the weights, it does not move them."),
    ("gradient-vs-apply", "tape.gradient does not move the weights at all; apply_gradients does."),
]  # fmt: skip
MOVES_TRUE_HELD = [
    ("gradient-vs-apply", "tape.gradient says how to move the weights to lower the loss; only apply_gradients moves them."),
]  # fmt: skip


test_a_verb_that_moves_the_weights_states_an_update = names_the_tell(
    MOVES_WRONG, fields="qid tag text", tells=_tells
)


test_a_held_move_statement_is_named = names_the_tell(
    MOVES_WRONG_HELD_MISSED,
    fields="qid tag text",
    tells=_tells,
    xfail="held miss: 'the gradient call' is no subject a phrasing reads",
)
test_the_direction_to_move_the_weights_names_no_tell = names_nothing(
    MOVES_TRUE + MOVES_TRUE_HELD, fields="qid text", tells=_tells
)


# 3. A sentence that opens with a short prepositional phrase and a comma states one claim:
# "From one forward pass, TensorFlow only gives the sum" (round 12's strict xfail, engineer
# C's held check: the comma cut the claim's roles into two clauses).
FRONTED_WRONG = [
    ("persistent-tape", "separate-gradients-impossible", "From one forward pass, TensorFlow can only give you the summed gradient of both losses, never each one on its own."),
    ("persistent-tape", "separate-gradients-impossible", "From one forward pass, TensorFlow can only give you the summed gradient of both losses."),
    ("tf-function-speedup", "cpu-gains-most", "On a CPU, tf.function gains the most; on a GPU it barely matters."),
]  # fmt: skip
FRONTED_WRONG_HELD = [
    ("persistent-tape", "separate-gradients-impossible", "With a single forward pass, you only ever get the combined gradient of the two losses."),
]  # fmt: skip
FRONTED_TRUE = [
    ("persistent-tape", "From one forward pass, a persistent tape gives each loss its own gradient with two gradient calls."),
    ("why-none-gradients", "In eager mode, ops run one by one and the tape records them."),
]  # fmt: skip
# The held check's miss (run once, at the end): list-target-separate-grads is named with or
# without the fronted phrase and before this change - its ordered phrasing `both losses ~
# separately` reads the persistent-tape answer too (rubric content, engineer C / T).
FRONTED_TRUE_HELD_MISSED = [
    ("persistent-tape", "From one forward pass, two gradient calls on a persistent tape give both losses' gradients separately."),
]  # fmt: skip


test_a_fronted_phrase_belongs_to_its_main_clause = names_the_tell(
    FRONTED_WRONG + FRONTED_WRONG_HELD, fields="qid tag text", tells=_tells
)
test_a_fronted_phrase_in_a_true_statement_names_no_tell = names_nothing(
    FRONTED_TRUE, fields="qid text", tells=_tells
)


test_a_held_fronted_true_statement_names_no_tell = names_nothing(
    FRONTED_TRUE_HELD_MISSED,
    fields="qid text",
    tells=_tells,
    xfail="held miss: an older phrasing names list-target-separate-grads",
)
