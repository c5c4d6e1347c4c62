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
        "The recorded chain is broken: a tensor was converted to NumPy inside the tape (or a "
        "NumPy function was used). NumPy operations are not recorded, so the gradient cannot "
        "flow back through them; keep every step in TensorFlow ops."
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
        "tf.clip_by_value clamps each component, distorting the update's direction; clipping "
        "to a global norm scales the whole gradient list uniformly."
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


def message_for(tag: str, fallback: str = "") -> str:
    return MESSAGES.get(tag) or fallback or tag.replace("-", " ")
