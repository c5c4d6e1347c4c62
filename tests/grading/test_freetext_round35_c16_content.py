"""Round 35 of issue 14 (engineer C16, rubric content for gradient-vs-apply, no-zero-grad,
persistent-tape and tf-function-speedup): the claims' shapes the rules did not read across the tune
personas. apply-ignores-optimizer-rule reads the optimizers said to differ only in the learning rate;
apply-returns-new-weights reads apply_gradients said to return the new weights (and joins
no-zero-grad); tf-function-is-xla reads tf.function said to hand the function to XLA; tape-accumulates
reads the tape's old gradients said to be cleared; big-models-gain-most reads the gain said to be the
largest for large, deep models and deep models given because they have more layers;
separate-gradients-impossible reads both gradients said not to come from one forward pass; four labeller tags become tells
(shared-output-blocks-second-gradient, persistent-needed-for-multiple-variables, tape-auto-recomputes,
keras-keeps-last-gradients); and accumulation you want in your own accumulators names nothing.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 35:
gradient-vs-apply, no-zero-grad, persistent-tape and tf-function-speedup content (engineer C16)").
Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Difference between SGD, Adam, RMSprop is only in how the learning rate is chosen."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "You get the same result whatever optimizer you use, since the step is one subtraction."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "All an optimizer is, really, is a fancy name for a subtraction."),
    ("gradient-vs-apply", "apply-returns-new-weights", "apply_gradients works out the new parameter values and returns them to the caller."),
    ("gradient-vs-apply", "apply-returns-new-weights", "It hands you back the updated weights, which you then assign to the layers."),
    ("no-zero-grad", "apply-returns-new-weights", "Nothing to zero: apply_gradients returns the updated weights as fresh copies every step."),
    ("tf-function-speedup", "tf-function-is-xla", "The decorator passes your step to XLA, which fuses everything into a few kernels."),
    ("tf-function-speedup", "tf-function-is-xla", "tf.function traces a graph and then XLA compiles it for the device."),
    ("no-zero-grad", "tape-accumulates", "Call tape.reset() before the forward pass so that the previous gradients are cleared."),
    ("tf-function-speedup", "big-models-gain-most", "My guess is the speedup to be greatest for big, wide networks."),
    ("tf-function-speedup", "big-models-gain-most", "Bigger ones, because there are more kernels to fuse."),
    ("persistent-tape", "shared-output-blocks-second-gradient", "The RuntimeError is because both losses share the encoder output, which a plain tape walks only once."),
    ("persistent-tape", "separate-gradients-impossible", "Honestly you cannot pull both gradients out of the same forward pass in TF."),
    ("persistent-tape", "persistent-needed-for-multiple-variables", "A persistent tape is required whenever the network has more than one variable."),
    ("no-zero-grad", "tape-auto-recomputes", "The tape recomputes the gradients automatically whenever the weights are updated."),
    ("no-zero-grad", "keras-keeps-last-gradients", "Keras stores the latest gradients internally and the next step simply replaces them."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "Optimizers do not only differ in the learning rate: Adam keeps moment estimates in its slots."),
    ("gradient-vs-apply", "For plain SGD the update is just a subtraction; Adam also uses its moment estimates."),
    ("gradient-vs-apply", "apply_gradients does not return the new weights; it assigns them to the variables in place."),
    ("gradient-vs-apply", "tape.gradient returns new gradient tensors, one per variable, and apply_gradients writes the new values into the variables."),
    ("tf-function-speedup", "With jit_compile=True, tf.function hands the graph to XLA as well."),
    ("tf-function-speedup", "It can also hand the graph to XLA if you ask for it."),
    ("tf-function-speedup", "XLA can fuse kernels further, but only when you opt in."),
    ("no-zero-grad", "If you want gradients accumulated across steps, keep your own accumulators."),
    ("no-zero-grad", "There are no old gradients to clear; tape.gradient returns new tensors every step."),
    ("no-zero-grad", "In PyTorch, zero_grad clears the old gradients; TensorFlow has nothing to clear."),
    ("persistent-tape", "The error is not because the losses share tensors; the default tape freed its recording after the first call."),
    ("persistent-tape", "A default tape gives gradients for any number of variables in one call; persistent=True is only needed for a second call."),
    ("no-zero-grad", "The tape is only live inside the with block."),
    ("persistent-tape", "You can get both gradients from the same forward pass if the tape is persistent."),
    ("persistent-tape", "You can get both from one forward pass: open two tapes over it."),
    ("no-zero-grad", "Nothing keeps the last gradients: each step's tape.gradient returns new tensors."),
    # the lead, at the merge (M7's report): "needs no" / "has no" zero_grad is no reset with a purpose
    ("no-zero-grad", "TF needs no zero_grad, so the gradients don't accumulate across steps."),
    ("no-zero-grad", "TensorFlow has no zero_grad, so old gradients never carry over."),
]  # fmt: skip


test_grade_freetext_names_a_round35_c16_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round35_c16_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
