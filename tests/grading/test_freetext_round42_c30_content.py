"""Round 42 of issue 14 (engineer C30, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). First the one false tell on a correct answer there (round 41's set,
now tune): training-flag-is-persistent-mode's `~` phrasing read "model" as "mode" ("BN stays at
its initial stats, so the model ..."); it now reads the mode, the flag or the model said to stay
in a mode, on, set, "that way until", or across calls, and a layer's behaviour or a value that
stays is no subject. The wrong statements still name the tag. Then beliefs the rubrics did not
know, each earning an entry by tune counts: persistence said to be for second-order derivatives
on persistent-tape (persistent-gives-second-order), the tape said to record only what runs on
the GPU (tape-tracks-only-device-tensors, numpy-inside-tape) and the gradients said to come back
sorted by name (gradients-sorted-by-name, trainable-vs-all-variables). Statements written for
this file, in words of their own (docs/freetext-rounds.md "Round 42: ... (engineer C30)"). Read
by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

# The claim the mended phrasing is for: still named.
WRONG = [
    ("training-flag", "training-flag-is-persistent-mode", "Once you pass training=True the model stays in training mode until you switch it back."),
    ("training-flag", "training-flag-is-persistent-mode", "Training mode persists across calls, so you only set it on the first step."),
    ("training-flag", "training-flag-is-persistent-mode", "It works like model.train(): the network remains in train mode until you tell it otherwise."),
    ("training-flag", "training-flag-is-persistent-mode", "After one call with training=True it stays that way until you call it with training=False."),
    ("training-flag", "training-flag-is-persistent-mode", "The flag sticks: every later call runs in training mode too."),
    ("training-flag", "training-flag-is-persistent-mode", "Once set, the flag remains on for all subsequent calls."),
]  # fmt: skip

# True statements that named a tell before this round (each fails on 221d1a3's questions/).
CORRECT = [
    ("training-flag", "Training still runs, no error, but you lose regularization and BN stays at its initial stats, so the model behaves differently than you think."),
    ("training-flag", "Without it dropout stays off during training, so you lose the regularization."),
]  # fmt: skip

# Beliefs in words the rubric did not read (each fails on 221d1a3's questions/).
NEW_WORDS = [
    ("persistent-tape", "persistent-gives-second-order", "Don't make it persistent here; persistent tapes are for higher-order derivatives."),
    ("persistent-tape", "persistent-gives-second-order", "persistent=True is what gives you the Hessian, the gradient of the gradient."),
    ("numpy-inside-tape", "tape-tracks-only-device-tensors", "The tape only records ops executed on the GPU, so the NumPy part on the CPU is invisible to it."),
    ("numpy-inside-tape", "tape-tracks-only-device-tensors", "GradientTape just tracks tensors that stay on the device."),
    ("numpy-inside-tape", "tape-tracks-only-device-tensors", "Copying h to host memory is what breaks the gradient."),
    ("trainable-vs-all-variables", "gradients-sorted-by-name", "tape.gradient returns the gradients sorted by variable name, so sort your variable list the same way."),
    ("trainable-vs-all-variables", "gradients-sorted-by-name", "The gradients come back in alphabetical order."),
]  # fmt: skip

# True statements beside the new words and the mend: name nothing.
STILL_TRUE = [
    ("training-flag", "Without the flag BatchNorm remains at its starting statistics, so the model drifts at evaluation."),
    ("training-flag", "The model does not stay in training mode: training is an argument of each call."),
    ("training-flag", "The moving averages stay frozen during training if you leave the flag out."),
    ("training-flag", "Without the flag the layers stay in inference mode, so dropout never fires."),
    ("training-flag", "Training mode only applies to the call you pass it to; nothing persists."),
    ("persistent-tape", "persistent=True lets you call gradient twice on one recording; second-order derivatives need nested tapes instead."),
    ("persistent-tape", "Persistent tapes keep the recording for several gradient calls, for example the generator and discriminator losses."),
    ("numpy-inside-tape", "The tape records TensorFlow ops wherever they run, CPU or GPU; NumPy ops are not TensorFlow ops."),
    ("numpy-inside-tape", ".numpy() copies the tensor to host memory as a NumPy array, and the tape cannot see NumPy's operations."),
    ("trainable-vs-all-variables", "The gradients come back in the same order as the sources you pass, not sorted by name."),
    ("trainable-vs-all-variables", "zip pairs each gradient with its variable by position, not by name."),
]  # fmt: skip


test_grade_freetext_names_a_round42_c30_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_names_a_round42_c30_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round42_c30_true_statements_name_nothing = names_nothing(
    CORRECT + STILL_TRUE, tells=tells_by_rules
)

NEW_TAGS = {
    "persistent-tape": ("persistent-gives-second-order",),
    "numpy-inside-tape": ("tape-tracks-only-device-tensors",),
    "trainable-vs-all-variables": ("gradients-sorted-by-name",),
}


def round42_phrasings() -> list[str]:
    """This round's phrasings: every list item under the `# Round 42 (engineer C30)` comment on
    training-flag, and every phrasing of the misconceptions this round added."""
    mended = phrasings_under("# Round 42 (engineer C30)", ("training-flag",))
    return list(dict.fromkeys(mended + phrasings_of_tags(NEW_TAGS)))


PUMPED = [
    "the model stays in the training mode " * 280,
    "stays stays stays on " * 500,
    "dropout the stats stays that way until " * 260,
    "the flag sticks, " * 600,
    "persistent tapes are for second order hessians " * 220,
    "the tape only records ops executed on the gpu " * 220,
    "copying to host memory is what breaks " * 260,
    "the gradients come back sorted by variable name " * 200,
    "gradients alphabetical " * 450,
]


def test_round42_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round42_phrasings()
    # the two phrasings under the comment and the three older ones after it on training-flag
    # (up to the next comment), then the new misconceptions' 6 phrasings
    assert len(patterns) == 11
    assert_linear_on(patterns, PUMPED)
