"""The teaching message for each misconception tag the code checker can report.

Messages explain the mechanism (what the tape recorded, what the optimizer did), because the
point of the product is that a candidate understands the mistake, not only that one exists.
A question's known-wrong solution may use a tag not listed here; its label is shown instead.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "loss-outside-tape": (
        "All gradients are None: the loss was computed after the `with tf.GradientTape()` block "
        "closed, so the tape never recorded the operations that produced it. Compute the "
        "forward pass and the loss inside the block."
    ),
    "numpy-inside-tape": (
        "The recorded chain is broken: a value on the gradient path (the model's output or "
        "something computed from it) was converted to NumPy inside the tape, and the gradients "
        "that should flow through it came back None or wrong. NumPy operations are not "
        "recorded, so the gradient cannot flow back through them; keep every step from the "
        "model's output to the loss in TensorFlow ops."
    ),
    "numpy-in-tf-function": (
        "Inside tf.function tensors are symbolic: they have no value yet, so .numpy(), "
        "np.asarray and other NumPy calls on them fail (the checker runs the step wrapped in "
        "tf.function, as the question says). Keep the step in TensorFlow ops; TF ops accept "
        "NumPy inputs as they are, so there is nothing to convert."
    ),
    "variable-in-tf-function": (
        "A tf.Variable is created every time the function runs. Under tf.function variables "
        "may only be created on the first trace (tf.function traces again to check, and a "
        "second trace that creates new variables is an error): create the variables once, "
        "outside the step (in the enclosing function, or before the first call), and update "
        "them with assign / assign_add inside it."
    ),
    "gradient-variable-mismatch": (
        "A gradient was paired with a variable of another shape (in apply_gradients, or an "
        "accumulator's assign_add). tape.gradient returns one gradient per source, in the "
        "order of the list you passed: zip the gradients with that same list "
        "(model.trainable_variables), not with a reordered or different one."
    ),
    "zip-mismatch": (
        "The gradient list and the variable list did not line up: zip() stops at the shorter "
        "list without a word (or raises with strict=True), so some variables were never "
        "updated. Take the gradients with respect to exactly the list you apply them to."
    ),
    "apply-gradients-pairs": (
        "optimizer.apply_gradients takes (gradient, variable) pairs, gradient first: pass "
        "zip(grads, model.trainable_variables), or call "
        "optimizer.apply(grads, model.trainable_variables)."
    ),
    "none-gradient-used": (
        "A gradient was None and the code used it as a tensor (clipping, arithmetic, an "
        "accumulator). tape.gradient returns None for every source the target does not depend "
        "on through recorded operations: find why the chain is cut rather than working around "
        "the None."
    ),
    "no-tape": (
        "No tf.GradientTape was ever opened, so nothing was recorded and there is no gradient "
        "to apply. Open `with tf.GradientTape() as tape:` around the forward pass and the loss, "
        "then take tape.gradient(loss, model.trainable_variables)."
    ),
    "unknown-variable": (
        "The optimizer was asked to update a variable it was not built for: a Keras 3 optimizer "
        "is built once for a fixed list of variables (here the model's trainable variables). "
        "Apply gradients to model.trainable_variables only."
    ),
    "returned-python-number": (
        "The step returned a Python number (float(loss) or loss.numpy()), not the scalar loss "
        "tensor the question asks for. Converting forces a copy to the host on every step and "
        "has no value inside tf.function (AutoGraph quietly rewrites float() as a cast there); "
        "return the tensor and convert only where you log it."
    ),
    "optimizer-reconfigured": (
        "The step changed the optimizer's configuration (clipping or learning rate). The "
        "optimizer belongs to the caller and keeps that setting for every later step; do the "
        "clipping yourself with tf.clip_by_global_norm on the gradient list instead."
    ),
    "accumulators-not-variables": (
        "The gradients were summed as plain tensors in Python, not in tf.Variable accumulators "
        "as the question asks. Variables hold the sums in place across calls (assign_add, "
        "assign to reset), can be checkpointed, and keep working inside tf.function, where a "
        "Python list of tensors would be frozen into the trace."
    ),
    "not-nested-tapes": (
        "One persistent tape differentiated its own gradient: that gives the right numbers, "
        "but the question asks for nested tapes, the pattern that generalises (the outer tape "
        "records the inner tape's gradient computation; each tape answers one gradient call)."
    ),
    "watch-keras-variable": (
        "tape.watch takes tf.Tensors and tf.Variables; a Keras 3 Variable is neither (it wraps "
        "one, as variable.value). Trainable variables are watched automatically when the model "
        "uses them inside the block, so drop the watch call (and watch_accessed_variables=False)."
    ),
    "graph-mode-switched-off": (
        "The code called tf.config.run_functions_eagerly(True), or otherwise made tf.function "
        "call the step as plain Python: a step that only works eagerly (.numpy(), Python "
        "conditions on tensor values) would pass unnoticed. The checker runs the step inside a "
        "real tf.function, as the question says: remove the call (it is a debugging aid) and "
        "keep the step in TensorFlow ops."
    ),
    "tampering": (
        "Your code changed the checker's own code while it ran (a function, class or setting "
        "of the sandbox's worker, or a probe it installed on TensorFlow's classes), so its "
        "observations cannot be trusted and it earns no credit. A training step never needs "
        "to touch the checker."
    ),
    "unconnected-zero-keras3": (
        "tape.gradient(..., unconnected_gradients=tf.UnconnectedGradients.ZERO) failed "
        "inside TensorFlow ('str' object has no attribute '_type_enum'): with Keras 3 "
        "variables TF cannot build the zeros for a source the target does not depend on. So "
        "some sources were not connected to the target at all: find why the chain is cut (is "
        "the loss computed inside the tape, from the model's output?) rather than asking for "
        "zeros; a correct step needs no unconnected_gradients."
    ),
    "compute-loss-uncompiled": (
        "model.compute_loss computes the loss given to model.compile(), and this model was "
        "never compiled: the step gets its loss as the loss_fn argument. Call "
        "loss_fn(y, predictions) inside the tape."
    ),
    "uncompiled-model-optimizer": (
        "model.optimizer only exists after model.compile(); a custom training step gets its "
        "optimizer as an argument: use the `optimizer` passed in."
    ),
    "pytorch-backward": (
        "TensorFlow tensors have no .backward(): there is no global backward pass. Record the "
        "forward pass inside a tf.GradientTape and ask that tape: grads = "
        "tape.gradient(loss, model.trainable_variables)."
    ),
    "pytorch-step": (
        "Keras optimizers have no step(): that is PyTorch. "
        "optimizer.apply_gradients(zip(grads, model.trainable_variables)) applies the update "
        "and advances optimizer.iterations in one call."
    ),
    "keras2-get-gradients": (
        "optimizer.get_gradients belongs to Keras 2's graph-mode API and does not exist in "
        "Keras 3: take the gradients with a tf.GradientTape (tape.gradient) instead."
    ),
    "tf-gradients-eager": (
        "tf.gradients only works while a graph is being built (TF1 style); in eager code it "
        "raises. tf.GradientTape is the TF2 way, eager and inside tf.function alike."
    ),
    "model-variables": (
        "Non-trainable variables (BatchNorm moving statistics) were handed to tape.gradient or "
        "the optimizer: pass model.trainable_variables. Keras 3 skips their None gradients with "
        "a warning, but no optimizer should ever be asked to update them."
    ),
    "optimizer-bypassed": (
        "The weights changed but optimizer.iterations did not: the update was applied by hand "
        "(assign_sub), bypassing the optimizer's rule (momentum, Adam moments) and its step "
        "counter. Use optimizer.apply_gradients(zip(grads, vars))."
    ),
    "missing-apply": (
        "The weights did not change: tape.gradient only computes gradients, it updates nothing. "
        "Hand them to optimizer.apply_gradients to take the step."
    ),
    "optimizer-stepped-twice": (
        "The optimizer stepped twice per call (optimizer.iterations advanced by 2): "
        "apply_gradients was called more than once for one batch."
    ),
    "iterations-edited": (
        "optimizer.iterations moved by a different amount than the optimizer's own updates "
        "account for: the code changed the counter itself (assign or assign_add on it). "
        "apply_gradients already advances it by exactly one per update, and schedules and "
        "Adam's bias correction read it; leave it to the optimizer."
    ),
    "second-gradient-call": (
        "tape.gradient was called twice on a non-persistent tape, which frees its recording "
        "after the first call (RuntimeError). Use one tape per loss, or "
        "tf.GradientTape(persistent=True) and `del tape` when done."
    ),
    "missing-training-flag": (
        "The model was not called with training=True inside the tape, so Dropout did nothing "
        "and BatchNorm used (and did not update) its moving statistics."
    ),
    "training-true-for-inference": (
        "The model was called with training=True, so Dropout and BatchNorm behaved as in "
        "training; this contract asks for inference behaviour (training=False)."
    ),
    "no-watch": (
        "The gradient with respect to a constant tensor is None: a tape only watches trainable "
        "variables on its own. Call tape.watch(x) inside the block before using x."
    ),
    "gradient-outside-outer-tape": (
        "The inner gradient was computed after the outer tape's block closed, so the outer tape "
        "never recorded it and the second derivative is None. Take the inner gradient inside "
        "the outer `with` block."
    ),
    "none-gradients": (
        "Some gradients were None: the tape did not record a path from the loss to those "
        "sources. Check that the loss is computed inside the block from the model's output."
    ),
    "extra-forward-pass": (
        "A model was called more often than one step needs: the loss and the update must come "
        "from the same recorded forward pass."
    ),
    "optimizers-swapped": (
        "An optimizer updated the other network's variables: each optimizer belongs to one "
        "network (g_optimizer to the generator, d_optimizer to the discriminator) and keeps "
        "its own state for exactly those variables."
    ),
    "gradient-wrt-weights": (
        "The gradient was taken with respect to the model's weights; this contract asks for "
        "the gradient with respect to the input x (watch x and pass it as the source)."
    ),
    "no-clip": (
        "The gradients reached the optimizer unclipped: pass them through "
        "tf.clip_by_global_norm(grads, 1.0) first and apply the clipped list."
    ),
    "clip-per-tensor": (
        "Each gradient was clipped on its own (tf.clip_by_norm), which changes the direction of "
        "the overall update; tf.clip_by_global_norm rescales all of them by one common factor."
    ),
    "clip-by-value": (
        "Clipping to a range (tf.clip_by_value, keras.ops.clip) clamps each component on its "
        "own, distorting the update's direction; clipping to a global norm scales the whole "
        "gradient list uniformly: tf.clip_by_global_norm(grads, 1.0)."
    ),
    "clip-wrong-norm": "The gradients were clipped to another global norm than 1.0.",
    "clip-by-hand": (
        "The gradients were rescaled by hand instead of with tf.clip_by_global_norm. Clipping "
        "only rescales when the global norm exceeds clip_norm (by clip_norm / norm); dividing "
        "by the norm every time also inflates gradients that are already small."
    ),
    "applied-every-step": (
        "The optimizer stepped on every micro-batch: accumulate the gradients and apply their "
        "mean only once every accum_steps calls."
    ),
    "accumulators-not-reset": (
        "The accumulators were never reset after applying, so every later update still "
        "contains the gradients of earlier micro-batches."
    ),
    "sum-not-mean": (
        "The summed gradients were applied: divide by accum_steps so the update equals one "
        "step on the large batch (the mean of the micro-batch gradients)."
    ),
    "apply-off-by-one": (
        "The update happened on the wrong micro-batch: apply after the accum_steps-th "
        "gradient has been added, not before it."
    ),
    "first-derivative-only": (
        "That is the first derivative: differentiate the inner tape's gradient once more with "
        "the outer tape to get d²f/dx²."
    ),
    "generator-loss-label": (
        "The generator's loss must reward fooling the discriminator: "
        "bce(ones_like(D(G(noise))), D(G(noise)))."
    ),
    "returned-wrong-order": "The function must return (g_loss, d_loss), in that order.",
    "reduce-mean-not-sum": (
        "The target must be reduce_sum(model(x, training=False)); a mean divides every "
        "gradient by the number of elements."
    ),
    "optimizer-applied-too-often": "The optimizer stepped more often than the contract says.",
    "optimizer-applied-too-rarely": "The optimizer stepped less often than the contract says.",
    "zero-grad": (
        "TensorFlow has no zero_grad: tape.gradient returns a fresh list of gradient tensors on "
        "every call and apply_gradients consumes it, so there is nothing to clear. Clearing "
        "accumulated .grad buffers is a PyTorch habit; drop the call."
    ),
    "keras3-minimize": (
        "Keras 3 optimizers have no minimize(): compute the gradients with a tf.GradientTape "
        "and hand them to optimizer.apply_gradients(zip(grads, model.trainable_variables))."
    ),
    "exception": "Your code raised an exception while the checker ran it.",
    "syntax-error": "The code does not parse.",
    "missing-function": "The function the contract asks for is not defined at module level.",
    "wrong-signature": "The function does not take the arguments the contract lists.",
    "wrong-result": "The result differs from a correct step run from the same starting state.",
    "resource-limit": "The code exceeded a sandbox limit.",
}


# Tags that only say *that* something failed; a specific finding replaces them.
GENERIC = frozenset({"exception", "none-gradients", "unknown-variable", "wrong-result"})

# (tag, exception type or "", text that identifies the runtime error)
RUNTIME_ERRORS: tuple[tuple[str, str, str], ...] = (
    ("zero-grad", "AttributeError", "attribute 'zero_grad'"),
    ("keras3-minimize", "AttributeError", "attribute 'minimize'"),
    ("pytorch-backward", "AttributeError", "attribute 'backward'"),
    ("pytorch-step", "AttributeError", "attribute 'step'"),
    ("keras2-get-gradients", "AttributeError", "attribute 'get_gradients'"),
    ("uncompiled-model-optimizer", "AttributeError", "object has no attribute 'optimizer'"),
    ("compute-loss-uncompiled", "ValueError", "Provide a `loss` argument in `compile()`"),
    ("apply-gradients-pairs", "AttributeError", "attribute '_unique_id'"),
    ("watch-keras-variable", "ValueError", "not tf.Tensor or tf.Variable"),
    ("graph-mode-switched-off", "GraphModeSwitchedOff", "run_functions_eagerly(True)"),
    ("graph-mode-switched-off", "GraphModeSwitchedOff", "tf.function was bypassed"),
    ("tampering", "CheckerTampered", "the checker's own code"),
    ("unconnected-zero-keras3", "AttributeError", "no attribute '_type_enum'"),
    ("numpy-in-tf-function", "", "'SymbolicTensor' object has no attribute 'numpy'"),
    ("numpy-in-tf-function", "", "Cannot convert a symbolic tf.Tensor"),
    ("numpy-in-tf-function", "", "Cannot convert a symbolic Keras input"),
    ("variable-in-tf-function", "", "only supports singleton tf.Variables"),
    ("variable-in-tf-function", "", "Creating variables on a non-first call"),
    ("tf-gradients-eager", "RuntimeError", "tf.gradients is not supported when eager"),
    ("gradient-variable-mismatch", "", "Cannot update variable with shape"),
    ("gradient-variable-mismatch", "", "Shapes must be equal rank"),
    ("zip-mismatch", "ValueError", "zip() argument"),
    ("zip-mismatch", "ValueError", "gradients must match `optimizer.variables`"),
    ("none-gradient-used", "", "Attempt to convert a value (None)"),
    ("none-gradient-used", "TypeError", "'NoneType'"),
)
_UNPACKING = ("too many values to unpack", "not enough values to unpack")


def runtime_error_tag(kind: str, text: str, lines: list[int], apply_lines: list[int]) -> str:
    """The misconception a runtime error is evidence of, or "" when its text says nothing."""
    for tag, wanted, marker in RUNTIME_ERRORS:
        if wanted in ("", kind) and marker in text:
            return tag
    if any(marker in text for marker in _UNPACKING) and set(lines) & set(apply_lines):
        return "apply-gradients-pairs"
    return ""


_NETWORKS = {"gan-step": ("generator", "discriminator")}


def training_flag(contract: str, model: int) -> str:
    """missing-training-flag, naming the network when the contract has several."""
    names = _NETWORKS.get(contract, ())
    if model >= len(names):
        return message_for("missing-training-flag")
    return (
        f"The {names[model]} was not called with training=True inside the tape, so its "
        "training-time layers (BatchNorm, Dropout) behaved as at inference: BatchNorm used its "
        "moving statistics instead of the batch's and did not update them, Dropout dropped "
        "nothing. Pass training=True to every network call in a training step."
    )


def message_for(tag: str, fallback: str = "") -> str:
    return MESSAGES.get(tag) or fallback or tag.replace("-", " ")
