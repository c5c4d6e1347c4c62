"""Round 17 (issue 14, engineer T): statements written before any round-17 change.

True statements in voices the labelled sets lack, over the ten core questions: a controls
engineer's analogies, a machine translation's calques, Gluon/MXNet, JAX and flax comparisons,
"it's not X, it's Y" denials, rhetorical questions answered at once, hedged conditionals, code
comments and quoted myths. Wrong statements each state one rubric misconception, some in the
same voices. Each question's list is split by position: even positions are the tune half (read
while fixing), odd positions the held half (run only at the round's start and end).
docs/freetext-rounds.md "Round 17: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "Think of a controller with no integrator: each step's error signal is computed fresh, nothing winds up from the previous step, so there is nothing to reset.",
        "In Gluon you set grad_req='add' if you wanted accumulation and then had to zero the grads yourself; TensorFlow keeps no such state, tape.gradient just returns new tensors each time.",
        "It's not that TensorFlow clears the gradients for you, it's that it never stores them anywhere: they're plain return values.",
        "The gradients are not kept in the variables, they are given back by tape.gradient as new tensors, so for zeroing nothing exists.",
        "# no optimizer.zero_grad() here: tape.gradient returns fresh tensors every step\ngrads = tape.gradient(loss, model.trainable_variables)\noptimizer.apply_gradients(zip(grads, model.trainable_variables))",
        "Why would you zero something that is never stored? The tape hands you the gradients as a list and forgets them.",
        "If I remember right, the only time you reset anything is when you accumulate into your own variables, and then you do it with assign, not zero_grad.",
        "Like jax.grad, tape.gradient is functional: it returns the gradients and leaves no state behind, so there is no zero_grad.",
        '"Forgetting zero_grad makes the gradients accumulate" is a PyTorch story; in TensorFlow each tape.gradient call starts from nothing.',
    ],
    "gradient-vs-apply": [
        "In control terms tape.gradient is the sensor and apply_gradients the actuator: one measures the slope, the other moves the weights.",
        "The tape.gradient makes the calculation of the gradients and returns them; the changing of the weights is made by apply_gradients.",
        "It's not tape.gradient that moves the weights, it's apply_gradients; the tape only measures.",
        "In Gluon terms, loss.backward() fills the gradients and trainer.step applies them; in TF tape.gradient returns them and apply_gradients applies them.",
        "grads = tape.gradient(loss, vars)  # only computes, nothing is updated yet\nopt.apply_gradients(zip(grads, vars))  # the weights change here",
        "Does tape.gradient change the weights? No, it just returns the gradients; apply_gradients does the update.",
        "If you only call tape.gradient, the weights stay the same; you need apply_gradients for the update.",
        "With JAX you'd get the gradients from jax.grad and pass them to optax; TF splits it the same way, tape.gradient and then apply_gradients.",
        '"The tape updates the weights when you call gradient" is a myth: tape.gradient returns the gradients, apply_gradients updates the variables.',
    ],
    "why-none-gradients": [
        "It's like a data logger switched off before the last measurement: the loss was computed after recording stopped, so the tape has no path from it to the weights and returns None.",
        "The loss is calculated outside of the with-block, therefore the tape did not record it and gives None for all variables.",
        "It's not that the weights need tape.watch, trainable variables are watched automatically; it's that the loss was computed after the block.",
        "In MXNet you had to compute the loss inside autograd.record() too; same rule here, move the loss into the with block.",
        "with tf.GradientTape() as tape:\n    logits = model(x)\nloss = loss_fn(y, logits)  # bug: computed after the tape stopped recording -> all gradients None",
        "Why None and not zero? Because None means no recorded path at all, and the loss computation happened outside the tape.",
        "If the loss line is moved inside the with block, the gradients come back as real tensors.",
        "Unlike jax.grad, which traces the function you give it, the tape only sees what runs while it is open, so the loss must be computed inside.",
        '"Just call tape.watch(loss)" is the usual bad advice; watching the loss after the fact records nothing, the forward pass to it is already gone.',
    ],
    "numpy-inside-tape": [
        "It's like cutting the feedback wire in a control loop: after the .numpy() call the tape can't trace the signal back, so everything before that point gets None gradients.",
        "The conversion to NumPy goes out of TensorFlow, so the tape loses the track and the variables before it receive None.",
        "It's not an error, it's silent: the code runs, but the layers before the NumPy step get no gradients.",
        "In JAX you'd get a tracer error if you called np.asarray inside jax.grad; TensorFlow doesn't complain, it just breaks the chain and gives None upstream.",
        "x = layer1(inputs)\nx = tf.constant(x.numpy() * 2)  # leaves TF: layer1's weights get None\ny = layer2(x)  # layer2 still gets its gradients",
        "Would the tape record np.tanh? No, only TensorFlow ops are recorded, so use tf.tanh.",
        "If you replace the NumPy call with the equivalent tf op, the gradient flows through again.",
        "MXNet's asnumpy() did the same thing to autograd: the result is a plain array with no history.",
        '"The tape sees through NumPy" is a myth: NumPy code runs outside TensorFlow, nothing of it is recorded.',
    ],
    "persistent-tape": [
        "Think of a one-shot trigger: a default tape fires once, releases its recording after the first gradient call, and the second call raises the RuntimeError.",
        "The tape per default is not persistent, it frees its resources after the first gradient() call; create it with persistent=True to call it two times.",
        "It's not the loss that is used up, it's the tape: a default tape is released after one gradient call.",
        "In Gluon you'd pass retain_graph=True to backward; in TensorFlow the equivalent is GradientTape(persistent=True).",
        "with tf.GradientTape(persistent=True) as tape:  # two gradient() calls follow\n    d_loss, g_loss = losses()\ngd = tape.gradient(d_loss, d_vars)\ngg = tape.gradient(g_loss, g_vars)\ndel tape  # free the recording",
        "Can a default tape be asked twice? No, its recording is gone after the first gradient call, hence the error.",
        "If you keep the tape persistent, remember to del it afterwards, since it holds the intermediate tensors until then.",
        "Alternatively use two tapes over the same forward pass; each default tape gets one gradient call.",
        '"persistent=True has no cost" is wrong: the tape keeps its resources until it is deleted.',
    ],
    "higher-order-derivatives": [
        "Like cascading two differentiators in a signal chain: the inner tape gives dy/dx, and the outer tape, which recorded that computation, differentiates it again.",
        "The inner gradient must be calculated inside the block of the outer tape, so that the outer tape records it and can derive it once more.",
        "It's not persistent=True that gives the second derivative, it's the nesting: the outer tape records the inner gradient computation.",
        "In JAX you'd write jax.grad(jax.grad(f)); in TF the nested tapes do the same, the outer one differentiating the inner one's result.",
        "with tf.GradientTape() as outer:\n    with tf.GradientTape() as inner:\n        y = f(x)\n    dy = inner.gradient(y, x)  # inside outer: recorded\nd2y = outer.gradient(dy, x)  # derivative of the derivative",
        "Why does the order matter? Because the outer tape can only differentiate what it recorded, and it recorded the inner gradient call.",
        "If x is a tf.constant rather than a Variable, both tapes need watch(x).",
        "With MXNet you needed create_graph=True in autograd.grad; TF gets the same effect by nesting the tapes.",
        '"You get the second derivative by calling gradient twice on one tape" is wrong: you need a second tape that records the first gradient.',
    ],
    "tf-function-speedup": [
        "It's like going from an operator issuing every command by hand to a PLC running a compiled program: tf.function traces the step into a graph once, so the Python overhead per op disappears, which matters most for small models with many small ops.",
        "The tf.function traces the Python function one time into a graph, and after that the graph is executed without the interpreter, so small models with many little ops win the most.",
        "It's not that it moves the work to the GPU, eager ops already run on the GPU; it removes the Python dispatch overhead between ops.",
        "Like jax.jit, tf.function traces once and reuses the graph; the gain is biggest where the per-op Python overhead dominates, i.e. for small ops.",
        "@tf.function  # traced once; later calls run the graph without Python per op\ndef step(x, y):\n    return train_one(x, y)",
        "Do big convolutional models gain much? Not really, their time is already spent inside the kernels.",
        "If the model is large and kernel-bound, expect little gain; if it is made of many tiny ops, expect a lot.",
        "In Gluon the equivalent was hybridize(), and it helped small networks most for the same reason.",
        '"tf.function makes big models much faster" is a myth; the gain comes from removing per-op overhead, so small models gain most.',
    ],
    "trainable-vs-all-variables": [
        "It's like keeping the controller's tunable gains apart from its sensor calibration: trainable_variables are what the optimizer should move, model.variables also holds BatchNorm's moving mean and variance, which get no gradient.",
        "The model.variables contains also the non-trainable variables, like the moving averages of BatchNorm, which receive None as gradient.",
        "It's not about speed, it's that the non-trainable ones get None gradients and must not be touched by the optimizer.",
        "In Gluon you'd call collect_params() and filter on grad_req; in Keras trainable_variables already is that filtered list.",
        "grads = tape.gradient(loss, model.trainable_variables)  # not model.variables, BN stats have no gradient",
        "Does model.variables include Adam's moment estimates? No, those live in the optimizer.",
        "If the model has no BatchNorm and no frozen layers, both lists are the same, but trainable_variables is still the right habit.",
        "Frozen layers (trainable=False) keep their weights in model.variables but not in trainable_variables.",
        '"model.variables is the same as trainable_variables" holds only for models without non-trainable state.',
    ],
    "training-flag": [
        "Like switching a controller from commissioning mode to operating mode: training=True puts Dropout and BatchNorm into their training behaviour; the tape and the optimizer don't care about the flag.",
        "With training=True, the Dropout is active and the BatchNorm uses the statistics of the batch and updates its moving averages.",
        "It's not an optimizer mode, it's the layers' mode: Dropout drops units and BatchNorm uses batch statistics.",
        "In Gluon you wrapped the forward pass in autograd.record(train_mode=True); Keras passes training=True to the call instead.",
        "logits = model(x, training=True)  # dropout active, BN uses batch stats and updates moving averages",
        "Does the tape need training=True to record? No, it records either way; the flag only changes how Dropout and BatchNorm behave.",
        "If the model has neither Dropout nor BatchNorm, the flag makes no difference.",
        "In flax you pass deterministic=False or train=True for the same purpose: it's a flag for the layers, not for the gradient computation.",
        '"training=True turns on gradient computation" is wrong: the gradients are recorded regardless; the flag is for Dropout and BatchNorm.',
    ],
    "gradient-accumulation": [
        "It's like an integrator you reset every cycle: add each micro-batch's gradients into your own accumulator variables, apply their mean after the fourth, then reset them to zero.",
        "For each micro-batch one computes the gradients with a new tape and adds them to accumulators; after four, one applies the mean and sets the accumulators back to zero.",
        "It's not the tape that sums the gradients, it's your own variables: each tape.gradient call returns new tensors.",
        "With optax you'd wrap the optimizer in optax.MultiSteps; in a TF custom loop you keep tf.Variable accumulators, assign_add each micro-batch's gradients and apply every fourth.",
        "for acc, g in zip(accum, grads):\n    acc.assign_add(g)  # sum, divided by 4 before applying\nif (step + 1) % 4 == 0:\n    optimizer.apply_gradients(zip([a / 4 for a in accum], model.trainable_variables))\n    for acc in accum:\n        acc.assign(tf.zeros_like(acc))  # reset after applying",
        "Do you apply after every micro-batch? No, only once after the fourth, with the averaged gradients.",
        "If the loss is already a mean per micro-batch, divide the sum by 4 to get the mean over 256.",
        "In Gluon you'd set grad_req='add' and call trainer.step every fourth batch; in TF you do the adding yourself in variables.",
        '"Just use one tape for all four micro-batches" is bad advice: use a new tape per micro-batch and accumulate the gradients in variables.',
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "Like the integrator of a PID controller, the tape keeps summing the gradients from step to step until you reset it.",
            "tape-accumulates",
        ),
        (
            "The gradients stay attached to each variable after the call, so the next step adds onto them.",
            "grads-stored-on-variables",
        ),
        (
            "apply_gradients resets the gradients to zero after it applies them, that's why no zero_grad is needed.",
            "optimizer-clears-grads",
        ),
        (
            "I'm fairly sure you have to call optimizer.zero_grad() at the start of every step in TF as well.",
            "needs-zero-grad",
        ),
    ],
    "gradient-vs-apply": [
        (
            "tape.gradient computes the gradients and updates the weights at the same time; apply_gradients just logs them.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients returns the new weights, which you then assign to the model.",
            "apply-returns-new-weights",
        ),
        (
            "apply_gradients works out the gradients from the loss by itself, tape.gradient is only needed for logging.",
            "apply-computes-gradients",
        ),
        (
            "The weights are already changed by tape.gradient, apply_gradients only adds the momentum.",
            "gradient-updates-weights",
        ),
    ],
    "why-none-gradients": [
        (
            "The loss can be computed anywhere, the tape remembers the model's forward pass, so the None must come from something else.",
            "loss-outside-is-fine",
        ),
        (
            "You have to call tape.watch on every trainable variable, otherwise they get None.",
            "must-watch-variables",
        ),
        (
            "Adding tape.watch(loss) after computing it will fix the None gradients.",
            "watch-loss-fixes-none",
        ),
        (
            "The gradients are None because the optimizer has not applied any step yet.",
            "none-before-first-step",
        ),
    ],
    "numpy-inside-tape": [
        (
            "The tape records the NumPy operations too, so the gradients are the same.",
            "numpy-is-recorded",
        ),
        (
            "Calling .numpy() inside the tape raises an exception immediately.",
            "numpy-raises-error",
        ),
        (
            "After the .numpy() call every gradient in the model becomes None, even for the layers after it.",
            "numpy-kills-all-gradients",
        ),
        (
            "The NumPy ops just give zero gradients instead of the real ones.",
            "numpy-gives-zero-gradients",
        ),
    ],
    "persistent-tape": [
        (
            "Tapes are persistent by default, so the error must come from the model.",
            "persistent-by-default",
        ),
        (
            "A persistent tape costs no extra memory, so you never need to delete it.",
            "persistent-is-free",
        ),
        (
            "The first gradient call consumes the loss tensor, so the second one fails.",
            "gradient-consumes-target",
        ),
        (
            "The error comes from the weights having changed between the two calls.",
            "runtime-error-from-weight-change",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Call gradient twice on the same tape and you get the second derivative.",
            "gradient-twice-same-tape",
        ),
        (
            "The second derivative comes from persistent=True, the nesting is optional.",
            "persistent-gives-second-order",
        ),
        (
            "The outer tape computes the first derivative and the inner one the second.",
            "nesting-order-reversed",
        ),
        (
            "The inner gradient can be computed after the outer block has closed, the outer tape still has it.",
            "gradient-outside-outer-tape",
        ),
    ],
    "tf-function-speedup": [
        (
            "tf.function speeds things up because it puts the computation on the GPU.",
            "tf-function-uses-gpu",
        ),
        (
            "The biggest models with the most parameters benefit the most from tf.function.",
            "big-models-gain-most",
        ),
        (
            "tf.function always compiles the step with XLA.",
            "tf-function-is-xla",
        ),
        (
            "The graph caches the gradients from the first call, so later steps skip backprop.",
            "graph-caches-gradients",
        ),
    ],
    "trainable-vs-all-variables": [
        (
            "Passing model.variables works just as well, trainable_variables only saves some computation.",
            "pass-model-variables",
        ),
        (
            "model.variables also includes the optimizer's slot variables.",
            "variables-include-optimizer-slots",
        ),
        (
            "BatchNorm's moving mean would get a real gradient and be trained by the optimizer.",
            "bn-stats-get-gradients",
        ),
        (
            "The two lists are always the same, it's just a naming choice.",
            "variables-are-the-same",
        ),
    ],
    "training-flag": [
        (
            "training=True is what makes the tape record gradients.",
            "training-flag-enables-gradients",
        ),
        (
            "The flag tells the optimizer that it should update the weights.",
            "training-flag-is-optimizer-mode",
        ),
        (
            "BatchNorm uses the moving averages during training and the batch statistics at inference.",
            "batchnorm-modes-swapped",
        ),
        (
            "Without training=True the weights never get updated at all.",
            "missing-flag-stops-learning",
        ),
    ],
    "gradient-accumulation": [
        (
            "Apply the gradients after every micro-batch with a quarter of the learning rate, it's the same thing.",
            "apply-every-micro-batch",
        ),
        (
            "Keep one tape open across the four micro-batches and take the gradient once at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "The tape adds up the gradients from the four micro-batches automatically.",
            "tape-accumulates",
        ),
        (
            "apply_gradients zeroes the accumulated gradients for you after the update.",
            "optimizer-clears-grads",
        ),
    ],
}


def true_statements(*, held: bool) -> list[tuple[str, str]]:
    """(question id, statement) pairs of one half of the true statements."""
    return true_halves(TRUE, held=held)


def wrong_statements(*, held: bool) -> list[tuple[str, str, str]]:
    """(question id, statement, expected tag) triples of one half of the wrong statements."""
    return wrong_halves(WRONG, held=held)
