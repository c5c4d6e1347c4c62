"""Round 30 of issue 14 (engineer C10, rubric content): round 29's final set, now tuned on
(spanish-native-engineer, haskell-functional-programmer, security-auditor,
product-manager-switcher), read one answer at a time for stated misconceptions the rules did not
name, and the false tells on correct answers whose cause was a phrasing. New phrasings for beliefs
the rubrics hold, in these voices (the update rule "the same for all optimizers" or a step by the
gradient's sign, the model "never compiled" as the likely cause of None, the chain said intact
through NumPy, the outer tape that "has to be" persistent, the list call returning a pair, BatchNorm
among layers that behave the same, one tape opened before the loop, both blocks closed before a
gradient) and guards: the same words in true statements ("apply ... for each accumulator", "forget
the reset" of the accumulators, "the first derivative", the tape released each step, "without
dividing you have four times", "how the loss changes with respect to", the encoder's weights, the
later layers' intact path, "it keeps their activations until gradient() runs"). Statements written
for this file, in words of their own (docs/freetext-rounds.md "Round 30: rubric content from round
29's set (engineer C10)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "The update rule is the same for all optimizers."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Whatever optimizer you choose, the step is simply lr times the gradient."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Under the hood the weights move by using the sign of each gradient, scaled by the learning rate."),
    ("why-none-gradients", "needs-compile-for-gradients", "Probably the model hasn't been compiled yet."),
    ("numpy-inside-tape", "numpy-is-recorded", "The tape records the conversion like any other operation."),
    ("numpy-inside-tape", "numpy-is-recorded", "Once the array is turned back into a tensor, the chain from loss to weights remains unbroken."),
    ("higher-order-derivatives", "nested-tapes-need-persistent", "The outer tape has to be persistent, since a plain tape only gives one gradient."),
    ("higher-order-derivatives", "nested-tapes-need-persistent", "It is essential that the outer tape is persistent."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Leave both scopes, then compute dy/dx from the inner tape."),
    ("persistent-tape", "list-target-separate-grads", "Skip persistence: tape.gradient([loss_a, loss_b], params) hands back a pair of gradient lists."),
    ("training-flag", "batchnorm-ignores-training-flag", "BatchNorm and Dense layers behave the same in both modes."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Open a single persistent tape before the loop and feed every micro-batch through it."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "The tape can just remain open during the micro-batches."),
    ("gradient-vs-apply", "apply-returns-new-weights", "apply_gradients calculates the updated parameters and then hands them back."),
    ("no-zero-grad", "needs-zero-grad", "The Keras optimizer has the same kind of reset as PyTorch."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", "Apply the average for each accumulator once the fourth micro-batch is done."),
    ("gradient-accumulation", "If you forget the reset, the accumulators carry the old sums into the next update."),
    ("gradient-accumulation", "If you sum the four gradients without dividing you have four times the gradient of the 256 batch."),
    ("gradient-accumulation", "Inside the block it keeps the activations until gradient() is called, so memory grows with every pass."),
    ("higher-order-derivatives", "After the outer block, call outer.gradient(dy_dx, x) to differentiate the first derivative again."),
    ("no-zero-grad", "The tape is created inside each step and released after the gradient call."),
    ("gradient-vs-apply", "tape.gradient measures how the loss changes with respect to each weight and returns those numbers."),
    ("gradient-vs-apply", "FGSM takes the sign of the input gradient, while apply_gradients runs the optimizer's own rule."),
    ("numpy-inside-tape", "The head still learns, but the encoder gets None for all of its variables."),
    ("numpy-inside-tape", "The layers after the conversion still train, because their path to the loss is intact."),
    ("numpy-inside-tape", "Use tf ops so that the chain stays intact."),
    ("persistent-tape", "tape.gradient([l1, l2], vars) returns one list, the gradient of their sum."),
    ("higher-order-derivatives", "Close the inner block, take dy/dx while the outer one still records, and then leave it."),
]  # fmt: skip


test_grade_freetext_names_a_round30_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round30_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
