"""Round 25 of issue 14 (engineer C5, rubric content): round 24's final set, now tuned on,
read one answer at a time for stated misconceptions the rules did not name. New phrasings
for beliefs the rubrics hold (a zero gradient shown as None, a later gradient call said to
return None, gradients already scaled by the learning rate,
one tape said to suffice for a second derivative, model.variables said to work too or only to
waste compute, "apart from frozen layers" no difference, a reused tape still holding the
previous steps, the first call changing the recording in place, tf.function compiling the
Python to native code, ...), one new belief (`oom-gives-none-gradients`), and their guards:
the same words in true statements. Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 25: rubric content, the named gap (engineer C5)"). Read by
the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("why-none-gradients", "none-means-zero-signal", "The forward pass is outside the tape, so the gradients come out as zero, which TF shows as None."),
    ("why-none-gradients", "non-persistent-gives-none", "You called tape.gradient once already, so the second call on a non-persistent tape returns None for every variable."),
    ("why-none-gradients", "oom-gives-none-gradients", "None gradients usually mean the GPU ran out of memory during backprop; lower the batch size."),
    ("why-none-gradients", "oom-gives-none-gradients", "The out of memory condition makes tape.gradient return None silently."),
    ("trainable-vs-all-variables", "pass-model-variables", "Passing model.variables would work as well, you would only get some extra None entries."),
    ("trainable-vs-all-variables", "pass-model-variables", "Giving the optimizer model.variables would just waste compute on the frozen weights."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "Other than frozen layers there is not much difference between the two lists."),
    ("higher-order-derivatives", "gradient-twice-same-tape", "You do not need two tapes for this; keep a persistent one and ask it for the gradient of dy_dx with respect to x."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "The gradient call hands back values already scaled by the learning rate, and apply_gradients subtracts them."),
    ("no-zero-grad", "tape-accumulates", "With a persistent tape the gradients from the previous step are still on the tape and get added to the new ones."),
    ("tf-function-speedup", "tf-function-is-xla", "tf.function translates your Python step to C, so Python loops in it get fast too."),
    ("tf-function-speedup", "gpu-gains-most", "It helps the most when you are training on a GPU."),
    ("numpy-inside-tape", "numpy-is-recorded", "Nothing breaks: the gradients you get are valid, and deterministic maths is fine whether done in NumPy or TF."),
    ("persistent-tape", "gradients-overwrite-activations", "The first tape.gradient call modifies the recorded values in place, so the second call fails."),
    ("persistent-tape", "list-target-separate-grads", "Use one call with a list: `ga, gb = tape.gradient([loss1, loss2], model.trainable_variables)` and then apply each."),
    ("training-flag", "batchnorm-ignores-training-flag", "Leave it out and BN still uses batch statistics in both cases, so that part is fine."),
    ("training-flag", "training-flag-is-optimizer-mode", "training=True puts the model in training mode, so the weights are allowed to be updated."),
    ("gradient-vs-apply", "tape-is-numerical-differentiation", "tape.gradient computes the gradient: under the hood it nudges each weight slightly and measures how the loss changes."),
]  # fmt: skip

CORRECT = [
    ("why-none-gradients", "None is not a zero gradient: a zero gradient is a tensor of zeros, None means no recorded path. Compute the loss inside the block."),
    ("why-none-gradients", "A second call on a non-persistent tape raises a RuntimeError; it does not return None. The None comes from a loss computed outside the with block."),
    ("why-none-gradients", "Running out of GPU memory raises a ResourceExhaustedError, it never gives None gradients; None means the loss was computed outside the tape."),
    ("why-none-gradients", "None is how TF tells you there is no path; it does not show a zero gradient as None, a zero gradient prints as 0.0."),
    ("trainable-vs-all-variables", "Apart from frozen layers, BatchNorm moving mean and variance are also in model.variables, so the lists differ even with nothing frozen."),
    ("higher-order-derivatives", "You need two tapes, nested: the outer tape records the inner gradient computation, so outer.gradient(dy_dx, x) gives the second derivative."),
    ("gradient-vs-apply", "tape.gradient returns the raw gradients, not already multiplied by the learning rate; the optimizer scales them in apply_gradients."),
    ("no-zero-grad", "Each step opens a new tape, so nothing from the previous step is left on it; the gradients are new tensors every time."),
    ("tf-function-speedup", "tf.function traces a graph that the C++ runtime executes; it does not compile your Python into C++ code."),
    ("tf-function-speedup", "It helps the most for small models with many small ops, on a CPU or a GPU alike."),
    ("numpy-inside-tape", "The later layers' gradients are valid, but the earlier layers get None because NumPy is not recorded."),
    ("training-flag", "BatchNorm uses batch statistics in training and the moving averages at inference, so in both cases the flag matters."),
    ("training-flag", "The flag only changes layers' forward behaviour; the weights are allowed to change only by apply_gradients, in training mode or not."),
    ("gradient-vs-apply", "The gradient tells you how the loss would change if you nudge each weight and measure the loss; the tape gets it by reverse-mode autodiff, and apply_gradients changes the weights."),
]  # fmt: skip


test_grade_freetext_names_a_round25_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round25_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
