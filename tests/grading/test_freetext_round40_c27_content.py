"""Round 40 of issue 14 (engineer C27, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). First three true statements the rules named a tell on, each a
phrasing reading more than its claim: NumPy "recorded" after "nothing that NumPy does"
(numpy-is-recorded, round 39's set), tf.hessians as what raises an error (tape-first-order-only)
and BatchNorm's moving averages updated in training mode (bn-updates-in-inference). The wrong
statements beside them still name their tag. Then two beliefs in new words: summing the losses
offered as the way to both gradients (sum-losses-gives-each-gradient) and one persistent tape
said to be enough for a second derivative, or persistence what makes it work
(persistent-gives-second-order). Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 40: ... (engineer C27)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_under, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

# The claims the mended phrasings are for: still named (the last by sum-losses-gives-each-gradient's
# mended older phrasings).
WRONG = [
    ("numpy-inside-tape", "numpy-is-recorded", "The tape records NumPy operations too."),
    ("numpy-inside-tape", "numpy-is-recorded", "Whatever NumPy does is recorded too."),
    ("higher-order-derivatives", "tape-first-order-only", "GradientTape can't do second derivatives, so just use tf.hessians."),
    ("higher-order-derivatives", "tape-first-order-only", "Nested tapes raise an error, so use tf.hessians instead."),
    ("training-flag", "bn-updates-in-inference", "BatchNorm keeps updating its moving averages even when you call it with training=False."),
    ("training-flag", "bn-updates-in-inference", "BatchNorm continues to update the moving mean at inference."),
    ("persistent-tape", "sum-losses-gives-each-gradient", "Summing them gives you both in one call."),
]  # fmt: skip

# True statements that named a tell before this round (each fails on b84b59f's questions/); the
# last three by sum-losses-gives-each-gradient's older phrasings, mended beside the new ones.
CORRECT = [
    ("numpy-inside-tape", "`h.numpy()` copies the values into a NumPy array, and nothing that NumPy does is recorded."),
    ("numpy-inside-tape", "Nothing which np computes gets tracked by the tape."),
    ("higher-order-derivatives", "Calling tf.hessians eagerly raises a RuntimeError, so use nested tapes."),
    ("training-flag", "Although the layers are frozen, BatchNorm keeps updating its moving averages in training mode."),
    ("training-flag", "Even for a frozen backbone, BatchNorm keeps updating its running averages during training."),
    ("persistent-tape", "Summing the losses gives you the sum of both gradients, not each one."),
    ("persistent-tape", "If you sum the losses you get one combined gradient; with persistent=True you get both."),
    ("persistent-tape", "You could add the losses, but that gives both gradients added together."),
]  # fmt: skip

# Beliefs in words the rubric did not read (each fails on b84b59f's questions/).
NEW_WORDS = [
    ("persistent-tape", "sum-losses-gives-each-gradient", "Add the two losses and take one gradient; you get both gradients at once."),
    ("persistent-tape", "sum-losses-gives-each-gradient", "The gradient of a sum is the sum of the gradients, so you basically got both in one shot."),
    ("higher-order-derivatives", "persistent-gives-second-order", "A single persistent tape is all you need."),
    ("higher-order-derivatives", "persistent-gives-second-order", "One tape is sufficient, provided it is persistent."),
    ("higher-order-derivatives", "persistent-gives-second-order", "The persistent flag is what makes this work."),
    ("higher-order-derivatives", "persistent-gives-second-order", "The simplest way is one persistent tape."),
]  # fmt: skip

# True statements beside the new words and the mends: named nothing before, name nothing now.
STILL_TRUE = [
    ("persistent-tape", "Make the tape persistent so you get both gradients from the same forward pass, then delete it."),
    ("higher-order-derivatives", "One persistent tape is enough if you take the first gradient inside its with block."),
    ("higher-order-derivatives", "Persistent is not what makes this work: the outer tape recording the inner gradient is."),
    ("higher-order-derivatives", "tf.hessians only works inside a tf.function graph, in eager code you nest two tapes."),
    ("higher-order-derivatives", "tf.hessians fails in eager mode; nest two tapes instead."),
]  # fmt: skip


test_grade_freetext_names_a_round40_c27_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_names_a_round40_c27_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round40_c27_true_statements_name_nothing = names_nothing(
    CORRECT + STILL_TRUE, tells=tells_by_rules
)


def round40_phrasings() -> list[str]:
    """This round's phrasings: every list item under each `# Round 40 (engineer C27)` comment."""
    questions = (
        "higher-order-derivatives",
        "numpy-inside-tape",
        "persistent-tape",
        "training-flag",
    )
    return phrasings_under("# Round 40 (engineer C27)", questions)


PUMPED = [
    "nothing that numpy does is recorded " * 280,
    "numpy is recorded " * 560,
    "tf.hessians use " * 600,
    "calling tf.hessians raises " * 380,
    "batchnorm keeps updating moving " * 320,
    "sum the losses and " * 520,
    "+ get both " * 900,
    "sum gives both gradients at once " * 300,
    "one persistent tape is enough " * 330,
    "the simplest way is one persistent tape " * 250,
]


def test_round40_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round40_phrasings()
    # four mended in place, two mended old ones, two + five new, and the six older phrasings each
    # comment's list item run carries on to (read as well: they share the pumped texts)
    assert len(patterns) == 18
    assert_linear_on(patterns, PUMPED)
