"""Round 13 (issue 14, engineer T): statements written before any round-13 change.

True statements shaped like the causes of round 12's fresh false tells and others expected:
a quantifier scoped to one part, an exception or qualification in brackets, a true qualified
fact, a mistake reported as other people's (in casual words too), a correct order told as
steps, an alternative cause in a list, "only" restrictions, long answers naming both calls,
contrasts and conditionals, in voices unlike the labelled answers (review comments, chat,
memos, exam keys, slang). Wrong statements each state one known tell. Each question's list
is split by position: even positions are the tune half (read while fixing), odd positions
the held half (run only at the round's start and end).
docs/freetext-rounds.md "Round 13: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "Step one: compute the loss under the tape. Step two: ask the tape for the gradients. Step three: hand them to apply_gradients. There is no step four where you zero anything, since each call of tape.gradient returns brand-new tensors.",
        "What folks coming from torch get wrong is thinking the gradients pile up on the weights between steps; in TF they never do (they're just return values).",
        "The tape does keep something, its recording of the forward ops, but not the gradients, and it drops even that after the first gradient() call unless it is persistent.",
        "Review comment: please remove the zero_grad helper. Our grads list is rebuilt by tape.gradient every iteration, so there is nothing stale for it to clear.",
        "All of the gradient tensors are new on every step (except, of course, if you deliberately keep your own accumulator variables, which you would then reset yourself).",
        "Only if you accumulate by hand across steps does anything need resetting, and then it is your accumulator, not an optimizer method.",
        "The optimizer keeps state - Adam's moments, the iteration count - but no gradient buffer, so there is nothing for a zero_grad to clear.",
        "In short: torch stores, TF returns. optimizer.zero_grad() exists in torch because backward() adds into .grad; TF has no .grad to add into.",
        "ok so basically nah u dont zero anything lol, tape.gradient just gives u a fresh list each time, nothing builds up",
    ],
    "gradient-vs-apply": [
        "Let me lay out the two halves of a step. First the tape has recorded the forward pass. When you call tape.gradient(loss, vars) it walks that record backwards and returns one tensor per variable: the derivative of the loss with respect to it. The variables themselves are untouched at that point; you could print them and see the old values. Then optimizer.apply_gradients(zip(grads, vars)) takes each pair and writes the new value into the variable, using the learning rate and, for Adam, its moment estimates. So the write, the only change to the weights, belongs to apply_gradients.",
        "tape.gradient only reads; the update of each weight is apply_gradients' job, which assigns the new value in place.",
        "The common mix-up, as people put it, is 'gradient() already trains the model'. It doesn't: it returns numbers and nothing else.",
        "apply_gradients updates every variable it is given a gradient for (apart from pairs whose gradient is None, which it skips with a warning).",
        "If you call tape.gradient and forget apply_gradients, the loss stays flat forever, because the weights never change.",
        "Call gradient first, get the list; then, still in the same step, call apply_gradients with the list zipped to the variables. Only after that second call are the weights different.",
        "Compute, then commit: the gradient call is the compute, apply_gradients is the commit, and the optimizer's slot variables, like the weights, are only touched at the commit.",
        "tape.gradient returns a list of tensors that lines up with the variables you passed; it changes neither the variables nor the optimizer. apply_gradients consumes (gradient, variable) pairs and is the one call that assigns to the weights.",
        "Short version for a manager: one call measures the slope, the other call moves the weights. It's the second that modifies the model.",
    ],
    "why-none-gradients": [
        "the thing ppl mess up is putting loss = ... one indent too far left, so it runs after the tape closed and every gradient comes back None",
        "The tape records TensorFlow ops only while it's open. The loss line ran after the block, so there's no recorded path, and you get None for all of the weights.",
        "Possible causes, in order of likelihood: the loss computed outside the with block, a NumPy call in the middle, or variables created as constants. In this code it is the first one.",
        "tape.gradient does not raise here; it returns None (not zeros) for every variable because nothing connects them to the loss on the tape.",
        "Check: is model(x) inside the with? Yes. Is the loss inside? No - it's dedented. That's why: the tape never saw the loss being computed, so all the gradients are None.",
        "apply_gradients would then raise an error if every gradient is None, which is often how people notice.",
        "Watch isn't the fix here; the weights are trainable variables and watched already. The fix is to compute the loss inside the tape.",
        "Only the ops executed inside the context get recorded (the forward pass was, the loss wasn't), so the chain from loss back to the weights is missing and TF reports None.",
        "I'd guess someone refactored and pulled the loss out of the block; moving it back in gives real gradients instead of None.",
    ],
    "numpy-inside-tape": [
        "The encoder gets None for all its weights, while the decoder, after the numpy call, trains normally.",
        "Walk through it: first layer runs (taped), .numpy() leaves TF (not taped), np.tanh runs (not taped), the next layer takes the array as a fresh constant (taped from here). Gradients flow back only to that point.",
        "GradientTape records TensorFlow ops only, so the NumPy detour is invisible to it and the path back to the early layers is cut.",
        "Nothing crashes (unless you are inside tf.function, where .numpy() isn't available), which makes this bug nasty.",
        "What people usually expect is an exception; what actually happens is silent: None for the variables before the NumPy step.",
        "The later layers do get gradients, since everything from the re-converted tensor onward is recorded.",
        "Replace np.tanh with tf.math.tanh and keep the whole thing as tensors; then every layer gets a gradient.",
        "Everything upstream of h is frozen in effect: their gradients are None, so the optimizer leaves them alone (with a warning).",
        "Not zero gradients - None. The tape has no record linking those variables to the loss, which is different from a recorded path whose derivative happens to be zero.",
    ],
    "persistent-tape": [
        "Open the tape with persistent=True, compute both losses inside, leave the block, call gradient for the first loss and then for the second, and finally del the tape.",
        "By default a tape's resources are released as soon as gradient() is called once, so any second call raises a RuntimeError.",
        "The error is only about the second call on a non-persistent tape (the first call always works).",
        "A persistent tape holds on to the intermediate activations until you delete it, which is why it isn't the default.",
        "Alternatively, if you just need the gradient of the total, sum the losses and call gradient once; but that gives the sum, not each loss's gradients.",
        "The rule of thumb people repeat is 'one tape, one gradient' - true for the default tape, and persistent=True is the exception.",
        "You could also use two tapes over the same forward pass; each tape is asked once, so neither needs to be persistent.",
        "A persistent tape can be asked for as many gradients as you like, for any targets it recorded, until you drop the last reference to it.",
        "ngl the fix is literally persistent=True, then call gradient twice, then del tape so the memory goes back",
    ],
    "higher-order-derivatives": [
        "Leave the inner block, but while you're still inside the outer one, call inner.gradient; then close the outer block and call outer.gradient on that result.",
        "Two nested tapes, no persistence needed; the outer one must be open while the first derivative is computed.",
        "The outer tape records the inner gradient computation as ordinary ops, which is why it can differentiate it again.",
        "Calling outer.gradient on the first derivative works only when that first derivative was computed inside the outer tape's block; otherwise you get None.",
        "For x a variable both tapes watch it automatically (with a constant you'd watch it on each tape).",
        "Typical slip: people take the first derivative after the outer block has closed, and then get None. Do it inside.",
        "A persistent tape is not a shortcut to second derivatives; nesting is.",
        "Think of it as recording a recording: the outer tape films the inner tape doing its gradient, and then you rewind the film.",
        "For a vector x, outer.gradient of the first derivative gives the sum of each Hessian row, not the full Hessian; outer.jacobian gives the full matrix.",
    ],
    "tf-function-speedup": [
        "The speedup is largest for small models with many cheap ops; it is small for big models (apart from cases where graph optimisations like fusion help a lot).",
        "Python overhead per op is what tf.function removes; a model whose time goes into a few huge matmuls doesn't have much of it to remove.",
        "People often say 'tf.function makes it run on the GPU'; it doesn't - eager already runs on the GPU.",
        "XLA is opt-in (jit_compile=True); tf.function by itself only traces and runs a graph.",
        "Trace once, then run the graph: from the second call on, no Python runs per op, only the graph executes.",
        "Big models gain least, small ones most, because the fixed cost per op is a bigger share of a small op.",
        "Gradients are not cached: every call still runs the backward pass, it's just inside the graph.",
        "Only the Python-side overhead goes away; the kernels themselves run at the same speed in both modes.",
        "Steps: trace the function (slow, once), build the graph, optimise it, then call the graph each step without Python. The gain is big when ops are tiny and numerous.",
    ],
    "trainable-vs-all-variables": [
        "model.variables = trainable + non-trainable; the non-trainable ones (BN's moving mean/variance, frozen weights) are not meant to get gradients.",
        "The BN moving statistics are updated by the layer itself in training mode, not by the optimizer.",
        "For a model with no BatchNorm and nothing frozen the two lists happen to be the same; in general they aren't.",
        "Passing model.variables would ask for gradients of the moving stats, which come back None, and the optimizer would warn about them (or raise if all of them were None).",
        "What the optimizer should get is exactly what is meant to learn: trainable_variables.",
        "Non-trainable doesn't mean constant - the moving averages do change every training step, just not by gradient descent.",
        "The optimizer's slots live in the optimizer, not in model.variables; the extra entries in model.variables are the model's own non-trainable weights.",
        "If you freeze a layer with layer.trainable = False, its weights move from trainable_variables to non_trainable_variables but stay in variables.",
        "Using model.variables is wasteful at best: the tape would be asked about weights that aren't trained.",
    ],
    "training-flag": [
        "training=True turns on dropout and makes BatchNorm use batch statistics and update its moving averages; leave it out and you get inference behaviour.",
        "The flag doesn't change what the tape records; gradients are computed either way.",
        "Without the flag the model still learns (the weights get gradients and are updated), just with inference-mode dropout and BN.",
        "BN's moving averages are updated by the layer during a training=True call (not by apply_gradients).",
        "It's passed per call, unlike PyTorch's model.train(), which flips a mode that sticks.",
        "Keras's fit() passes training=True itself; in a custom loop nobody does it for you.",
        "What people get wrong is thinking the tape turns on training mode; it doesn't, you have to pass the flag.",
        "No error if it's missing; only the behaviour of Dropout and BatchNorm changes.",
        "Step by step: call model(x, training=True) inside the tape, compute the loss, take gradients, apply them. At evaluation call model(x, training=False).",
    ],
    "gradient-accumulation": [
        "Four micro-batches of 64, each loss a mean: the average of the four gradients equals one batch of 256 (apart from BN batch statistics).",
        "Keep accumulators as tf.Variables, zero them after each apply, add each micro-batch's gradients, and apply once every four micro-batches.",
        "One tape per micro-batch; the tape is thrown away after its gradient call, and only your accumulators carry over.",
        "Nothing in TF accumulates for you: tape.gradient returns new tensors each time, so the sum is yours to keep.",
        "Divide the summed gradients by 4 (the number of micro-batches), not by 256, since each loss is already a mean over its 64 examples.",
        "Applying after every micro-batch is the mistake people usually make; that's four updates of batch 64, not one of 256.",
        "After the update, reset the accumulators to zero (assign zeros), or the next cycle adds onto the old sums.",
        "Only BatchNorm differs: it still computes its statistics over 64 examples, not 256.",
        "Steps: zero the sums; for each micro-batch open a tape, forward, loss, gradient, add; after the fourth, scale by 1/4, apply_gradients, and zero the sums again.",
        "The tape doesn't accumulate anything and neither does the optimizer; summing is done by your own code.",
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "You have to call optimizer.zero_grad() after apply_gradients, or the old gradients get added to the next ones.",
            "needs-zero-grad",
        ),
        (
            "The tape accumulates gradients across steps unless you create a new one.",
            "tape-accumulates",
        ),
        (
            "apply_gradients zeroes the gradients for you after it updates, that's why you don't need zero_grad.",
            "optimizer-clears-grads",
        ),
        (
            "tape.gradient stores the gradient on each variable, just like .grad.",
            "grads-stored-on-variables",
        ),
        (
            "TF needs no zero_grad because tf.function graphs are rebuilt every step.",
            "graph-mode-explains-no-zero-grad",
        ),
    ],
    "gradient-vs-apply": [
        (
            "tape.gradient already updates the weights; apply_gradients just logs the step.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients returns the new weights, and you assign them back to the model.",
            "apply-returns-new-weights",
        ),
        (
            "apply_gradients computes the gradients from the loss and then applies them.",
            "apply-computes-gradients",
        ),
        (
            "tape.gradient reruns the forward pass to get the derivatives.",
            "gradient-reruns-forward",
        ),
        (
            "apply_gradients is a plain SGD step; Adam's moments are only used in model.fit.",
            "apply-ignores-optimizer-rule",
        ),
    ],
    "why-none-gradients": [
        (
            "You need to call tape.watch on every trainable variable, otherwise the gradients are None.",
            "must-watch-variables",
        ),
        ("Call tape.watch(loss) and the None goes away.", "watch-loss-fixes-none"),
        (
            "The gradients are None because apply_gradients hasn't run yet in the first step.",
            "none-before-first-step",
        ),
        ("The None must come from the learning rate being zero.", "none-means-zero-signal"),
        (
            "You must compile the model before tape.gradient can return anything but None.",
            "needs-compile-for-gradients",
        ),
    ],
    "numpy-inside-tape": [
        (
            "The tape records the NumPy operations too, so the gradients are fine.",
            "numpy-is-recorded",
        ),
        ("Calling .numpy() inside the tape raises an error right away.", "numpy-raises-error"),
        (
            "Every variable, including the layers after the numpy call, gets None.",
            "numpy-kills-all-gradients",
        ),
        (
            "The layers after the numpy conversion lose their gradients while the earlier ones still train.",
            "downstream-loses-gradients",
        ),
        (
            "You just get zero gradients for the early layers instead of None.",
            "numpy-gives-zero-gradients",
        ),
    ],
    "persistent-tape": [
        (
            "Tapes keep their recording by default, so the second call fails for another reason.",
            "persistent-by-default",
        ),
        ("A persistent tape costs nothing, so you never need to delete it.", "persistent-is-free"),
        (
            "The first gradient call consumes the loss tensor, so the second loss can't be differentiated.",
            "gradient-consumes-target",
        ),
        (
            "Call tape.reset() between the two gradient calls and the default tape works twice.",
            "tape-reset-allows-second-gradient",
        ),
        (
            "Summing the two losses and calling gradient once gives each loss's gradient separately.",
            "sum-losses-gives-each-gradient",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Just call tape.gradient twice on the same ordinary tape to get the second derivative.",
            "gradient-twice-same-tape",
        ),
        (
            "Set persistent=True and the tape gives second derivatives.",
            "persistent-gives-second-order",
        ),
        (
            "The outer tape takes the first derivative and the inner tape the second one.",
            "nesting-order-reversed",
        ),
        ("Nested tapes only work if both are persistent.", "nested-tapes-need-persistent"),
        ("Use tape.hessian(y, x) for the second derivative.", "tape-has-hessian"),
    ],
    "tf-function-speedup": [
        (
            "tf.function is faster because it moves the computation onto the GPU.",
            "tf-function-uses-gpu",
        ),
        ("Large models gain the most from tf.function.", "big-models-gain-most"),
        ("tf.function compiles the step with XLA by default.", "tf-function-is-xla"),
        (
            "The graph caches the gradients so the backward pass is skipped after the first call.",
            "graph-caches-gradients",
        ),
        ("The speedup is the same for every kind of model.", "tf-function-gain-universal"),
    ],
    "trainable-vs-all-variables": [
        (
            "Passing model.variables is better because it updates everything.",
            "pass-model-variables",
        ),
        ("model.variables includes Adam's slot variables.", "variables-include-optimizer-slots"),
        (
            "The BN moving mean would get real gradients and be trained by the optimizer.",
            "bn-stats-get-gradients",
        ),
        ("apply_gradients crashes as soon as one gradient is None.", "none-gradient-crashes-apply"),
        ("trainable_variables and variables are the same list.", "variables-are-the-same"),
    ],
    "training-flag": [
        (
            "training=True is what makes the tape record gradients.",
            "training-flag-enables-gradients",
        ),
        (
            "training=True tells the optimizer to update the weights.",
            "training-flag-is-optimizer-mode",
        ),
        ("Without the flag the model doesn't learn at all.", "missing-flag-stops-learning"),
        ("Leaving out training= raises an error in a custom loop.", "missing-training-flag-errors"),
        ("BatchNorm ignores the training flag.", "batchnorm-ignores-training-flag"),
    ],
    "gradient-accumulation": [
        (
            "Just skip the reset and TF accumulates the gradients across micro-batches by itself.",
            "tape-accumulates",  # tf-accumulates-automatically until engineer C merged the two (round 13),
        ),
        (
            "Apply the gradients after every micro-batch with a learning rate divided by 4.",
            "apply-every-micro-batch",
        ),
        (
            "Keep one tape open across all four micro-batches and take the gradient at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "Summing the four mean-loss gradients gives exactly the batch-256 gradient.",
            "summed-gradients-equal-big-batch",
        ),
        (
            "Accumulation also reproduces BatchNorm's 256-example statistics.",
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
