"""Round 55 of issue 14 (engineer C57): rubric content of C57's questions.

Item 1: `persistent-is-free` ("a persistent tape costs nothing and never needs deleting") said
in the words "it costs nothing extra" beside `persistent=True` named nothing (round 54's lead's
probe): the cost phrasings needed a complement ("costs memory") or a preposition ("no cost to
it") that such sentences lack. The cost denied with no complement, or with "extra" / "anything",
and a cost the tape is said not to have ("it has no memory cost") are read now, under round 54's
answer requirement (docs/freetext-rounds.md "Round 55: ... (engineer C57)"). Statements written
for this file, in words of their own; read by the rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    assert_linear_on,
    misconception_of,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

PT = "persistent-tape"
FREE = "persistent-is-free"

# each named nothing at this round's start (c849dbf8)
COSTS_NOTHING = [
    (PT, FREE, "Use tf.GradientTape(persistent=True); it costs nothing extra so leave it around."),
    (PT, FREE, "A persistent tape costs nothing extra."),
    (PT, FREE, "Make the tape persistent; it doesn't cost anything."),
    (PT, FREE, "Make the tape persistent. It has no memory cost, so you can keep it around."),
    (PT, FREE, "Make the tape persistent. Keeping it around costs nothing."),
]  # fmt: skip

test_round55_persistent_is_free_said_as_no_cost = names_the_tell(
    COSTS_NOTHING, tells=tells_by_rules
)

# a cost affirmed, a cost denied beside a deletion or of the second call's forward pass, and a
# default tape said to cost nothing with no persistent tape anywhere: no tell
NO_BELIEF = [
    (PT, "A persistent tape costs memory, so delete it when you are done."),
    (PT, "Making it persistent costs extra memory until you delete it."),
    (PT, "Use persistent=True. The second gradient call costs nothing extra because the forward pass isn't rerun."),
    (PT, "Use a persistent tape; there is a memory cost, so del it afterwards."),
    (PT, "Pass both losses as a list to one gradient call; the default tape costs nothing extra afterwards."),
    (PT, "Open two tapes, one per loss; a tape like that has no cost once gradient() has returned."),
]  # fmt: skip

test_round55_persistent_is_free_not_named_on_a_cost_affirmed = names_nothing(
    NO_BELIEF, tells=tells_by_rules
)


def test_round55_cost_phrasings_stay_linear_on_pumped_text() -> None:
    free = misconception_of(PT, FREE)
    cost = [
        p
        for p in (*free.any, *free.negated)
        if "cost(s|ing)?" in p or "costs? (nothing" in p or "comes? with" in p
    ]
    assert len(cost) == 3
    assert_linear_on(
        cost,
        ["it costs nothing extra persistent tape has no cost " * 200, "it it it costs " * 2000],
    )
    pumped = ("use a persistent tape, it costs nothing extra and has no cost " * 150)[:10_000]
    assert_linear(lambda text: find_phrasings(normalise(text).units, cost, across=True), pumped)
    assert_grades_in_linear_time(PT, pumped)


# Item 4: a labellers' tag three writers hold over tune on why-none-gradients (two on
# higher-order-derivatives) that no rubric of these questions had, written from its description
WNG, HOD = "why-none-gradients", "higher-order-derivatives"
LAZY = "tape-is-lazy"
LAZY_SAID = [
    (WNG, LAZY, "The tape is lazy: it only evaluates the operations when you call tape.gradient."),
    (WNG, LAZY, "The tape stores deferred computations and runs them when the gradient is requested."),
    (HOD, LAZY, "The inner tape keeps unevaluated operations and the outer one evaluates them lazily."),
]  # fmt: skip

test_round55_tape_is_lazy_named = names_the_tell(LAZY_SAID, tells=tells_by_rules)

# denied, or laziness of something else (a lazily built model, tf.function's tracing)
LAZY_NOT_SAID = [
    (WNG, "TensorFlow 2 is not lazy; ops run eagerly and the tape records them as they execute."),
    (WNG, "Keras layers are built lazily on the first call, so build the model before you read model.trainable_variables."),
    (HOD, "tf.function traces lazily on the first call; inside it the nested tapes work the same."),
]  # fmt: skip

test_round55_tape_is_lazy_not_named_elsewhere = names_nothing(LAZY_NOT_SAID, tells=tells_by_rules)


def test_round55_tape_is_lazy_stays_linear_on_pumped_text() -> None:
    phrasings = [*misconception_of(WNG, LAZY).any, *misconception_of(HOD, LAZY).any]
    assert_linear_on(
        phrasings, ["the tape ops are lazy deferred unevaluated thunks " * 200, "ops " * 3000]
    )
