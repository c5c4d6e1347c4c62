"""Round 16 (issue 14, engineer T): statements written before any round-16 change.

True statements in voices unlike any labelled answer, most of them limited by a condition or
a scope ("only when", "unless", "for models with ...", "in TF1 ... but in TF2 ..."), quoting a
misconception to reject it ("a common mistake is to think X", "\"X\" is wrong"), or carried
by code comments, over the ten core questions. Wrong statements each state one known tell.
Each question's list is split by position: even positions are the tune half (read while
fixing), odd positions the held half (run only at the round's start and end).
docs/freetext-rounds.md "Round 16: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "Only if you keep your own accumulator variables do you have to reset anything, and then it's your code that resets them, not TF.",
        "In TF1 you built a train_op with optimizer.minimize, but in TF2 you call tape.gradient and apply_gradients, and in neither is there a zero_grad to call.",
        "A common mistake is to think the tape adds each step's gradients onto the last ones; it doesn't, each tape.gradient call returns new tensors.",
        "Unless you write an accumulation loop yourself, nothing carries gradients from one step to the next.",
        "grads = tape.gradient(loss, model.trainable_variables)  # fresh tensors, nothing accumulated\noptimizer.apply_gradients(zip(grads, model.trainable_variables))  # no zero_grad needed before the next step",
        '"You need zero_grad or the gradients pile up" is true for PyTorch, for TF it is simply wrong, gradients are returned, not stored.',
        "For models trained with a custom loop and with model.fit alike there is no zero_grad call, because gradients are never stored on the variables.",
        "When the colleague asks where zero_grad goes, the answer is nowhere: the gradients only exist as the list tape.gradient returns.",
        "It would only matter if the gradients lived on the variables, as .grad does in PyTorch, and in TF they don't.",
    ],
    "gradient-vs-apply": [
        "Only apply_gradients writes to the weights; tape.gradient is read-only unless you assign its result yourself.",
        "In TF1 minimize() did both in one op, but in TF2 you usually split it: tape.gradient computes, apply_gradients updates.",
        "A common mistake is to think tape.gradient already moves the weights, it only returns the derivatives.",
        "Unless apply_gradients is called, the model's weights stay exactly as they were, however many gradients you compute.",
        "grads = tape.gradient(loss, model.trainable_variables)  # computes only, weights unchanged\noptimizer.apply_gradients(zip(grads, model.trainable_variables))  # this line changes the weights",
        "For optimizers with momentum, apply_gradients also updates the slot variables, tape.gradient never touches them.",
        'People sometimes say "apply_gradients returns the new weights" - it doesn\'t, it assigns them to the variables in place.',
        "When you use an optimizer like Adam, the learning-rate and moment logic runs inside apply_gradients, not in tape.gradient.",
        "If all you want is gradient norms for logging, tape.gradient alone is enough and the model stays unchanged.",
    ],
    "why-none-gradients": [
        "Only ops run while the tape is recording get into the record, so a loss computed after the with block has no path to the weights and every gradient is None.",
        "Unless the loss line sits inside the with block, the tape never sees it, and tape.gradient returns None for every variable.",
        "A common mistake is to think you must call tape.watch on the weights; trainable variables are watched automatically, the real cause is the loss outside the block.",
        "In TF1 you'd have used tf.gradients on a graph, but in TF2 eager mode only what runs inside the tape is recorded, so move the loss into the block.",
        "with tf.GradientTape() as tape:\n    pred = model(x, training=True)\n    loss = loss_fn(y, pred)  # must be inside the block, otherwise every gradient is None\ngrads = tape.gradient(loss, model.trainable_variables)",
        "\"Just watch the loss\" is the usual forum advice and it doesn't help: the loss was computed after recording stopped, so there's no chain back to the weights.",
        "For models whose variables are all used in the forward pass, None for every one of them points at the loss being computed outside the tape.",
        "When only some variables get None, look for unused layers; when all of them do, the loss was almost certainly computed after the block closed.",
        "It's not that the gradient is zero - None means there is no recorded connection at all, because the tape stopped before the loss was computed.",
    ],
    "numpy-inside-tape": [
        "Only the variables used before the .numpy() call lose their gradients (they get None), the layers after it still train.",
        "Unless the NumPy part is replaced by tf ops, everything upstream of it gets None and stops learning, silently.",
        "A common mistake is to think the tape follows the NumPy maths too; it can't, NumPy runs outside TensorFlow and the chain is cut there.",
        "In TF1 graph mode .numpy() wouldn't even exist on a symbolic tensor, but in TF2 eager it works and quietly breaks the gradient chain.",
        "h = h.numpy()  # leaves TensorFlow: the tape can't see what happens next\nh = np.tanh(h)  # use tf.tanh instead so the gradient flows back",
        '"It raises an error" is what people expect, but it doesn\'t: the conversion succeeds, the early layers just get None gradients.',
        "For layers downstream of the conversion nothing changes, their gradients are computed as usual from the re-created tensor onward.",
        "When the NumPy step sits right after the first layer, only that first layer is frozen; when it sits near the output, almost the whole network is.",
        "It is not that every gradient becomes None, only the ones whose path to the loss goes through the NumPy detour.",
    ],
    "persistent-tape": [
        "Only a persistent tape allows a second gradient() call; a default one releases its resources after the first, hence the RuntimeError.",
        "Unless you create the tape with persistent=True, the second tape.gradient call raises, because the first call freed the recording.",
        "A common mistake is to think the first call destroyed the loss tensor; the loss is fine, it's the tape's recording that was released.",
        "In TF1 you could call tf.gradients as often as you liked on the graph, but in TF2 a default GradientTape is single-use, so pass persistent=True.",
        "with tf.GradientTape(persistent=True) as tape:  # keep the recording for two gradient() calls\n    l1, l2 = losses(model(x))\ng1 = tape.gradient(l1, model.trainable_variables)\ng2 = tape.gradient(l2, model.trainable_variables)\ndel tape  # release the resources it holds",
        '"A persistent tape is free" is wrong: it keeps the intermediate tensors alive until you delete it, so del tape when you\'re done.',
        "For two losses you could also use two tapes around one forward pass, each default tape then gets exactly one gradient call.",
        "When you're finished, drop the reference with del tape, otherwise the memory of the recording isn't released.",
        "It's not the weights that changed between the calls - the default tape simply cannot be asked twice.",
    ],
    "higher-order-derivatives": [
        "Only the nested arrangement works: the inner gradient has to be computed inside the outer tape's block so the outer one records it.",
        "Unless the inner tape.gradient call runs while the outer tape is still recording, outer.gradient has nothing to differentiate and gives None.",
        "A common mistake is to think you can just call gradient twice on one tape; the second derivative needs a second tape that records the first derivative's computation.",
        "In TF1 you might have used tf.hessians on a graph, but in TF2 eager code you nest two GradientTapes instead.",
        "with tf.GradientTape() as outer:\n    with tf.GradientTape() as inner:\n        y = x ** 3\n    dy_dx = inner.gradient(y, x)  # computed inside the outer block, so it is recorded\nd2y_dx2 = outer.gradient(dy_dx, x)  # the outer tape differentiates the first derivative",
        '"The outer tape takes the first derivative" is backwards: the inner tape gives dy/dx and the outer one differentiates that.',
        "For a tf.constant x you have to call watch(x) on both tapes, a tf.Variable is watched by both automatically.",
        "When x is a variable, neither tape needs persistent=True, each is asked for exactly one gradient.",
        "It works because the gradient computation itself is made of TF ops, and ops run inside the outer tape's context get recorded like any others.",
    ],
    "tf-function-speedup": [
        "Only the Python overhead goes away: tf.function traces the step into a graph once and then runs the graph without the interpreter between ops.",
        "Unless the model is made of many small ops, the gain is modest, since big matmuls and convolutions were already spending their time in the kernels.",
        "A common mistake is to think tf.function is what puts the work on the GPU; eager ops already run there, the graph only removes the dispatch overhead.",
        "In TF1 everything was a graph anyway, but in TF2 eager is the default and tf.function brings the graph back for the hot loop.",
        "@tf.function  # traced once, then runs as a graph: no Python dispatch per op, which is what small models pay for most\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = loss_fn(y, model(x, training=True))\n    grads = tape.gradient(loss, model.trainable_variables)\n    optimizer.apply_gradients(zip(grads, model.trainable_variables))",
        '"Bigger models gain the most" gets it backwards: for large models the kernels dominate, small models with many cheap ops gain most.',
        "For models with lots of tiny ops, like small RNN cells or MLPs on small batches, the speedup can be several times.",
        "When XLA is wanted you pass jit_compile=True; without it tf.function still gives a graph, just not an XLA-compiled one.",
        "It's not that the gradients are cached between steps, every call still runs the forward and backward pass, only inside a graph.",
    ],
    "trainable-vs-all-variables": [
        "Only trainable_variables should be updated by the optimizer; variables also holds the non-trainable state such as BatchNorm's moving mean and variance.",
        "Unless the model has non-trainable variables (BatchNorm statistics, frozen layers), the two lists happen to contain the same variables.",
        "A common mistake is to think model.variables also holds the optimizer's Adam moments; those belong to the optimizer, not to the model.",
        "In TF1 you'd have collected tf.trainable_variables() from the graph, but in TF2 you ask the model for model.trainable_variables.",
        "grads = tape.gradient(loss, model.trainable_variables)  # not model.variables: the moving stats get no gradient\noptimizer.apply_gradients(zip(grads, model.trainable_variables))",
        '"Passing model.variables is fine, it just does more work" is wrong: the moving statistics would come back as None gradients, and the optimizer must not touch them.',
        "For models with BatchNorm, model.variables includes the moving mean and variance, which the layer updates in training mode, not gradient descent.",
        "When a layer is frozen with trainable=False, its weights move from trainable_variables to non_trainable_variables, and model.variables still lists them.",
        "It's not a matter of speed: the non-trainable variables get no gradients, so there's nothing sensible for apply_gradients to do with them.",
    ],
    "training-flag": [
        "Only layers that behave differently in training care about the flag: Dropout drops units and BatchNorm uses batch statistics and updates its moving averages.",
        "Unless you pass training=True, Dropout does nothing and BatchNorm normalises with its moving averages, which also stop being updated.",
        "A common mistake is to think training=True makes the tape record; the tape records either way, the flag only changes how layers like Dropout behave.",
        "In TF1 you fed a placeholder like is_training, but in TF2 Keras you pass training=True to the model call.",
        "logits = model(x, training=True)  # dropout on, BatchNorm uses the batch stats and updates its moving averages",
        "\"Without the flag the model won't learn\" is an overstatement: the weights still get gradients and update, you just lose dropout and BatchNorm's training behaviour.",
        "For models without Dropout or BatchNorm the flag changes nothing at all.",
        "When it's left out, BatchNorm's moving mean and variance are never updated, so evaluation later uses their initial values.",
        "It's not the optimizer that reads the flag, it's the layers, during the forward pass.",
    ],
    "gradient-accumulation": [
        "Only after the fourth micro-batch do you call apply_gradients, with the accumulated sum divided by four, then reset the accumulators.",
        "Unless you zero the accumulators after each update, the next cycle's gradients are added onto the old sums.",
        "A common mistake is to think one tape can stay open over all four micro-batches; use a new tape per micro-batch and add its gradients to your own variables.",
        "In TF1 people kept accumulator variables and an assign_add op, in TF2 the idea is the same, you just run it eagerly or under tf.function.",
        "for xb, yb in micro_batches:\n    with tf.GradientTape() as tape:\n        loss = loss_fn(yb, model(xb, training=True))\n    grads = tape.gradient(loss, model.trainable_variables)\n    for acc, g in zip(accum, grads):\n        acc.assign_add(g / 4)  # mean over the four micro-batches\noptimizer.apply_gradients(zip(accum, model.trainable_variables))  # one update per 256 examples\nfor acc in accum:\n    acc.assign(tf.zeros_like(acc))  # reset for the next cycle",
        '"The tape sums the gradients for you" is wrong: every tape.gradient call returns new tensors, the summing is your job.',
        "For models with BatchNorm, accumulation still only gives batch statistics over 64 examples, only the gradient matches the 256 batch.",
        "When the loss is a mean over each micro-batch, divide the summed gradients by 4, not by 256.",
        "It's not apply_gradients that resets anything; you zero your accumulator variables yourself after the update.",
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "Only if you call optimizer.zero_grad() at the start of each step are the old gradients kept out of the new ones.",
            "needs-zero-grad",
        ),
        (
            "Unless you open a new tape, the tape keeps adding each step's gradients onto the old ones.",
            "tape-accumulates",
        ),
        (
            "In TF2 the gradients are stored on each variable after tape.gradient, just like .grad in PyTorch.",
            "grads-stored-on-variables",
        ),
        (
            "apply_gradients zeroes the gradients for you once it has applied them.",
            "optimizer-clears-grads",
        ),
    ],
    "gradient-vs-apply": [
        (
            "tape.gradient already updates the weights, apply_gradients only adds momentum on top.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients returns the updated weights, so you have to assign them back to the model.",
            "apply-returns-new-weights",
        ),
        (
            "For optimizers like SGD, apply_gradients computes the gradients from the loss itself.",
            "apply-computes-gradients",
        ),
        (
            "The weights are updated when the tape's with block exits.",
            "update-at-tape-exit",
        ),
    ],
    "why-none-gradients": [
        (
            "Unless you call tape.watch on each trainable variable, their gradients come back as None.",
            "must-watch-variables",
        ),
        (
            "Adding tape.watch(loss) before the gradient call fixes the None gradients.",
            "watch-loss-fixes-none",
        ),
        (
            "The loss can be computed after the with block, the tape still has the forward pass.",
            "loss-outside-is-fine",
        ),
        (
            "Gradients are None until apply_gradients has run once.",
            "none-before-first-step",
        ),
    ],
    "numpy-inside-tape": [
        (
            "The tape records the NumPy calls as well, so the gradients are unaffected.",
            "numpy-is-recorded",
        ),
        (
            "In eager mode, calling .numpy() inside a GradientTape raises an error straight away.",
            "numpy-raises-error",
        ),
        (
            "The layers after the .numpy() call lose their gradients, the ones before it are fine.",
            "downstream-loses-gradients",
        ),
        (
            "TensorFlow passes the gradient straight through the NumPy code as if it were the identity.",
            "numpy-straight-through",
        ),
    ],
    "persistent-tape": [
        (
            "Tapes keep their recording by default, so the second call should work.",
            "persistent-by-default",
        ),
        (
            "A persistent tape costs nothing extra, so there's no need to delete it.",
            "persistent-is-free",
        ),
        (
            "The first gradient call consumes the loss, so you have to run the forward pass again for the second loss.",
            "gradient-consumes-target",
        ),
        (
            "Differentiating loss1 + loss2 once gives you each loss's gradient separately.",
            "sum-losses-gives-each-gradient",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Just call tape.gradient twice on the same tape to get the second derivative.",
            "gradient-twice-same-tape",
        ),
        (
            "Setting persistent=True is what gives you second derivatives.",
            "persistent-gives-second-order",
        ),
        (
            "The outer tape computes the first derivative and the inner tape the second.",
            "nesting-order-reversed",
        ),
        (
            "Nested tapes only work when both of them are persistent=True.",
            "nested-tapes-need-persistent",
        ),
    ],
    "tf-function-speedup": [
        (
            "tf.function helps because it moves the computation onto the GPU.",
            "tf-function-uses-gpu",
        ),
        (
            "The gain is largest for the biggest models, the ones with the most parameters.",
            "big-models-gain-most",
        ),
        (
            "tf.function compiles the step with XLA by default.",
            "tf-function-is-xla",
        ),
        (
            "After the first call tf.function caches the gradients, so later steps skip backprop.",
            "graph-caches-gradients",
        ),
    ],
    "trainable-vs-all-variables": [
        (
            "Passing model.variables is fine, trainable_variables just saves a bit of work.",
            "pass-model-variables",
        ),
        (
            "model.variables also contains the optimizer's slot variables like Adam's moments.",
            "variables-include-optimizer-slots",
        ),
        (
            "If you passed them, BatchNorm's moving statistics would get real gradients and be moved by gradient descent.",
            "bn-stats-get-gradients",
        ),
        (
            "Asking tape.gradient for a non-trainable variable raises an error.",
            "non-trainable-gradient-errors",
        ),
    ],
    "training-flag": [
        (
            "training=True is what makes the tape record the gradients.",
            "training-flag-enables-gradients",
        ),
        (
            "Without training=True the model does not learn at all.",
            "missing-flag-stops-learning",
        ),
        (
            "training=True tells the optimizer to update the weights.",
            "training-flag-is-optimizer-mode",
        ),
        (
            "BatchNorm uses the moving statistics in training and the batch statistics at inference.",
            "batchnorm-modes-swapped",
        ),
    ],
    "gradient-accumulation": [
        (
            "Just call apply_gradients after every micro-batch with a quarter of the learning rate.",
            "apply-every-micro-batch",
        ),
        (
            "Keep one tape open across all four micro-batches and call gradient once at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "The tape adds up the gradients across the micro-batches by itself.",
            "tape-accumulates",
        ),
        (
            "Accumulating the gradients also gives BatchNorm the statistics of all 256 examples.",
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
