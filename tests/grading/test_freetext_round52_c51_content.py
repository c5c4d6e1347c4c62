"""Round 52 of issue 14 (engineer C51): rubric content of persistent-tape and trainable-vs-all-variables.

Item 1: round 51's false tell on a correct persistent-tape answer (whiteboard-sketch-learner, now
tune and read) came from `persistent-is-free`'s negated phrasing "it holds (keeps, uses) memory":
"del tape, so the recorded stuff (all the intermediate activations it's holding on to) gets freed
instead of sitting in memory" read "instead of" as a denial of the tape holding memory. Beside a
deletion, the tape not holding memory is why you delete it; the phrasing named no labelled answer
over tune and three answers without the tag, each beside a del. Item 3: two claims in
trainable-vs-all-variables, the choice said to be a convention (`pass-model-variables`) and
trainable_variables said to be the variables this step used (`trainable-means-used-this-step`, new)
(docs/freetext-rounds.md "Round 52: ... (engineer C51)"). Read by the rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import assert_linear_on, question, tells_by_rules
from tests.grading.held_statements import names_the_tell

PT = "persistent-tape"
FREE = "persistent-is-free"
TV = "trainable-vs-all-variables"

# Round 51's answer labelled correct (named persistent-is-free at 2d8a100e), and the deletions with
# their purpose that the same phrasing read as the tape holding no memory.
DELETED_SO_NOT_HELD = [
    "by default a tape is single-use. picture it: the forward pass draws the graph on the tape, the first tape.gradient walks back along it, and then the tape is wiped (resources released) to save memory. second call -> nothing left to walk -> RuntimeError.\n\nfix:\nwith tf.GradientTape(persistent=True) as tape:\ncompute loss1 and loss2 in the same forward pass inside it, then tape.gradient(loss1, vars) and tape.gradient(loss2, vars) both work.\n\nafterwards: `del tape`, so the recorded stuff (all the intermediate activations it's holding on to) gets freed instead of sitting in memory.",
    "Use persistent=True for both calls. When you're done you should do del tape so it doesn't keep using memory.",
    "If you do go the persistent=True route instead, remember to del tape afterwards so it doesn't hold onto memory.",
    "Delete the persistent tape once you have both gradients, so it no longer holds memory.",
]  # fmt: skip


@pytest.mark.parametrize("text", DELETED_SO_NOT_HELD)
def test_round52_a_deleted_tape_holding_no_memory_names_nothing(text: str) -> None:
    assert FREE not in tells_by_rules(PT, text)


# The belief the mended phrasing exists for, with no deletion in the sentence, still names the tell.
FREE_STILL_NAMED = [
    (PT, FREE, "Make it persistent=True. A persistent tape doesn't use any extra memory, so you can leave it around."),
    (PT, FREE, "persistent=True fixes it, and it does not hold memory, so there is nothing to clean up."),
]  # fmt: skip

test_round52_a_tape_said_to_hold_no_memory_still_names_persistent_is_free = names_the_tell(
    FREE_STILL_NAMED, tells=tells_by_rules
)


# Item 3, pass-model-variables: the choice said to be a convention (habit, idiom, style) as the
# predicate of a copula or "by convention". Each fails on 2d8a100e; beside what model.variables
# would update or break, the statistics, a contrast or a denial, nothing is named.
PASS = "pass-model-variables"
CONVENTION = [
    (TV, PASS, "It is more a convention from the Keras API: trainable_variables is a cached property."),
    (TV, PASS, "Honestly trainable_variables is just what the docs use; it's a readability convention."),
    (TV, PASS, "It is by convention only."),
    # Round 49's strict xfail (C45's dropped phrasing), named now: moved here.
    (TV, PASS, "Either works in most models, trainable_variables is the convention."),
]  # fmt: skip
CONVENTION_NOT_STATED = [
    "It is not a convention: model.variables would hand BatchNorm's moving statistics to the optimizer.",
    "It's the convention, but the real reason is that the optimizer would update the moving mean and variance.",
    "Passing trainable_variables is the convention because the moving statistics must not be updated by gradients.",
    "Is it only a convention? No, model.variables holds state no optimizer should touch.",
]  # fmt: skip

test_round52_the_choice_said_to_be_a_convention_names_pass_model_variables = names_the_tell(
    CONVENTION, tells=tells_by_rules
)


@pytest.mark.parametrize("text", CONVENTION_NOT_STATED)
def test_round52_a_convention_beside_what_it_protects_names_nothing(text: str) -> None:
    assert PASS not in tells_by_rules(TV, text)


# Item 3, trainable-means-used-this-step (new entry): trainable_variables said to be the variables
# this forward pass, batch, step or loss actually used (touched, took part, non-zero gradient).
USED = "trainable-means-used-this-step"
USED_THIS_STEP = [
    (TV, USED, "trainable_variables is the set that actually took part in the forward pass of this run."),
    (TV, USED, "trainable_variables is the subset of variables that were actually touched in the current forward pass."),
    (TV, USED, "trainable_variables is the subset of variables that actually have a non-zero gradient for the current loss."),
    # Round 46's strict xfail (C39's dropped entry), named now: moved here.
    (TV, USED, "trainable_variables are only the variables actually used in the current forward pass."),
]  # fmt: skip
USED_NOT_STATED = [
    "trainable_variables is not the set used in this forward pass; it is every weight whose trainable flag is set.",
    "trainable_variables leaves out frozen layers, even those used in the forward pass.",
    "The tape watches trainable_variables automatically when they are used in the forward pass.",
    "Are trainable_variables the ones used in this step? No, they are fixed by the trainable flag.",
]  # fmt: skip

test_round52_the_trainable_set_said_to_be_this_steps_names_trainable_means_used_this_step = (
    names_the_tell(USED_THIS_STEP, tells=tells_by_rules)
)


@pytest.mark.parametrize("text", USED_NOT_STATED)
def test_round52_the_trainable_set_denied_frozen_or_watched_names_nothing(text: str) -> None:
    assert USED not in tells_by_rules(TV, text)


def test_round52_the_new_claims_stay_linear_on_pumped_text() -> None:
    tells = {m.tag: m for m in question(TV).rubric.misconceptions}
    patterns = [*tells[USED].any, *(p for p in tells[PASS].any if "by (\\w+ )?convention" in p)]
    assert len(patterns) == 2
    assert_linear_on(
        patterns,
        [
            "trainable_variables actually used touched the forward pass this batch convention is "
            * 250,
            "is " * 2000,
        ],
    )
    free = next(m for m in question(PT).rubric.misconceptions if m.tag == FREE)
    held = [p for p in free.negated if "get rid" in p]
    assert held
    assert_linear_on(held, ["it holds keeps memory resources del delete " * 250])
