"""Round 51 of issue 14 (engineer C49): rubric content of persistent-tape, higher-order-derivatives,
trainable-vs-all-variables, why-none-gradients and training-flag.

Item 1: round 50's two false tells on correct trainable-vs-all-variables answers (its final set,
now tune and read) came from two phrasings of this question's YAML: `variables-are-the-same` read
"it's the same list on both lines" (the one list handed to both calls) as the two lists being the
same, and `pass-model-variables` read "for frozen layers it is wasted work" beside the BatchNorm
statistics' None gradients and a warning as wasted work being the whole matter. Each answer is
kept here whole (it names nothing now), with the beliefs the phrasings exist for, which still name
their tells (docs/freetext-rounds.md "Round 51: ... (engineer C49)"). Read by the rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import assert_linear_on, question, tells_by_rules
from tests.grading.held_statements import names_the_tell

TV = "trainable-vs-all-variables"

# Round 50's two answers labelled correct, each of which named a tell at 4356110.
ROUND50_CORRECT = [
    "Because model.variables also holds non-trainable state: BatchNorm's moving mean/variance, and any layers you froze with trainable=False. Neither is supposed to be changed by the optimizer — the moving stats are updated by their own assign ops in the forward pass, and frozen layers are frozen on purpose. Passing model.variables would either give None gradients plus warnings (the BN stats) or silently train the weights you wanted frozen. trainable_variables is the filtered list, and it's the same list on both lines so grads and vars line up in the zip.",
    "model.variables includes non-trainable variables also — for example BatchNormalization moving_mean and moving_variance, and any layer we froze with trainable=False (like backbone during fine-tuning). These are not supposed to be updated by the optimizer. BN moving stats are updated by the layer itself in the forward pass with training=True, not through gradients. If we pass them, tape.gradient gives None for them since there is no gradient path, apply_gradients will warn about it, and for frozen layers it is wasted work. So trainable_variables is the correct list, and same list must go to both calls so zip pairs correctly.",
    "Pass trainable_variables to tape.gradient and to apply_gradients: it's the same list in both calls, so the zip lines up.",
]  # fmt: skip


@pytest.mark.parametrize("text", ROUND50_CORRECT)
def test_round51_one_list_for_both_calls_and_wasted_work_beside_the_stats_name_nothing(
    text: str,
) -> None:
    assert tells_by_rules(TV, text) == []


# The beliefs the two mended phrasings exist for still name them.
STILL_NAMED = [
    (TV, "variables-are-the-same", "For most models it's the same list, so it does not matter."),
    (TV, "variables-are-the-same", "In practice they are the same variables, so either call works."),
    (TV, "pass-model-variables", "You could pass model.variables, it is just wasted work."),
]  # fmt: skip

test_round51_the_beliefs_behind_the_mended_phrasings_still_name_them = names_the_tell(
    STILL_NAMED, tells=tells_by_rules
)


# Item 2, persistent-tape's persistent-is-free: the tape said to be cleaned up (released, freed) by
# itself at the end of any block, function, step or scope, when it goes out of scope or "like any
# other object" (round 17's claim read only the with block's end and "at the end of the ..."). Each
# fails on 4356110; denials, conditions, questions and the default tape name nothing.
PT = "persistent-tape"
FREE = "persistent-is-free"
CLEANED_UP = [
    (PT, FREE, "Make it persistent=True and call gradient for both losses. Nothing else to think about; the tape is cleaned up when the training step function ends."),
    (PT, FREE, "Open it with persistent=True so both calls work. The tape is released like any other context manager."),
    (PT, FREE, "persistent=True fixes it. After that the tape is released when your function exits, so there is nothing to do."),
]  # fmt: skip
CLEANED_UP_NOT_STATED = [
    "A persistent tape is not cleaned up when the training step function ends; del it once you have both gradients.",
    "If the persistent tape were released when the function exits, the second call would fail as well.",
    "Is the tape cleaned up when the training step function ends? Only once nothing refers to it, so del tape.",
    "Use persistent=True for the two calls and then del tape, so it is released before the next step begins.",
]  # fmt: skip

test_round51_a_tape_cleaned_up_by_itself_at_any_end_names_persistent_is_free = names_the_tell(
    CLEANED_UP, tells=tells_by_rules
)


@pytest.mark.parametrize("text", CLEANED_UP_NOT_STATED)
def test_round51_a_clean_up_denied_asked_or_conditional_names_nothing(text: str) -> None:
    assert FREE not in tells_by_rules(PT, text)


def test_round51_the_widened_clean_up_claim_stays_linear_on_pumped_text() -> None:
    tell = next(m for m in question(PT).rubric.misconceptions if m.tag == FREE)
    patterns = [p for p in tell.any if "like any" in p]
    assert patterns
    assert_linear_on(
        patterns,
        [
            "the tape is cleaned up when the training step function block ends like any other "
            * 250,
            "when the " * 1000,
        ],
    )


# Item 2, trainable-vs-all-variables' only-frozen-layers-differ: the difference (distinction) between
# the two lists said to be the frozen layers, fine-tuning or transfer learning, in an answer that never
# names the BatchNorm statistics (an answer guard). Each fails on 4356110; an answer naming the
# statistics anywhere, another difference set beside them, a denial and a question name nothing.
FROZEN = "only-frozen-layers-differ"
FROZEN_ONLY = [
    (TV, FROZEN, "The difference is the frozen layers. With trainable=False their weights leave trainable_variables, so the optimizer never sees them."),
    (TV, FROZEN, "Fine-tuning is where the distinction shows: a frozen base sits in model.variables but not in trainable_variables."),
    # Round 45's and round 47's strict xfails (C37's and C41's dropped phrasings), named now: moved here.
    (TV, FROZEN, "The difference is the frozen layers, that is all."),
    (TV, FROZEN, "The distinction matters only for fine-tuning."),
]  # fmt: skip
FROZEN_NOT_ONLY = [
    "The difference is the frozen layers. BatchNorm's moving mean and variance are in model.variables as well, and no optimizer should touch them.",
    "The difference is the BN moving statistics plus any frozen layers.",
    "There is a difference apart from frozen layers: normalization layers keep extra non-trainable state.",
    "The difference is not the frozen layers alone; every model with normalization keeps extra state.",
    "Is the difference just the frozen layers? Not at all.",
]  # fmt: skip

test_round51_the_difference_said_to_be_frozen_layers_names_only_frozen_layers_differ = (
    names_the_tell(FROZEN_ONLY, tells=tells_by_rules)
)


@pytest.mark.parametrize("text", FROZEN_NOT_ONLY)
def test_round51_the_statistics_named_or_the_difference_denied_names_nothing(text: str) -> None:
    assert FROZEN not in tells_by_rules(TV, text)


def test_round51_the_difference_claim_stays_linear_on_pumped_text() -> None:
    tell = next(m for m in question(TV).rubric.misconceptions if m.tag == FROZEN)
    patterns = [p for p in tell.any if "distinction" in p]
    assert patterns
    assert_linear_on(
        patterns,
        ["the difference distinction frozen freezing fine-tuning transfer learning " * 250],
    )


# Item 3, training-flag's batchnorm-ignores-training-flag: in an answer that never names BatchNorm
# (an answer guard), everything else (the rest, the other layers) said to behave the same after
# dropout, or the flag said not to matter without dropout. Each fails on 4356110; the same words
# in an answer that names BatchNorm anywhere, a flag said to matter and a question name nothing.
TF = "training-flag"
BN_IGNORED = "batchnorm-ignores-training-flag"
DROPOUT_ONLY = [
    (TF, BN_IGNORED, "training=True turns Dropout on during the step. If you leave it out, dropout is off and the net overfits. Everything else in the model behaves the same."),
    (TF, BN_IGNORED, "The flag switches dropout on for training. If your model has no dropout layers, it doesn't really matter whether you pass it."),
    # Round 37's and round 43's strict xfails (C21's and C33's dropped claims), named now: moved here.
    (TF, BN_IGNORED, "training=True switches dropout on. All other layers behave exactly the same."),
    (TF, BN_IGNORED, "training=True turns dropout on. All the other layers work the same with or without it."),
]  # fmt: skip
DROPOUT_NOT_ONLY = [
    "training=True turns Dropout on. Everything else in the model behaves the same, except BatchNorm, which uses batch statistics and updates its moving averages.",
    "If your model has no dropout layers it can still matter: BatchNorm reads the flag too.",
    "The flag switches dropout on, and it matters a lot for regularisation.",
    "Does everything else in the model behave the same without the flag?",
]  # fmt: skip

test_round51_dropout_alone_said_to_change_names_batchnorm_ignores_training_flag = names_the_tell(
    DROPOUT_ONLY, tells=tells_by_rules
)


@pytest.mark.parametrize("text", DROPOUT_NOT_ONLY)
def test_round51_batchnorm_named_or_the_flag_said_to_matter_names_nothing(text: str) -> None:
    assert BN_IGNORED not in tells_by_rules(TF, text)


def test_round51_the_dropout_only_claims_stay_linear_on_pumped_text() -> None:
    tell = next(m for m in question(TF).rubric.misconceptions if m.tag == BN_IGNORED)
    patterns = [p for p in [*tell.any, *tell.negated] if "everything else" in p or "!!" in p]
    assert len(patterns) >= 2
    assert_linear_on(
        patterns, ["everything else the rest other layers behaves the same dropout matters " * 250]
    )
