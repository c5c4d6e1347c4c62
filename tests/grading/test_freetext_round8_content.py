"""Round 8 of issue 14: misconceptions the tune-side labellers named that no rubric had
(each fact checked on TF 2.21 / Keras 3.15), now rubric misconceptions on every core
question where there was room for them. Each fires on a wording written for this test (not
copied from the labelled sets) and stays silent on the same subject stated correctly."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

NEW_TELLS = [
    ("gradient-vs-apply", "apply-calls-minimize", "Under the hood apply_gradients just calls optimizer.minimize for you."),
    ("gradient-accumulation", "apply-calls-minimize", "apply_gradients is basically a wrapper around minimize, so call it once after the fourth micro-batch."),
    ("gradient-vs-apply", "apply-iterates-to-convergence", "apply_gradients keeps stepping until the loss converges on that batch."),
    ("gradient-vs-apply", "apply-needs-compile", "apply_gradients only works after model.compile has attached the optimizer to the model."),
    ("gradient-accumulation", "apply-needs-compile", "The optimizer needs model.compile to be called first, otherwise apply_gradients has nothing to update."),
    ("trainable-vs-all-variables", "apply-needs-compile", "And the optimizer must be registered with model.compile before apply_gradients."),
    ("gradient-vs-apply", "var-grad-pair-order", "apply_gradients takes (variable, gradient) pairs."),
    ("gradient-accumulation", "var-grad-pair-order", "At the end: optimizer.apply_gradients(zip(model.trainable_variables, accum_grads))."),
    ("trainable-vs-all-variables", "var-grad-pair-order", "Then pass zip(model.trainable_variables, grads) to apply_gradients."),
    ("no-zero-grad", "var-grad-pair-order", "Just do grads = tape.gradient(loss, vars) and optimizer.apply_gradients(zip(vars, grads)) every step."),
    ("gradient-vs-apply", "grads-stored-on-variables", "apply_gradients just stores the gradients on the variables for later."),
    ("training-flag", "bn-stats-updated-by-optimizer", "The optimizer also updates BatchNorm's moving mean when you call apply_gradients."),
    ("training-flag", "dropout-ignores-training-flag", "Dropout is always active regardless of the flag."),
    ("training-flag", "missing-training-flag-errors", "Leaving out training=True raises an error about the learning phase."),
    ("training-flag", "training-auto-detected-in-tape", "Leaving the flag out, dropout is still active in the step."),
    ("training-flag", "missing-training-flag-errors", "You get an error if you leave it out."),
    ("why-none-gradients", "training-flag-enables-gradients", "The gradients are None because you forgot training=True, so the tape didn't record."),
    ("why-none-gradients", "int-inputs-none-grads", "Your labels are int64, which makes every gradient None; cast them to float."),
    ("why-none-gradients", "non-persistent-gives-none", "The tape is already released by the time you call tape.gradient, so you need to make it persistent."),
    ("why-none-gradients", "outside-tape-raises-error", "Computing the loss outside the tape would raise an error, so the cause must be elsewhere."),
    ("why-none-gradients", "weights-are-constants", "Most likely your weights were created as tf.constant values."),
    ("why-none-gradients", "tape-discarded-on-block-exit", "The tape is destroyed as soon as the with block ends."),
    ("numpy-inside-tape", "numpy-dtype-breaks-gradient", "NumPy turns the tensor into float64, and that dtype mismatch is what breaks the gradient; cast it back to float32 and it's fixed."),
    ("numpy-inside-tape", "only-loss-must-be-tensor", "It's fine as long as the final loss is a TensorFlow tensor."),
    ("why-none-gradients", "only-loss-must-be-tensor", "It should work as long as the loss is still a tensor."),
    ("tf-function-speedup", "tape-is-numerical-differentiation", "In eager mode the tape uses finite differences, which is slow."),
    ("higher-order-derivatives", "tape-is-numerical-differentiation", "GradientTape approximates derivatives numerically, so the second derivative is noisy."),
    ("tf-function-speedup", "tape-is-symbolic-differentiation", "tf.function differentiates symbolically, deriving a formula once."),
    ("higher-order-derivatives", "tape-is-symbolic-differentiation", "The tape builds the derivative symbolically, so you can differentiate that formula again."),
    ("tf-function-speedup", "tf-function-symbolic-gradients", "Eager mode computes gradients numerically, while the graph has them exactly."),
    ("tf-function-speedup", "eager-builds-graph-per-op", "Eager mode builds a tiny graph for every op and throws it away; tf.function builds one."),
    ("tf-function-speedup", "eager-copies-to-host", "Eager execution copies each intermediate result back to the host after every op."),
    ("tf-function-speedup", "gpu-gains-most", "The speedup is largest on a GPU, the hardware matters more than the model."),
    ("tf-function-speedup", "python-scalars-avoid-retracing", "Pass the learning rate as a plain Python float, it is cheaper than a tensor."),
    ("tf-function-speedup", "tf-function-gain-universal", "Every kind of model gets the same speedup from it."),
    ("tf-function-speedup", "tf-function-saves-activation-memory", "In a graph the tape skips storing the intermediate activations, which saves memory."),
    ("persistent-tape", "gradient-outside-block-errors", "The error is because you're calling tape.gradient after the with block; move both gradient calls inside the block."),
    ("persistent-tape", "stop-recording-avoids-error", "Put the second call inside tape.stop_recording() and the error goes away."),
    ("persistent-tape", "two-tapes-need-two-forwards", "Two separate tapes would need two forward passes, so persistent is the only way."),
    ("no-zero-grad", "tape-discarded-on-block-exit", "Nothing to zero: the tape is thrown away when the with block exits."),
    ("no-zero-grad", "persistent-stores-gradients", "Unless the tape is persistent, which caches the gradients it computed."),
    ("trainable-vs-all-variables", "duplicate-variables", "model.variables lists shared layers twice, so their weights would be updated twice."),
    ("trainable-vs-all-variables", "variables-are-copies", "model.variables returns copies, so updating them would change nothing."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "The only difference is the frozen layers."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Weight decay would still shrink the moving statistics."),
    ("higher-order-derivatives", "gradient-order-argument", "Call tape.gradient(y, x, order=2)."),
    ("higher-order-derivatives", "tape-has-hessian", "Just call tape.hessian(y, x) on a persistent tape."),
    ("gradient-vs-apply", "apply-computes-gradients", "The optimizer calculates gradients and applies them."),
    ("gradient-vs-apply", "apply-computes-gradients", "apply_gradients differentiates the loss, then updates."),
    ("gradient-vs-apply", "tape-is-numerical-differentiation", "The tape approximates the derivatives numerically."),
    # More word orders of the same claims.
    ("gradient-vs-apply", "apply-calls-minimize", "apply_gradients is just minimize under another name."),
    ("training-flag", "bn-stats-updated-by-optimizer", "The moving averages get updated through backprop during training."),
    ("training-flag", "dropout-ignores-training-flag", "The flag doesn't affect dropout, only batch norm."),
    ("training-flag", "missing-training-flag-errors", "Without training=True Keras throws an exception."),
    ("why-none-gradients", "training-flag-enables-gradients", "You must pass training=True or the gradients are None."),
    ("why-none-gradients", "outside-tape-raises-error", "If the forward pass were outside the tape you'd get an exception, not None."),
    ("persistent-tape", "gradient-outside-block-errors", "The second call fails because it happens outside the with block."),
    # Terse and non-native wordings: arrows, '=', ':' and missing verbs end a clause.
    ("gradient-vs-apply", "apply-needs-compile", "Need model.compile() first so apply_gradients knows the optimizer."),
    ("training-flag", "missing-training-flag-errors", "If forget training=True then error happen."),
    ("why-none-gradients", "int-inputs-none-grads", "int labels -> None grads. Cast to float."),
    ("why-none-gradients", "training-flag-enables-gradients", "Forgot training=True -> tape records nothing -> None."),
    ("tf-function-speedup", "gpu-gains-most", "biggest gain on GPU."),
    ("persistent-tape", "two-tapes-need-two-forwards", "two tapes = two forward passes, wasteful."),
    ("trainable-vs-all-variables", "variables-are-copies", "model.variables = copies of weights."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "only difference: frozen layers."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "minimize() computes the gradients with a tape and then calls apply_gradients."),
    ("gradient-vs-apply", "apply_gradients makes one update step and increments the iteration counter."),
    ("gradient-vs-apply", "A custom loop needs no model.compile; compile only configures fit."),
    ("gradient-vs-apply", "apply_gradients takes (gradient, variable) pairs, made with zip(grads, model.trainable_variables)."),
    ("gradient-vs-apply", "apply_gradients writes the updated values into the variables; it stores no gradients."),
    ("gradient-accumulation", "Apply once with optimizer.apply_gradients(zip(accum, model.trainable_variables)) and reset the accumulators."),
    ("no-zero-grad", "The tape is a fresh object every step; after gradient() returns, a default tape frees its recording."),
    ("no-zero-grad", "The recording stops when the with block exits, but you can still call tape.gradient afterwards."),
    ("training-flag", "BatchNorm updates its moving mean by assignment during the forward pass, not by the optimizer."),
    ("training-flag", "With training=True dropout is active; called without it, dropout passes the input through."),
    ("training-flag", "Leaving it out raises no error: the layers silently run in inference mode."),
    ("why-none-gradients", "The loss was computed after the block, so the tape never recorded it and tape.gradient returns None; move it inside."),
    ("why-none-gradients", "Integer labels are fine with sparse categorical crossentropy; the None comes from the loss outside the tape."),
    ("why-none-gradients", "The model ran before the tape, so for the tape the logits are like a constant and the weights get None."),
    ("numpy-inside-tape", "NumPy ops are not recorded, so every variable before the conversion gets None, whatever the dtype."),
    ("numpy-inside-tape", "It's only fine as long as every op from the variables to the loss is a TF op."),
    ("tf-function-speedup", "tf.function traces the step into a graph, which removes the Python overhead of running each op eagerly; small models gain most."),
    ("tf-function-speedup", "Small models with lots of little ops gain the most; large models that are compute-bound on the GPU see less difference."),
    ("tf-function-speedup", "The gain depends on the model: big for small overhead-bound models, small for large ones."),
    ("tf-function-speedup", "Pass changing values as tensors; a new Python float each call retraces the function."),
    ("higher-order-derivatives", "Nest two tapes: the outer tape records the inner tape.gradient call, then outer.gradient gives d2y/dx2."),
    ("higher-order-derivatives", "You could check it with finite differences, but the tapes give the exact value."),
    ("persistent-tape", "A default tape frees its recording after the first gradient call, inside or after the block; use persistent=True and del the tape."),
    ("persistent-tape", "Or open two tapes over the same forward pass, one per loss."),
    ("trainable-vs-all-variables", "model.variables also holds BatchNorm's moving mean and variance; frozen layers' weights are non-trainable too."),
    ("trainable-vs-all-variables", "The optimizer creates slot variables for every variable it sees, Adam keeps two extra copies each."),
    ("trainable-vs-all-variables", "The moving statistics are updated by assignment during the forward pass, not by gradient descent."),
    ("higher-order-derivatives", "GradientTape has no hessian method; use outer.jacobian of the inner gradient."),
    # A participle is no claim that the optimizer computes the gradients.
    ("gradient-vs-apply", "The optimizer then applies the computed gradients to the variables."),
    ("gradient-vs-apply", "apply_gradients takes the already computed gradients and updates the weights."),
    ("gradient-vs-apply", "The optimizer computes the update from the gradients and assigns it."),
    # A word of the tell's subject in another role or another clause.
    ("gradient-vs-apply", "You don't have to call minimize; apply_gradients is the lower-level call that minimize itself uses."),
    ("training-flag", "The optimizer only updates trainable weights; BatchNorm's moving statistics are updated in the forward pass."),
    ("trainable-vs-all-variables", "Both lists hold the same tf.Variable objects, no copies; one is a subset of the other."),
    ("why-none-gradients", "Pass training=True as well, but that is not why the gradients are None."),
    ("training-flag", "Nothing raises an error, which is what makes the bug hard to find."),
    ("persistent-tape", "It doesn't matter whether the calls are inside or after the with block."),
    ("tf-function-speedup", "The speedup depends on the model: it is largest for small models and smallest for big compute-bound ones."),
    ("trainable-vs-all-variables", "Set layer.trainable = False before compile() if you train with fit, or the change is ignored."),
    ("trainable-vs-all-variables", "The only difference: BatchNorm statistics and frozen layers are non-trainable."),
    ("persistent-tape", "Two tapes over one forward pass: with tf.GradientTape() as t1, tf.GradientTape() as t2."),
    ("why-none-gradients", "fit() passes training=True for you; in a custom loop you must pass it yourself."),
    ("why-none-gradients", "In a custom loop you must pass training=True yourself."),
    ("gradient-vs-apply", "It does not re-run the model, does not estimate numerically, and does not read any per-variable gradient buffer."),
    ("why-none-gradients", "As long as the loss is computed inside the tape, TF can track it."),
    ("why-none-gradients", "As long as the loss is a tensor built inside the block, the gradients flow."),
    ("numpy-inside-tape", "Gradients only flow as long as every op is a TF op."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "tag", "answer"), NEW_TELLS)
def test_grade_freetext_names_a_round8_tell(question_id: str, tag: str, answer: str) -> None:
    assert tag in grade_freetext(question(question_id), answer).misconceptions


@pytest.mark.parametrize(("question_id", "answer"), CORRECT)
def test_grade_freetext_round8_tells_spare_correct_statements(
    question_id: str, answer: str
) -> None:
    assert grade_freetext(question(question_id), answer).misconceptions == []
