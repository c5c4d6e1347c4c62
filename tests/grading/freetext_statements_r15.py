"""Round 15 (issue 14, engineer T): statements written before any round-15 change.

True statements in voices unlike any labelled answer: hedged, qualified, lists of causes,
contrasts with PyTorch and JAX, rhetorical questions answered, Stack Overflow style "Note:"
and "EDIT:" lines, analogies; many shaped like the structures left after round 14 (a clause
with its own subject after ",", "->", "=>" or an em-dash; an alternative cause in a list
without brackets; a quantifier scoped to a part; the arguments of `outer.gradient(...)`),
over the ten core questions. Wrong statements each state one known tell. Each question's
list is split by position: even positions are the tune half (read while fixing), odd
positions the held half (run only at the round's start and end).
docs/freetext-rounds.md "Round 15: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "tape.gradient returns brand-new tensors, nothing is stored on the variables, so there is nothing to clear before the next step.",
        "PyTorch -> gradients summed into .grad, you zero them; TensorFlow -> gradients returned by tape.gradient, nothing to zero.",
        "Is there a hidden buffer somewhere that keeps adding up? No — each call computes its result from scratch and hands it back to you.",
        "Note: if you keep running sums yourself for accumulation, you reset those, but that is your own variable, not something TF keeps.",
        "Honestly it's a design choice: gradients are values you pass around, not state on the weights => no stale gradients, no zero_grad.",
        "The optimizer has state, the tape has none left after gradient() — and neither of them holds last step's gradients.",
        "A new tape each step records a new forward pass, the old tape is gone, and its gradients were only ever local variables in your loop.",
        "EDIT: people coming from torch often look for optimizer.zero_grad(), it simply doesn't exist in Keras and isn't needed.",
        "Like asking a shop assistant for change, you get fresh coins every time, whereas torch's .grad is a jar you keep dropping coins into.",
    ],
    "gradient-vs-apply": [
        "tape.gradient computes the derivatives, apply_gradients uses them to change the weights.",
        "gradient() -> list of tensors, one per variable; apply_gradients(zip(grads, vars)) -> the variables are updated in place.",
        "Does calling tape.gradient move the model at all? Not one bit — it is read-only with respect to the weights.",
        "Note: the learning rate, momentum and so on live in the optimizer, so they only matter in apply_gradients, not in tape.gradient.",
        "In JAX you'd compute grads with jax.grad and then produce new params with optax, TF does the same split but assigns the new values into the variables.",
        "The first is the measurement, the second is the adjustment — you could measure without ever adjusting, e.g. to log gradient norms.",
        "apply_gradients doesn't hand back new weights, it changes the variables you passed in place.",
        "I'd put it this way: gradient tells you the slope, apply_gradients takes the step, and only the step touches the model.",
        "If you call tape.gradient and never call apply_gradients, the loss stays exactly where it was, the weights never change.",
    ],
    "why-none-gradients": [
        "The loss is computed after the with block, the tape stopped recording at the dedent, so gradient() finds no path and returns None for all of the weights.",
        "Loss outside the tape => nothing recorded => None for every trainable variable.",
        "Is it a watch problem? Unlikely — trainable variables are watched automatically, the missing piece is that the loss line isn't inside the block.",
        "Note: a single None usually means one variable isn't used, None for all its weights usually means the loss was never recorded.",
        "Possible causes are a loss outside the tape, a .numpy() in between, or variables the loss never touches; here, with all of them None, it's the first.",
        "In PyTorch autograd is always on, TF only records inside the GradientTape context, that's why moving the loss out silently breaks it.",
        "EDIT: moving `loss = loss_fn(y, pred)` one indentation level in, under the with statement, fixed it for me.",
        "Think of a voice recorder: you stopped it, then said the important sentence, the recording can't contain it.",
        "There is no error because None is how the tape says 'no connection', the step then fails later, or apply_gradients warns, but not at gradient().",
    ],
    "numpy-inside-tape": [
        "The weights before the .numpy() call get None, the weights after it train normally, and nothing raises.",
        "tf op -> .numpy() -> np maths -> back to a tensor: the tape sees only the tf parts, the NumPy detour is a gap in the record.",
        "Will it crash? No — eager mode allows .numpy(), the tape just can't trace through it, so upstream gradients come back as None.",
        "Note: layers downstream of the NumPy step still get proper gradients, the gap only cuts off what comes before it.",
        "In JAX the equivalent would fail loudly under jit, TF eager instead keeps going with a silently broken chain.",
        "Layers after it train, layers before it get None gradients, so half the network is effectively frozen.",
        "Replacing np.exp by tf.exp (and so on) keeps everything inside TF, the tape records it, and the gradients reach every layer again.",
        "It's like a relay race where one runner takes a taxi: the finish is reached, but the baton's path back to the start is lost.",
        "If you need NumPy, wrap it in tf.numpy_function and write the gradient with tf.custom_gradient, otherwise the early layers get no gradient.",
    ],
    "persistent-tape": [
        "A default tape frees its recording after one gradient() call, the second call raises a RuntimeError, and persistent=True is the fix.",
        "non-persistent tape -> one gradient call; persistent=True -> as many as you like until you del the tape.",
        "Why does the second call fail? Because the tape has already released what it recorded — it's single-use by default.",
        "Note: a persistent tape holds on to its intermediate tensors, so delete it when you're done, otherwise the memory stays in use.",
        "PyTorch raises a similar error without retain_graph=True, TensorFlow's counterpart is persistent=True on the tape.",
        "Two tapes over the same forward pass work too, one per loss, neither of them needs to be persistent.",
        "Summing the two losses gives one combined gradient, it doesn't give you each loss's gradient separately.",
        "EDIT: the error is raised at the second tape.gradient call, not when the with block closes.",
        "It's like a disposable camera: one roll, then it's done, persistent=True swaps it for one you can reuse until you throw it away.",
    ],
    "higher-order-derivatives": [
        "Nest the tapes, take the first derivative with the inner tape inside the outer block, then outer.gradient(dy_dx, x) gives the second derivative.",
        "inner tape -> dy/dx; outer tape records that computation -> outer.gradient(dy_dx, x) = d2y/dx2.",
        "Does either tape need persistent=True? No — each tape is asked for one gradient only.",
        "Note: outer.gradient(first, x) differentiates the first derivative with respect to x, the first argument is the target, the second the source.",
        "In JAX it's jax.grad(jax.grad(f)), with TF you get the same composition by nesting one tape inside another.",
        "The inner gradient call must run while the outer tape is still recording, otherwise the outer tape has nothing to differentiate and returns None.",
        "x is a tf.Variable here, so both tapes watch it automatically, a constant would need watch() on both.",
        "Picture two cameras, the inner one films the function, the outer one films the inner one's calculation — differentiate that film and you get the second derivative.",
        "With x = 3 and y = x**3 the inner tape gives 27, the outer gives 18, which is 6x as expected.",
    ],
    "tf-function-speedup": [
        "tf.function traces the step into a graph once, later calls run the graph, and the Python overhead per op disappears.",
        "small model, many tiny ops -> big relative gain; huge matmuls or convolutions -> the GPU was busy anyway, gain is small.",
        "Does it put the model on the GPU? No — eager ops already run on the GPU, the graph just removes the Python dispatch between them.",
        "Note: XLA is not used unless you pass jit_compile=True, the default gain comes from running a graph instead of Python.",
        "Compared with PyTorch's torch.compile it's a similar idea, TF traces the function and then executes the traced graph.",
        "The models that gain most are small ones with lots of cheap operations, the big ones are limited by the kernels themselves.",
        "Large batches => each op already takes long => Python overhead is a small share => little gain.",
        "EDIT: watch out for retracing, a new Python argument each call makes TF trace again, which can eat the gain.",
        "It's like booking a whole itinerary at once instead of buying each ticket at the station, the travel itself takes just as long.",
    ],
    "trainable-vs-all-variables": [
        "model.variables includes non-trainable ones like BatchNorm's moving mean and variance, those aren't learned by gradient descent.",
        "trainable_variables -> weights the optimizer should change; variables -> those plus the non-trainable state.",
        "Why not pass everything? Because the moving statistics get no gradient — they'd come back as None.",
        "Note: for a model without BatchNorm or frozen layers the two lists are the same, the difference only shows up once such layers exist.",
        "In PyTorch you pass model.parameters(), buffers like running_mean aren't included, trainable_variables plays that role in Keras.",
        "Frozen layers, BatchNorm statistics, anything with trainable=False — all of them are in variables but not in trainable_variables.",
        "BatchNorm updates its moving averages itself during a training=True call, the optimizer never touches them.",
        "Like a car's dashboard versus its controls, you can read every gauge, but you only steer with the wheel and pedals.",
        "Passing variables would make tape.gradient return None for the non-trainable ones, and apply_gradients then skips them with a warning.",
    ],
    "training-flag": [
        "training=True turns Dropout on, BatchNorm uses the batch statistics and updates its moving averages.",
        "training=True -> dropout active, BN batch stats; omitted -> inference behaviour, no dropout, BN moving averages.",
        "Will the gradients be missing without it? No — the tape records either way, only Dropout and BatchNorm behave differently.",
        "Note: model.fit passes training=True for you, a custom loop has to pass it itself.",
        "In PyTorch it's model.train() versus model.eval(), Keras passes the mode on each call instead.",
        "Without the flag the model still learns, dropout just never fires, so you lose its regularisation.",
        "BatchNorm's moving mean and variance are not updated when the flag is left out, they stay at their initial values.",
        "It's like practising a speech with the prompter on, Dropout and BatchNorm only do their training routine when you tell them it's practice.",
        "A model with neither Dropout nor BatchNorm behaves the same with or without it, the flag only matters for layers that read it.",
    ],
    "gradient-accumulation": [
        "Keep one zero-initialised tf.Variable per trainable weight, add each micro-batch's gradients, after four micro-batches apply the mean and reset them.",
        "micro-batch -> new tape -> gradients -> add to accumulators; every 4th -> apply_gradients(mean) -> zero the accumulators.",
        "Why divide by four? Each micro-batch loss is already a mean over 64, so averaging four of them gives the mean over 256.",
        "Note: BatchNorm still only sees 64 examples per forward pass, the accumulated gradient doesn't change that.",
        "In PyTorch .grad sums up across backward() calls on its own, in TF tape.gradient returns fresh tensors, so you add them yourself.",
        "Apply only once per four micro-batches, the optimizer's step counter then advances once per effective batch of 256.",
        "Forget the reset and the next cycle adds onto the old sums, your accumulators, not TF, keep them.",
        "EDIT: Keras 3 optimizers accept gradient_accumulation_steps=4, they accumulate and reset internally, so you can call apply_gradients every micro-batch.",
        "Like filling a bucket from four cups before watering the plant once, the bucket is emptied after each watering.",
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "You still have to call optimizer.zero_grad() each step, otherwise the old gradients are added to the new ones.",
            "needs-zero-grad",
        ),
        (
            "The tape adds the gradients of each step onto the previous ones until you open a new tape.",
            "tape-accumulates",
        ),
        (
            "apply_gradients resets the gradients to zero once it has used them, that's why there's no zero_grad.",
            "optimizer-clears-grads",
        ),
        (
            "Each variable stores its gradient on itself after tape.gradient, like .grad in torch.",
            "grads-stored-on-variables",
        ),
    ],
    "gradient-vs-apply": [
        (
            "tape.gradient updates the weights straight away, apply_gradients just logs the step.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients returns the new weights and you assign them to the model yourself.",
            "apply-returns-new-weights",
        ),
        (
            "apply_gradients works out the gradients from the loss and then applies them.",
            "apply-computes-gradients",
        ),
        (
            "tape.gradient reruns the forward pass to get the derivatives.",
            "gradient-reruns-forward",
        ),
    ],
    "why-none-gradients": [
        (
            "You have to call tape.watch on every weight, otherwise the gradients are None.",
            "must-watch-variables",
        ),
        (
            "Calling tape.watch(loss) before tape.gradient fixes the None gradients.",
            "watch-loss-fixes-none",
        ),
        (
            "The model has to be compiled before tape.gradient can return anything but None.",
            "needs-compile-for-gradients",
        ),
        (
            "None just means the gradient is zero, the weights are already at a minimum.",
            "none-means-zero-signal",
        ),
    ],
    "numpy-inside-tape": [
        (
            "The tape records the NumPy operations too, so the gradients are fine.",
            "numpy-is-recorded",
        ),
        (
            "As soon as you call .numpy() inside the tape, TensorFlow raises an error.",
            "numpy-raises-error",
        ),
        (
            "All the layers, before and after the NumPy code, get None gradients.",
            "numpy-kills-all-gradients",
        ),
        (
            "The layers before the NumPy code get gradients of zero, not None.",
            "numpy-gives-zero-gradients",
        ),
    ],
    "persistent-tape": [
        (
            "GradientTape is persistent by default, so calling gradient twice is fine.",
            "persistent-by-default",
        ),
        (
            "persistent=True costs no extra memory, so there's no reason to delete the tape.",
            "persistent-is-free",
        ),
        (
            "Call tape.reset() after the first gradient and the default tape will give you the second one.",
            "tape-reset-allows-second-gradient",
        ),
        (
            "The first gradient call consumes the loss tensor, which is why the second one fails.",
            "gradient-consumes-target",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Call gradient twice on the same tape, the second call returns the second derivative.",
            "gradient-twice-same-tape",
        ),
        (
            "A single persistent tape gives the second derivative by itself.",
            "persistent-gives-second-order",
        ),
        (
            "Both tapes must be created with persistent=True for nested derivatives to work.",
            "nested-tapes-need-persistent",
        ),
        (
            "GradientTape can only compute first derivatives, second derivatives need finite differences.",
            "tape-first-order-only",
        ),
    ],
    "tf-function-speedup": [
        (
            "tf.function is faster because it moves the computation onto the GPU.",
            "tf-function-uses-gpu",
        ),
        (
            "The largest models benefit the most from tf.function.",
            "big-models-gain-most",
        ),
        (
            "tf.function compiles everything with XLA, that's the speedup.",
            "tf-function-is-xla",
        ),
        (
            "The graph caches the gradients after the first call, so backprop is skipped later.",
            "graph-caches-gradients",
        ),
    ],
    "trainable-vs-all-variables": [
        (
            "Passing model.variables is better, the optimizer then updates the BatchNorm statistics too.",
            "pass-model-variables",
        ),
        (
            "model.variables includes the optimizer's slot variables such as Adam's moments.",
            "variables-include-optimizer-slots",
        ),
        (
            "variables and trainable_variables always contain the same variables.",
            "variables-are-the-same",
        ),
        (
            "If any gradient is None, apply_gradients raises an error.",
            "none-gradient-crashes-apply",
        ),
    ],
    "training-flag": [
        (
            "training=True is what makes the tape record the gradients.",
            "training-flag-enables-gradients",
        ),
        (
            "Without training=True the model won't learn at all.",
            "missing-flag-stops-learning",
        ),
        (
            "Keras raises an error if you call the model without training= in a custom loop.",
            "missing-training-flag-errors",
        ),
        (
            "training=True lets the optimizer update the weights.",
            "training-flag-is-optimizer-mode",
        ),
    ],
    "gradient-accumulation": [
        (
            "Call apply_gradients after each micro-batch with the learning rate divided by four.",
            "apply-every-micro-batch",
        ),
        (
            "Open one tape over all four micro-batches and call gradient once at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "The tape sums the gradients across micro-batches by itself.",
            "tape-accumulates",
        ),
        (
            "With accumulation BatchNorm sees the statistics of all 256 examples.",
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
