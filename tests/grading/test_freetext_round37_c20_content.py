"""Round 37 of issue 14 (engineer C20, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): the stated beliefs the rules missed most across the tune
personas, counted by question and tag before any sentence was read. tape-accumulates on no-zero-grad
reads the gradients said to include earlier batches' contributions; large-batch-gains-most reads
"the bigger the batch, the bigger the speedup", and big-models-gain-most the same correlative with
two adjectives; apply-ignores-optimizer-rule reads apply_gradients said to subtract the raw
gradients from the weights (a right split of the two calls beside it was graded correct). Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 37: gradient-vs-apply,
gradient-accumulation, no-zero-grad and tf-function-speedup content (engineer C20)"). Read by the
rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("no-zero-grad", "tape-accumulates", "Skip the reset and the gradients you get back also contain terms from the older batches."),
    ("no-zero-grad", "tape-accumulates", "Reuse the tape and its gradients include contributions from every earlier step."),
    ("tf-function-speedup", "large-batch-gains-most", "The larger the batch size, the bigger the speedup over eager."),
    ("tf-function-speedup", "big-models-gain-most", "The larger and deeper the network, the faster graph mode runs compared to eager."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "tape.gradient returns the gradients; apply_gradients then just subtracts them from the model's weights."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "The optimizer subtracts the raw gradients from the variables, nothing more."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "In PyTorch the gradients you read also include terms from older batches unless you clear .grad."),
    ("no-zero-grad", "Each tape.gradient call returns new tensors, so nothing from the previous batch is mixed into the current ones."),
    ("no-zero-grad", "If you keep your own accumulators, the accumulated grads grow with every micro-batch until you apply them."),
    ("no-zero-grad", "Adam's state remembers the previous steps through its moments; that is its rule, not a gradient sum."),
    ("tf-function-speedup", "The speedup is greatest for small models; with large batches the GPU kernels dominate."),
    ("tf-function-speedup", "The gain is bigger for small batches than for large batches."),
    ("tf-function-speedup", "The bigger the model, the more of the step's time goes into GPU kernels, so the gain shrinks."),
    ("gradient-vs-apply", "apply_gradients scales the gradients by the learning rate and subtracts them from the variables, for plain SGD."),
    ("gradient-vs-apply", "With Adam, apply_gradients does not simply subtract the gradients: it uses the moment estimates."),
    ("gradient-vs-apply", "tape.gradient computes the gradients and apply_gradients then subtracts them from the model's weights."),
]  # fmt: skip


test_grade_freetext_names_a_round37_c20_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round37_c20_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
