"""Round 29 of issue 14 (engineer C9, rubric content): round 28's final set, now tuned on
(diffusion-model-researcher, mandarin-native-engineer, star-format-storyteller,
numerical-optimization-professor), read one answer at a time for stated misconceptions the rules
did not name, and the false tells on correct answers across tune. New phrasings for beliefs the
rubrics hold, in these voices (the sum of the micro-batch gradients "is" the big-batch gradient,
the whole loop put in one tape, the tape recording "only the operations" where memory is the
point, the full Hessian from outer.gradient, efficiency as "the whole matter", the extra variables'
gradient said to be zero, BatchNorm "behaving the same either way", the model that "doesn't
train", two tapes "each with its own forward pass") and guards: the same words in true statements
("a tape per micro-batch, sum the gradients", "the inner tape also watches x", a misplaced inner
gradient "and I got None", "slot variables, e.g. Adam's m/v", "a persistent tape keeps
everything it recorded", "the GPU kernels dominate the runtime", ...). Statements written for this
file, in words of their own (docs/freetext-rounds.md "Round 29: rubric content from round 28's
set (engineer C9)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "The sum of the four micro-batch gradients is exactly the full-batch gradient."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Simply wrap the whole loop inside one GradientTape."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Create the tape outside the micro-batch loop and call gradient at the end."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Then run all four forward passes inside the same tape."),
    ("gradient-accumulation", "tape-stores-no-activations", "The tape just records the operations, so the memory stays small."),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "With a vector of weights the outer call returns the complete Hessian."),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "For a vector input this yields the Hessian matrix in one go."),
    ("trainable-vs-all-variables", "pass-model-variables", "Really it's about performance."),
    ("trainable-vs-all-variables", "pass-model-variables", "The moving statistics simply receive zero gradients, so the optimizer leaves them as they are."),
    ("trainable-vs-all-variables", "pass-model-variables", "Including the non-trainable ones produces exactly the same iterates."),
    ("training-flag", "batchnorm-ignores-training-flag", "BatchNorm works the same in both modes."),
    ("training-flag", "batchnorm-ignores-training-flag", "The flag is only relevant for dropout."),
    ("training-flag", "missing-flag-stops-learning", "If you forget training=True, the model simply won't train."),
    ("persistent-tape", "two-tapes-need-two-forwards", "Use separate tapes, one with its own forward pass for each loss."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", "One tape per micro-batch, add the gradients into accumulators, then apply once."),
    ("gradient-accumulation", "For each micro-batch I compute the loss (mean over its 64 examples) and call tape.gradient."),
    ("gradient-accumulation", "The tape only records the operations on watched tensors, and it keeps their activations in memory until gradient is called."),
    ("higher-order-derivatives", "The outer tape watches x, and the inner tape also watches x."),
    ("higher-order-derivatives", "I once put the inner gradient call outside the outer block and got None."),
    ("higher-order-derivatives", "One persistent tape works too if the first gradient is taken inside its block and the second on that result."),
    ("higher-order-derivatives", "For the full Hessian you need outer.jacobian instead."),
    ("trainable-vs-all-variables", "Passing only trainable_variables keeps the optimizer (including its slot variables, e.g. Adam's m/v) to the weights you train."),
    ("trainable-vs-all-variables", "Their gradient is None, not zero."),
    ("trainable-vs-all-variables", "The optimizer gets None for the moving statistics, and a frozen encoder would be moved by it."),
    ("training-flag", "The flag is needed for Dropout and BatchNorm."),
    ("persistent-tape", "Call del tape after, since a persistent tape keeps everything it recorded until it is garbage-collected."),
    ("persistent-tape", "Pass both losses as a list in one call if you only need their sum anyway."),
    ("tf-function-speedup", "On big convolutional nets the GPU kernels dominate the runtime and the gain is small."),
    ("why-none-gradients", "The tape only watched the loss line, so the predictions were a constant to it."),
    ("why-none-gradients", "The loss is then a function of a constant and has no path to any variable."),
    ("gradient-vs-apply", "The tape recorded every op on the watched variables, and gradient() walks back over them. It returns a list of tensors and nothing else."),
    ("higher-order-derivatives", "The outer tape is recording while that gradient is taken, so the inner tape's backward pass is itself part of the outer record."),
    ("higher-order-derivatives", "Then call outer.gradient(dy_dx, x) outside, and it backprops through the first derivative."),
    ("no-zero-grad", "Each step makes a fresh tape, so what it recorded before is gone; and the gradients are returned as values."),
]  # fmt: skip


test_grade_freetext_names_a_round29_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round29_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
