"""Round 36 of issue 14 (engineer C19, rubric content): stated beliefs the rules left unnamed on
six questions (persistent-tape, training-flag, numpy-inside-tape, why-none-gradients,
higher-order-derivatives, trainable-vs-all-variables), counted across every tune persona first and
read as claims (subject and predicate) in other words. New phrasings: the flag's omission said to
stop the weights, the optimizer or the loss from moving (missing-flag-stops-learning, also under an
"if you leave it out" condition), None gradients or recording tied to the flag
(training-flag-enables-gradients), a watch said to let the tape track the re-created tensor again
(watch-reattaches-history), the gradients or the tape said to carry on across NumPy
(numpy-is-recorded), one tape said to be enough for a second derivative (gradient-twice-same-tape; reverted at the merge),
a persistent tape given as the None fix and the default tape said to be consumed
(persistent-fixes-none, non-persistent-gives-none), the tape said to track only what it is told or
not to watch the variables (must-watch-variables), the optimizer pushing gradient updates into the
statistics (bn-stats-get-gradients), and efficiency as the reason for trainable_variables
(pass-model-variables). Guards keep each off the correct account beside it. Statements written for
this file, in words of their own (docs/freetext-rounds.md "Round 36: ... (engineer C19)"). Read by
the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("training-flag", "missing-flag-stops-learning", "If you forget the flag, the kernel weights are never updated by the optimizer."),
    ("training-flag", "missing-flag-stops-learning", "Skip it and your loss will not decrease at all."),
    ("training-flag", "missing-flag-stops-learning", "Dropping training=True basically halts learning."),
    ("training-flag", "training-flag-enables-gradients", "Forget it and you will end up with None gradients from tape.gradient."),
    ("training-flag", "training-flag-enables-gradients", "training=True asks Keras to register the layer ops for differentiation."),
    ("numpy-inside-tape", "watch-reattaches-history", "After tape.watch(h) the tape follows h again and the earlier layers get their gradients back."),
    ("numpy-inside-tape", "watch-reattaches-history", "The remedy: convert the array to a tensor and watch it before the next layer."),
    ("numpy-inside-tape", "numpy-is-recorded", "TensorFlow still knows where the array values came from."),
    ("numpy-inside-tape", "numpy-is-recorded", "The np.tanh call is recorded by the tape like any op."),
    ("why-none-gradients", "persistent-fixes-none", "Set the tape to persistent and the None values disappear."),
    ("why-none-gradients", "non-persistent-gives-none", "My guess is the default tape had already been used up by then."),
    ("why-none-gradients", "must-watch-variables", "The tape only records the tensors you register with it."),
    ("why-none-gradients", "must-watch-variables", "Most likely the GradientTape was never told to watch the weights."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Hand the whole list to Adam and it will push gradient steps into them, ruining the averages."),
    ("trainable-vs-all-variables", "pass-model-variables", "I would say economy is the reason for it."),
]  # fmt: skip

CORRECT = [
    ("training-flag", "Leave the flag out and the weights still get updated; only dropout and batch norm behave as at inference."),
    ("training-flag", "Without it the loss still goes down, but the moving statistics of BatchNorm are never updated."),
    ("training-flag", "You still get real gradients without the flag, never None."),
    ("numpy-inside-tape", "Watching the converted tensor only makes it a new source; everything before it still gets None."),
    ("numpy-inside-tape", "The layers after the conversion still get correct gradients."),
    ("numpy-inside-tape", "The tape loses track at the numpy call, so the chain back to the encoder is cut."),
    ("higher-order-derivatives", "One tape is not enough: the outer tape must be recording while the inner gradient runs."),
    ("why-none-gradients", "Making the tape persistent only matters when you call gradient twice; it does not fix None."),
    ("why-none-gradients", "The tape watches trainable variables automatically, so it does not need to watch the weights."),
    ("trainable-vs-all-variables", "If you passed model.variables, the optimizer would apply gradient updates to the frozen weights as well."),
    ("trainable-vs-all-variables", "Efficiency is a side benefit; the real reason is that the moving statistics must not be trained."),
]  # fmt: skip


# The lead reverted C19's gradient-twice-same-tape phrasings at the merge: they named 12 tags on
# read personas and none on the not-read side (ENGINEER.md: a gain only on read personas is none).
LEFT = [
    ("higher-order-derivatives", "gradient-twice-same-tape", "A single persistent tape is sufficient for d2y/dx2."),
]  # fmt: skip

test_grade_freetext_names_a_round36_c19_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round36_c19_left_unnamed = names_the_tell(
    LEFT,
    tells=tells_by_rules,
    xfail="reverted at the merge: a gain on read personas only (round 36)",
)
test_grade_freetext_round36_c19_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
