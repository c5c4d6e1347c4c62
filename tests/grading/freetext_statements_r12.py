"""Round 12 (issue 14, engineer T): statements written before any round-12 change.

True statements in voices unlike the labelled answers (lengths from a line to a paragraph,
analogies, code, contrasts with PyTorch/JAX/optax, denials of myths, hedges, non-native
English) about the ten core questions, and wrong statements that each state one known tell.
Each question's list is split by position: even positions are the tune half (read while
fixing), odd positions the held half (run only at the round's start and end).
docs/freetext-rounds.md "Round 12: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "Tell them to skip it. There's no optimizer.zero_grad() in Keras optimizers because tape.gradient returns fresh tensors; nothing sits on the variables waiting to be cleared.",
        "Honestly the answer is 'nowhere', and I'd say that's the biggest mindset shift coming from torch. The grads are just a Python list you get back, they die with the step.",
        "In JAX you'd never ask this either: grad(f)(params) is a pure function returning new arrays. TF's tape.gradient is the same idea, a return value, not accumulated state.",
        "The myth is that TF zeroes gradients for you behind the scenes. It doesn't need to: it never stores them anywhere to begin with.",
        "Maybe I'm oversimplifying, but I believe there is simply no accumulation buffer in TF, so the call has no counterpart and you can drop it.",
        "Gradient in TF is not save inside the weight like torch .grad. Each step you ask tape again and he give new list. So zero_grad is not exist and not needed.",
        "grads = tape.gradient(loss, model.trainable_variables)  # a new list every call\noptimizer.apply_gradients(zip(grads, model.trainable_variables))  # nothing to reset afterwards",
        "The PyTorch habit exists because backward() adds into .grad; people assume TF must have the same trap, but the tape just hands you the result and releases its recording once it's used.",
        "If you want accumulation in TF you build it yourself with variables you own and reset those, which is the only place anything like zero_grad shows up.",
    ],
    "gradient-vs-apply": [
        "tape.gradient is read-only with respect to the model: it walks the recorded ops backwards and gives d(loss)/d(var). apply_gradients is the write: it runs the optimizer's update rule on each variable. Only the second changes weights.",
        "Think of a GPS: tape.gradient tells you which way is downhill, apply_gradients actually takes the step. The map doesn't move your car.",
        "People sometimes assume computing gradients already nudges the weights. It doesn't; you could call tape.gradient a hundred times on a persistent tape and the model would be identical.",
        "Roughly: gradient is loss.backward() minus the side effect of storing into .grad, and apply_gradients is optimizer.step(). The weights change in apply_gradients, in place, via assign ops.",
        "apply_gradients takes (gradient, variable) pairs, updates the variables in place using the learning rate and whatever state (momentum, Adam's moments) the optimizer keeps, and increments its iterations counter.",
        "The first one is only a calculation, I think of it as 'measure'. The second is 'act'. Weights are changed by the optimizer one, apply_gradients.",
        "tape.gradient doesn't return new weights and it doesn't apply a learning rate, it's just the raw derivatives; the learning rate shows up only inside apply_gradients.",
        "In optax terms: tape.gradient is jax.grad, apply_gradients is optimizer.update plus apply_updates fused, except TF mutates the variables instead of returning new params.",
        "Weight change happens in apply_gradients. The gradient call is pure math with no side effects on variables - even for Adam, the moment estimates are only touched when you apply.",
    ],
    "why-none-gradients": [
        "Nine times out of ten the forward pass or the loss line sits after the with block. The tape only knows ops that ran while it was open, so it sees no link from loss to the weights and gives None. Indent the loss into the block.",
        "None here doesn't mean a zero gradient - it means disconnected. Zero would mean connected but flat. So look for the loss computed outside the tape.",
        "It's like a security camera that was switched off when the thief came in: the footage has nothing about the loss, so tape.gradient cannot trace it back and returns None for every weight.",
        "You don't need to tape.watch trainable variables, they're watched automatically. The None comes from the computation not being recorded, usually because loss = loss_fn(...) was dedented.",
        "with tf.GradientTape() as tape:\n    preds = model(x, training=True)\nloss = loss_fn(y, preds)  # outside: not recorded, so every gradient is None\n\nFix: move that last line inside the block.",
        "Maybe it's that the loss was computed after the tape closed? Then there's no recorded connection and TF returns None rather than raising. Moving it in fixes it.",
        "Watching the loss would not help: watch makes the tape record ops on a tensor from then on, it can't recover ops that already ran outside.",
        "The gradient is None because from the tape's view the loss is a constant unrelated to the variables. It's not an error condition in TF, just 'no path'.",
        "Unlike JAX, which gives zeros for an argument the output doesn't depend on, TF gives None when the target was not recorded. Most common reason: the loss computed outside the `with` block.",
    ],
    "numpy-inside-tape": [
        "The .numpy() call leaves TensorFlow: the tape can't record NumPy math, so the chain is broken at h. The layers before h get None; the layers after h still get real gradients, because their ops were recorded from the new tensor on.",
        "It trains silently wrong: the first layers stop learning because their gradient is None, while the later layers keep training.",
        "Think of the tape as a receipt: the NumPy part was paid in cash, off the books, so there's no way to trace the cost back through it.",
        "No error is raised because the next layer converts the NumPy array back to a tensor and carries on; but that new tensor is a constant from the tape's point of view, with no history.",
        "The fix is to write the NumPy bit with TensorFlow ops so the tape can record it, or to give it a custom gradient.",
        "In PyTorch, .numpy() on a tensor that requires grad raises an error; TF is not so strict, it just quietly cuts the graph there.",
        "The variables upstream of the conversion end up with None gradients; not zero, None, since there's no path.",
        "Watching the new tensor afterwards won't reconnect it to the layers that produced the old one.",
        "I suppose the gradients for the weights after the numpy step are fine, since those ops are taped again, but anything before it gets None and silently stops training.",
    ],
    "persistent-tape": [
        "A normal tape frees its recording after the first gradient() call to save memory, so the second call has nothing to work with: RuntimeError. Make it persistent=True, call gradient twice, then del tape.",
        "By default the tape is one-shot, like a disposable camera. persistent=True gives you a reusable one; just get rid of it (del tape) when done since it keeps the intermediate tensors alive.",
        "with tf.GradientTape(persistent=True) as tape:\n    l1, l2 = losses(model(x))\ng1 = tape.gradient(l1, vars)\ng2 = tape.gradient(l2, vars)\ndel tape  # release the recorded activations",
        "It's not that the loss tensor is consumed; it's the tape that releases its resources after one gradient call. A persistent tape keeps them.",
        "Unlike PyTorch's retain_graph=True on backward(), TF's knob is on the tape itself: GradientTape(persistent=True).",
        "You could also open two tapes around the same forward pass, both recording at once, and ask each for one gradient; that avoids persistence but records everything twice.",
        "The tape only allows one gradient call unless persistent is set; when you're done with a persistent tape, drop the reference so Python can free it.",
        "Error come because the tape release the memory after first gradient. Put persistent=True and then both gradient work. After finish, delete tape with del.",
        "Persistent tapes aren't free: they hold every intermediate until deleted. That's why the default is non-persistent.",
        "Summing the two losses would give the gradient of the sum, not each one separately, so it's no substitute when you need both.",
    ],
    "higher-order-derivatives": [
        "Nest two tapes: the outer one records while the inner one computes dy/dx inside the outer's block; then outer.gradient(dy_dx, x) gives d2y/dx2. It works because the inner gradient computation is itself made of ops the outer tape records.",
        "with tf.GradientTape() as t2:\n    with tf.GradientTape() as t1:\n        y = x**3\n    dy = t1.gradient(y, x)\nd2y = t2.gradient(dy, x)",
        "Neither tape has to be persistent; each one is asked for only one gradient.",
        "Like jax.grad(jax.grad(f)), differentiating the derivative, except in TF you express it as one tape recording another tape's gradient call.",
        "The key is ordering: the first derivative must be computed while the outer tape is still open, otherwise the outer tape never sees those ops and returns None.",
        "If x is a tf.constant you need tape.watch(x) on both tapes, the inner watch doesn't carry over to the outer one; with a tf.Variable both watch it automatically.",
        "persistent=True alone won't give you a second derivative; what matters is that the gradient computation is recorded by an enclosing tape.",
        "Inner tape = first derivative, outer tape = derivative of that. The outer sees the inner's gradient ops because they ran inside its context.",
        "I'm not 100% sure, but I don't think there's a tape.hessian method; for a full Hessian you'd take the outer tape's jacobian of the inner gradient, and for a scalar second derivative outer.gradient is enough.",
    ],
    "tf-function-speedup": [
        "Eager runs op by op from Python, paying interpreter and dispatch overhead for each small op. tf.function traces the step once into a graph that TF can optimise (fusing, pruning) and run without going back to Python. Small models with many tiny ops gain the most; big convnets are dominated by the kernels themselves.",
        "It's not about the GPU - eager already uses the GPU. The speedup is removing Python overhead, so small, op-heavy models benefit most.",
        "Analogy: eager is a chef reading a recipe aloud line by line; tf.function hands him the whole recipe card up front. For a dish with two huge steps it barely matters, for a hundred tiny steps it matters a lot.",
        "XLA is not on by default - you need jit_compile=True for that; plain tf.function's win is graph execution without per-op Python.",
        "A big ResNet on a GPU spends almost all its time inside matmul and conv kernels, so the Python overhead tf.function removes is a small share: the gain is small there.",
        "like torch.compile a bit, but even without compiling kernels the graph avoids the Python trip per op. Gain is biggest when model small and many ops.",
        "The gradients aren't cached between calls; each step still runs the full backward pass, just inside the graph.",
        "Overhead-bound models (small MLPs, RNN cells with many small ops, custom loops with lots of scalar math) gain the most. Compute-bound ones don't gain much.",
        "Beware retracing when you pass Python scalars that change: each new value can trigger a new trace, which is slow.",
    ],
    "trainable-vs-all-variables": [
        "model.variables also holds non-trainable state like BatchNorm's moving_mean and moving_variance. Those aren't learned by gradient descent; the layer updates them itself during training=True calls. So you differentiate and update only trainable_variables.",
        "Frozen layers (trainable=False) and BN statistics are in variables but not in trainable_variables; their gradients would come back None, and handing those to apply_gradients is pointless (Keras just warns and skips them).",
        "Because the optimizer should only touch what's meant to be learned. It's like handing a painter only the walls you want painted, not the furniture.",
        "In PyTorch you'd pass model.parameters(), which excludes buffers like running_mean; trainable_variables is the TF counterpart, and model.variables is parameters plus buffers.",
        "The optimizer's own slot variables are not in model.variables - they belong to the optimizer. The difference is the model's non-trainable weights.",
        "If you passed model.variables, the BN moving stats would get None gradients, and the optimizer might even create slots for them for nothing.",
        "trainable_variables is a subset of variables. The extra ones are non-trainable: BN moving averages, frozen layers' weights, counters some layers keep.",
        "Not a big deal for a plain Dense model, there they're the same list, but as soon as you have BatchNorm or freeze a backbone they differ, and only the trainable list should get updates.",
        "A variable created with trainable=False is not watched automatically by the tape, so its gradient would come back None anyway.",
    ],
    "training-flag": [
        "training=True switches the layers that behave differently in training: Dropout actually drops units, BatchNorm normalises with the batch's statistics and updates its moving averages. Leave it out and the call runs in inference mode: no dropout, BN uses its moving stats and doesn't update them.",
        "It doesn't affect whether gradients are recorded - the tape records either way. It changes layer behaviour.",
        "Without it the model trains, but wrongly: no dropout regularisation, and BN's moving statistics never get updated, so at evaluation the model uses stale stats.",
        "It's a per-call argument, not a mode that sticks like PyTorch's model.train(); every call decides for itself.",
        "The optimizer doesn't care about the flag at all; BN's moving averages are updated by the layer's own assign during the training-mode forward pass, not by apply_gradients.",
        "Dropout on with True, off with False. Nothing crash if you forget, that's the danger, training just goes differently.",
        "model.fit passes training=True for you; in a hand-written loop you have to pass it yourself.",
        "training=True is like a rehearsal where understudies randomly swap in (dropout) and the lighting is set per scene (batch stats); training=False is the fixed final performance.",
        "Leaving it out does not stop learning; the weights still get gradients and updates, but the regularisation and BN behaviour are those of inference.",
    ],
    "gradient-accumulation": [
        "Keep a list of zero tensors shaped like trainable_variables. For each of the 4 micro-batches: open a tape, compute the loss, get the grads, add them to the accumulators. After the 4th, divide by 4 (each loss was a mean), call apply_gradients once, and reset the accumulators to zero.",
        "accum = [tf.zeros_like(v) for v in model.trainable_variables]\nfor xb, yb in micro_batches:\n    with tf.GradientTape() as tape:\n        loss = loss_fn(yb, model(xb, training=True)) / 4\n    grads = tape.gradient(loss, model.trainable_variables)\n    accum = [a + g for a, g in zip(accum, grads)]\noptimizer.apply_gradients(zip(accum, model.trainable_variables))",
        "One tape per micro-batch, so each micro-batch's activations are freed before the next; holding one tape over all four would bring the memory problem back.",
        "TF won't accumulate anything on its own - each tape.gradient call returns independent tensors, so the summing is your job.",
        "Average, don't just sum: with mean losses, the mean of the four micro-batch gradients equals the 256-batch gradient (for equal sizes).",
        "Apply once per 4 micro-batches, not after each - applying every time is just training with batch 64.",
        "BatchNorm will still see batches of 64 for its statistics; accumulation fixes the gradient, not BN's batch stats.",
        "It is like collecting votes in four rooms and counting them together before deciding; you don't announce after each room.",
        "Scale each micro-batch loss by 1/4 before taking its gradient, or scale the summed gradients by 1/4 at the end - same result.",
        "Unlike PyTorch where you'd skip zero_grad to let .grad accumulate, in TF you keep the running sum yourself and reset it after the update.",
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "Call optimizer.zero_grad() right before tape.gradient, otherwise the last step's gradients get added in.",
            "needs-zero-grad",
        ),
        (
            "I'm fairly sure the tape keeps adding up gradients between steps, so you reset it every iteration.",
            "tape-accumulates",
        ),
        (
            "No need, apply_gradients zeroes the gradients for you after it applies them.",
            "optimizer-clears-grads",
        ),
        (
            "tape.gradient writes the gradients onto each variable, same as .grad in PyTorch.",
            "grads-stored-on-variables",
        ),
        (
            "TF need no zero_grad because tf.function graphs are stateless, zero_grad is only eager thing.",
            "graph-mode-explains-no-zero-grad",
        ),
    ],
    "gradient-vs-apply": [
        (
            "tape.gradient updates the weights with the gradients; apply_gradients just records them for logging.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients returns the new weights and you assign them back to the model yourself.",
            "apply-returns-new-weights",
        ),
        (
            "apply_gradients computes the gradients from the loss and then applies them.",
            "apply-computes-gradients",
        ),
        ("The weights get updated when the tape's with block exits.", "update-at-tape-exit"),
        (
            "apply_gradients is basically a plain SGD step, the momentum only happens in minimize().",
            "apply-ignores-optimizer-rule",
        ),
    ],
    "why-none-gradients": [
        (
            "You forgot tape.watch on the trainable variables; the tape doesn't watch variables automatically.",
            "must-watch-variables",
        ),
        ("Call tape.watch(loss) and the gradients will show up.", "watch-loss-fixes-none"),
        (
            "The gradients are None until apply_gradients has run once, it's normal on the first step.",
            "none-before-first-step",
        ),
        (
            "The model must be compiled with model.compile before tape.gradient returns gradients.",
            "needs-compile-for-gradients",
        ),
        (
            "It is fine to compute the loss after the with block, the tape still sees it.",
            "loss-outside-is-fine",
        ),
    ],
    "numpy-inside-tape": [
        (
            "The tape records the NumPy operations too, so the gradients are fine.",
            "numpy-is-recorded",
        ),
        ("Calling .numpy() inside a tape raises an error right away.", "numpy-raises-error"),
        (
            "Every variable in the model gets None, including the layers after the numpy step.",
            "numpy-kills-all-gradients",
        ),
        (
            "You get zero gradients rather than None, because the numpy step breaks the chain.",
            "numpy-gives-zero-gradients",
        ),
        (
            "Call tape.watch on the new tensor and it reconnects to the earlier layers.",
            "watch-reattaches-history",
        ),
    ],
    "persistent-tape": [
        (
            "The first tape.gradient call consumes the loss tensor, so you recompute the forward pass for the second loss.",
            "gradient-consumes-target",
        ),
        (
            "A persistent tape costs nothing extra, you never need to delete it.",
            "persistent-is-free",
        ),
        (
            "Create one persistent tape before the training loop and reuse it every step.",
            "persistent-spans-steps",
        ),
        ("When you're done, call tape.close() to release it.", "tape-close-method"),
        (
            "The second call fails because the second loss isn't watched; tape.watch(loss2) fixes it.",
            "target-must-be-watched",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Just call tape.gradient twice on the same tape: first for dy/dx, then on that result for d2y/dx2.",
            "gradient-twice-same-tape",
        ),
        (
            "Setting persistent=True is what gives you the second derivative.",
            "persistent-gives-second-order",
        ),
        (
            "Take the first derivative after the outer block has closed, then call outer.gradient on it.",
            "gradient-outside-outer-tape",
        ),
        (
            "The outer tape computes the first derivative and the inner tape computes the second.",
            "nesting-order-reversed",
        ),
        ("You pass order=2 to tape.gradient.", "gradient-order-argument"),
    ],
    "tf-function-speedup": [
        ("tf.function is what moves the computation onto the GPU.", "tf-function-uses-gpu"),
        ("Big models gain the most from tf.function.", "big-models-gain-most"),
        ("tf.function compiles everything with XLA by default.", "tf-function-is-xla"),
        (
            "tf.function caches the gradients, so later steps get the backward pass almost for free.",
            "graph-caches-gradients",
        ),
    ],
    "trainable-vs-all-variables": [
        ("Passing model.variables is fine, it is the same list anyway.", "variables-are-the-same"),
        (
            "model.variables includes the optimizer's Adam moments and its iteration counter.",
            "variables-include-optimizer-slots",
        ),
        (
            "If you passed the BN moving mean, gradient descent would move it with real gradients.",
            "bn-stats-get-gradients",
        ),
        ("apply_gradients crashes when it gets a None gradient.", "none-gradient-crashes-apply"),
    ],
    "training-flag": [
        (
            "training=True is what makes the tape record the gradients.",
            "training-flag-enables-gradients",
        ),
        (
            "Inside a GradientTape Keras sets training=True automatically, so leaving it out changes nothing.",
            "training-auto-detected-in-tape",
        ),
        ("Without training=True the model doesn't learn at all.", "missing-flag-stops-learning"),
        (
            "BatchNorm's moving averages are updated by the optimizer in apply_gradients.",
            "bn-stats-updated-by-optimizer",
        ),
        (
            "training=True works like model.train(): it stays in training mode until you switch it back.",
            "training-flag-is-persistent-mode",
        ),
    ],
    "gradient-accumulation": [
        (
            "Apply the gradients after every micro-batch with a quarter of the learning rate.",
            "apply-every-micro-batch",
        ),
        (
            "Keep one tape open across all four micro-batches and call gradient at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "TensorFlow accumulates the gradients automatically if you don't reset them.",
            "tape-accumulates",
        ),
        (
            "Just sum the four gradients of the mean losses; that is exactly the batch-256 gradient.",
            "summed-gradients-equal-big-batch",
        ),
        (
            "Accumulation also gives BatchNorm the statistics of all 256 examples.",
            "accumulation-matches-batchnorm",
        ),
    ],
}


def true_statements(*, held: bool) -> list[tuple[str, str]]:
    """(question id, statement) pairs of one half of the true statements."""
    return true_halves(TRUE, held=held)


def wrong_statements(*, held: bool) -> list[tuple[str, str, str]]:
    """(question id, statement, expected tag) triples of one half of the wrong statements."""
    return wrong_halves(WRONG, held=held)
