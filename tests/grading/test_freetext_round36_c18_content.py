"""Round 36 of issue 14 (engineer C18, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): the claims' shapes the rules did not read across the tune
personas. Round 35's labellers' beliefs about what apply_gradients does become a tell or a phrasing
(apply-needs-global-step, new on gradient-vs-apply and gradient-accumulation; a sign step read as
apply-ignores-optimizer-rule); single-tape-over-micro-batches reads a persistent tape held around
the micro-batches; needs-zero-grad reads the gradient list zeroed by hand;
optimizer-stores-accumulated-gradients reads the optimizer said to keep the old gradients or their
history; graph-caches-gradients reads the gradient said to be derived once at trace time. Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 36: gradient-vs-apply,
gradient-accumulation, no-zero-grad and tf-function-speedup content (engineer C18)"). Read by the
rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-needs-global-step", "The optimizer requires a global_step tensor before it commits anything."),
    ("gradient-vs-apply", "apply-needs-global-step", "Remember to increment the step counter manually after each update."),
    ("gradient-vs-apply", "apply-needs-global-step", "apply_gradients never advances the iterations counter, so the decay schedule is frozen."),
    ("gradient-accumulation", "apply-needs-global-step", "Give apply_gradients the global_step on the fourth micro-batch only."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Each weight then moves by the learning rate times sign(grad), the same for every optimizer."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Set persistent=True and feed all four micro-batches through the model before the gradient call."),
    ("no-zero-grad", "needs-zero-grad", "Before the tape, write gradients = [tf.zeros_like(w) for w in model.trainable_weights] to start from a clean slate."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "Keras optimizers retain the stale gradients from earlier batches, which is why the loss jumps."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "The gradient information is kept inside the optimizer between calls."),
    ("tf-function-speedup", "graph-caches-gradients", "With the decorator the derivatives are worked out symbolically at trace time and just evaluated afterwards."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients subtracts the scaled update from each variable; pass the gradients exactly as tape.gradient returns them."),
    ("gradient-vs-apply", "To maximise a reward you negate the loss, because apply_gradients always descends."),
    ("gradient-vs-apply", "The optimizer moves each weight against its gradient, by its own rule."),
    ("gradient-vs-apply", "apply_gradients increments optimizer.iterations itself; in TF1 you used to pass global_step to minimize."),
    ("gradient-vs-apply", "FGSM steps the input by the sign of its gradient; apply_gradients applies Adam's full rule to the weights."),
    ("gradient-vs-apply", "apply_gradients never sees the loss; it only takes (gradient, variable) pairs."),
    ("gradient-accumulation", "Don't hold one persistent tape across all four micro-batches; give each its own tape."),
    ("gradient-accumulation", "A persistent tape over the four micro-batches would keep all their activations, which is the memory you were trying to save."),
    ("no-zero-grad", "Adam keeps a running average of past gradients as its first moment, which is its rule's state, not a gradient sum."),
    ("no-zero-grad", "accum_grads = [tf.zeros_like(v) for v in model.trainable_variables] only if you want accumulation."),
    ("no-zero-grad", "In PyTorch zero_grad is part of the optimizer; TensorFlow has nothing to zero."),
    ("no-zero-grad", "apply_gradients consumes the gradients you hand it and assigns the new values; there is nothing to clear."),
    ("tf-function-speedup", "The backward graph is built symbolically once at trace time, and it still runs on each step's new values."),
]  # fmt: skip


test_grade_freetext_names_a_round36_c18_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round36_c18_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
