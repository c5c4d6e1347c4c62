"""Round 14 (issue 14, engineer T): statements written before any round-14 change.

True statements in voices unlike any labelled answer: hedged, qualified, lists of causes,
contrasts with PyTorch and JAX, rhetorical questions answered, Stack Overflow style "Note:"
and "EDIT:" lines, analogies; some shaped like round 13's leftovers (an alternative cause in
a list without brackets, a quantifier scoped to one part, a clause after ";", a reported
claim denied in the next clause, the argument of `outer.gradient(...)`), over the ten core
questions. Wrong statements each state one known tell. Each question's list is split by
position: even positions are the tune half (read while fixing), odd positions the held half
(run only at the round's start and end).
docs/freetext-rounds.md "Round 14: false tells (engineer T)".
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.statement_halves import true_halves, wrong_halves

TRUE: dict[str, list[str]] = {
    "no-zero-grad": [
        "If I'm not mistaken, there is simply no place for it: tape.gradient hands back new tensors every time, so nothing is left over from the previous step.",
        "Why doesn't TF need it? Because PyTorch's backward() adds into a .grad field that outlives the step, and TensorFlow has no such field; the gradients are return values.",
        "Note: Keras 3 optimizers built with gradient_accumulation_steps do keep accumulators, but they reset them themselves, so even then you call no zeroing method.",
        "Think of it like a calculator versus a tally counter: torch's .grad is the tally counter you have to clear, tape.gradient is the calculator that shows a fresh result each time.",
        "In JAX, jax.grad is a pure function and nobody zeroes anything either; TF's tape is closer to that than to torch.",
        "You only need to reset something if you keep your own running sums, e.g. for accumulation; otherwise, no, there's nothing to zero.",
        "EDIT: to be clear, the optimizer does keep state (momentum, Adam's moments), but that state isn't gradients, and it should not be reset each step.",
        "Roughly speaking, each iteration opens a new tape, computes the loss, gets gradients and applies them; the old gradients just go out of scope.",
        "Where would you put zero_grad? Nowhere. optimizer.zero_grad() isn't part of the TF API, and the gradients don't pile up, so you don't miss it.",
    ],
    "gradient-vs-apply": [
        "Put simply, tape.gradient is the question and apply_gradients is the action: the first asks how the loss changes with each weight, the second changes the weights.",
        "Does tape.gradient change anything? No, it only computes and returns the gradients; the weights change when apply_gradients assigns the optimizer's update to them.",
        "Compared with PyTorch: loss.backward() is roughly tape.gradient (except that it stores into .grad), and optimizer.step() is roughly apply_gradients.",
        "Note: apply_gradients also increments the optimizer's iteration counter and updates its slots (momentum etc.), on top of updating the weights.",
        "In JAX terms, tape.gradient is jax.grad and apply_gradients is optax's update plus apply_updates, except that in TF the variables are modified in place.",
        "I believe apply_gradients is the only one of the two with a side effect on the model; tape.gradient is side-effect free as far as the weights go.",
        "A map and a car: the gradients are the map telling you which way is downhill, and apply_gradients is the car that actually moves.",
        "apply_gradients takes pairs of (gradient, variable), and for each variable it applies the optimizer's rule - SGD, Adam, whatever you built - and writes the result in place.",
        "The gradient call returns tensors, one for each source you pass; it neither modifies the variables nor touches the optimizer.",
    ],
    "why-none-gradients": [
        "Most likely the loss is computed after the with block has ended, so the tape never recorded it, and with no recorded path from loss to weights you get None.",
        "There are a few ways to get None, such as an op outside the tape, a NumPy detour, or a variable the loss doesn't use; for every variable at once, the usual one is the loss outside the tape.",
        "Why None and not an error? Because tape.gradient treats a source with no recorded connection as unconnected and returns None for it by design.",
        "Note: you don't need tape.watch for the model's weights; trainable variables are watched automatically. Indent the loss into the block instead.",
        "In PyTorch this would be a 'does not require grad' error; TensorFlow just quietly returns None, which is why the step runs without complaint.",
        "Causes I'd check: the loss line dedented out of the with block, a .numpy() call in the forward pass, or gradients taken with respect to the wrong list. The first is the most common.",
        "The fix, I think, is just to move the loss computation inside the with tf.GradientTape() block so that the tape records it.",
        "It's like a CCTV camera switched off before the robbery: the tape only saw the forward pass, not the loss, so it can't trace anything back.",
        "EDIT: as a commenter said, apply_gradients will then complain that no gradients were provided for any variable, but the root cause is the loss outside the tape.",
    ],
    "numpy-inside-tape": [
        "Probably the layers before the .numpy() call end up with None gradients, while everything after it still trains, because the tape can't see through NumPy.",
        "Why no error? .numpy() is perfectly legal in eager mode; it just returns an array the tape has no record of, so the chain is silently cut.",
        "Note: the weights downstream of the NumPy maths still get gradients; only the ones upstream of it get None.",
        "In JAX you'd hit a tracer error instead; TF's tape just loses track, which is more dangerous because training goes on.",
        "It's like passing a note through a shredder and retyping it: the downstream layers see the retyped note, but there's no link back to who wrote the original.",
        "The fix is to do the maths with tf ops (tf.math, tf.nn) so the tape records it, or to write a custom gradient if you really need NumPy.",
        "The upstream layers are frozen in effect: their gradients are None, so apply_gradients skips them (and warns).",
        "GradientTape only records TensorFlow operations; NumPy functions run outside TensorFlow and are invisible to it, so there is no recorded path back.",
        "I'd say the model half-trains: the part after the conversion learns, the part before it doesn't, and nothing crashes to tell you.",
    ],
    "persistent-tape": [
        "By default a GradientTape releases its resources after the first gradient() call, so a second call on the same tape raises a RuntimeError.",
        "Make it persistent: with tf.GradientTape(persistent=True) as tape, compute both losses, then call tape.gradient for each, and afterwards del tape to free the memory.",
        "Why not always persistent? Because a persistent tape keeps the intermediate tensors alive until you delete it, which costs memory.",
        "Note: in PyTorch the analogue is retain_graph=True on the first backward(); TF's version is persistent=True on the tape.",
        "Alternatively, open two tapes over the same forward pass, one per loss; each tape is used once, so neither has to be persistent.",
        "The tape is a one-shot recording by default: play it once and it's erased. persistent=True keeps it until you delete the tape.",
        "If you only wanted the combined gradient you could sum the losses and call gradient once, but that doesn't give each loss's gradient on its own.",
        "Once you're done, delete the tape (del tape) or let it go out of scope, so the recorded tensors can be freed.",
        "EDIT: you can also pass a list of targets to a single gradient call, but then you get the gradient of their sum, not two separate gradients.",
    ],
    "higher-order-derivatives": [
        "Nest two tapes: compute y inside the inner one, take dy/dx with inner.gradient while still inside the outer block, then call outer.gradient(dy_dx, x).",
        "The trick is that the outer tape is still recording while the inner gradient is computed, so the first derivative is itself a recorded computation.",
        "Neither tape needs persistent=True for a single second derivative; nesting is what makes it work.",
        "Note: if x is a tf.constant you have to watch it on both tapes; a tf.Variable is watched automatically.",
        "In JAX you'd write jax.grad(jax.grad(f)); with tapes, the nesting plays the role of that composition.",
        "Compare a video of someone filming a screen: the outer tape films the inner tape's work, and then you differentiate the film.",
        "The inner tape gives the first derivative and the outer tape differentiates that first derivative, which gives the second.",
        "If you computed dy_dx after the outer block had closed, outer.gradient would return None, because the outer tape didn't record it.",
        "Call outer.gradient(dy_dx, x) where dy_dx came from inner.gradient(y, x); the argument order is target first, then the source.",
    ],
    "tf-function-speedup": [
        "tf.function traces the Python step once into a graph, so later calls skip the Python interpreter's per-op overhead and can be optimised as a whole.",
        "Which models gain most? Small ones with many cheap ops, where Python overhead is a large share of each step; big convolution-heavy models gain little.",
        "Note: it does not move anything to the GPU; eager ops already run on the GPU if one is available.",
        "Compared with JAX's jit, tf.function is similar in spirit, but XLA compilation is off unless you ask for jit_compile=True.",
        "It's like a recipe card versus a cook reading the cookbook aloud every time: once traced, the graph runs without re-reading the Python.",
        "I'd expect the largest gain for a small MLP or RNN with lots of tiny ops, and hardly any for a model dominated by a few huge matrix multiplications.",
        "The graph also lets Grappler fuse ops and prune unused ones, though the main gain for small models is the removed Python overhead.",
        "Every call still runs the forward and backward pass; nothing is cached between steps except the traced graph itself.",
        "EDIT: beware of retracing - passing new Python values or shapes each call can make it trace again and eat the gain.",
    ],
    "trainable-vs-all-variables": [
        "model.variables also holds non-trainable variables, like BatchNorm's moving mean and variance, which are not meant to be updated by gradients.",
        "Why not pass everything? Because the non-trainable ones get no gradient (None), and apply_gradients would warn about them or, if all were None, fail.",
        "Note: for a model without BatchNorm or frozen layers, the two lists may be the same, but trainable_variables is the one that states the intent.",
        "In PyTorch the analogue is passing only parameters with requires_grad=True to the optimizer; buffers like running_mean are never passed.",
        "BatchNorm's moving statistics are updated by the layer itself during training=True calls, not by the optimizer.",
        "It's like a team roster: variables lists everyone, trainable_variables lists the players who actually take the field.",
        "Frozen layers (layer.trainable = False) keep their weights in variables but not in trainable_variables, so passing variables would unfreeze nothing but ask for gradients it can't get.",
        "Roughly, variables = trainable_variables + non_trainable_variables; the optimizer's own slots are not in either list.",
        "I think the cleanest answer is that the optimizer should only see what it's supposed to learn, and that is exactly trainable_variables.",
    ],
    "training-flag": [
        "training=True makes Dropout actually drop units and makes BatchNorm normalise with the batch's statistics and update its moving averages.",
        "Leave it out and the layers behave as at inference: no dropout, and BatchNorm uses its moving averages, so you train a different model from the one you meant.",
        "Note: gradients are still computed without the flag; the tape records either way. Only the behaviour of those layers changes.",
        "In PyTorch you'd call model.train() once; in Keras the mode is an argument on each call, so the custom loop has to pass it.",
        "Does anything crash without it? No, which is the problem: training runs, but without dropout's regularisation and with BatchNorm's moving statistics left untouched.",
        "model.fit passes training=True for you; a custom loop doesn't, so you pass it yourself inside the tape.",
        "It's like a rehearsal switch: with it on, Dropout and BatchNorm do their training-time routines; with it off they act as if on stage.",
        "For a model with no Dropout or BatchNorm (or other layers that read the flag), leaving it out changes nothing at all.",
        "I'd guess the typical symptom is worse generalisation from the missing dropout and moving statistics that never adapt to the data.",
    ],
    "gradient-accumulation": [
        "Create one zero-initialised tf.Variable per trainable variable, add each micro-batch's gradients into them, and after the fourth micro-batch apply their mean and reset them to zero.",
        "Why divide by four? Each micro-batch loss is already a mean over 64, so the mean of the four gradients equals the gradient of the mean over 256.",
        "Note: BatchNorm still sees 64 examples at a time, so its batch statistics differ from a true batch of 256.",
        "In PyTorch you'd just call backward() four times and let .grad sum up; in TF you keep the sums yourself, because tape.gradient returns fresh tensors.",
        "Alternatively, with Keras 3 you can build the optimizer with gradient_accumulation_steps=4 and call apply_gradients every micro-batch; it keeps and resets its own accumulators.",
        "Use a new tape for each micro-batch, get its gradients, and add them to your accumulators; only call apply_gradients once every four micro-batches.",
        "It's like filling a bucket from four cups before pouring it once: the cups are the micro-batch gradients, the bucket is your accumulator, and the pour is apply_gradients.",
        "If you forget to reset the accumulators after the update, the next cycle adds onto the old sums.",
        "I believe scaling each micro-batch loss by 1/4 before taking gradients works too; then you sum the gradients and apply them without dividing again.",
    ],
}

WRONG: dict[str, list[tuple[str, str]]] = {
    "no-zero-grad": [
        (
            "Honestly you should still call optimizer.zero_grad() at the start of each step, or the previous gradients leak into the next update.",
            "needs-zero-grad",
        ),
        (
            "I believe the tape keeps adding the gradients up from step to step until you create a fresh tape.",
            "tape-accumulates",
        ),
        (
            "Note: apply_gradients clears the gradients automatically after updating, which is why TF has no zero_grad.",
            "optimizer-clears-grads",
        ),
        (
            "In TF each variable keeps its gradient on itself after tape.gradient, just like torch's .grad.",
            "grads-stored-on-variables",
        ),
    ],
    "gradient-vs-apply": [
        (
            "If I'm not mistaken, tape.gradient already updates the weights, and apply_gradients only records the step for logging.",
            "gradient-updates-weights",
        ),
        (
            "apply_gradients gives you back the updated weights, which you then have to assign to the model yourself.",
            "apply-returns-new-weights",
        ),
        (
            "Note: apply_gradients computes the gradients from the loss itself before applying them.",
            "apply-computes-gradients",
        ),
        (
            "I think tape.gradient runs the forward pass again to work out the derivatives.",
            "gradient-reruns-forward",
        ),
    ],
    "why-none-gradients": [
        (
            "Probably you forgot tape.watch on the model's weights; every variable has to be watched or its gradient is None.",
            "must-watch-variables",
        ),
        (
            "The gradients are None simply because the learning rate is zero.",
            "none-means-zero-signal",
        ),
        (
            "You need to compile the model first; otherwise tape.gradient returns None.",
            "needs-compile-for-gradients",
        ),
        (
            "Just add tape.watch(loss) before calling gradient and the None goes away.",
            "watch-loss-fixes-none",
        ),
    ],
    "numpy-inside-tape": [
        (
            "No problem there: the tape records NumPy operations as well, so the gradients flow through.",
            "numpy-is-recorded",
        ),
        (
            "Calling .numpy() inside a GradientTape raises an exception straight away.",
            "numpy-raises-error",
        ),
        (
            "Every layer of the model, before and after the NumPy step, ends up with None gradients.",
            "numpy-kills-all-gradients",
        ),
        (
            "The early layers just get zero gradients rather than None.",
            "numpy-gives-zero-gradients",
        ),
    ],
    "persistent-tape": [
        (
            "Tapes are persistent by default, so the error must come from something else.",
            "persistent-by-default",
        ),
        (
            "A persistent tape costs nothing extra, so there's no need to delete it afterwards.",
            "persistent-is-free",
        ),
        (
            "Calling tape.reset() between the two gradient calls lets a default tape give both gradients.",
            "tape-reset-allows-second-gradient",
        ),
        (
            "I think the first gradient call consumes the loss tensor, so the second loss can't be differentiated any more.",
            "gradient-consumes-target",
        ),
    ],
    "higher-order-derivatives": [
        (
            "Just call tape.gradient twice on the same tape and the second call gives you the second derivative.",
            "gradient-twice-same-tape",
        ),
        (
            "Use one tape with persistent=True; a persistent tape can give second derivatives on its own.",
            "persistent-gives-second-order",
        ),
        (
            "Both nested tapes have to be persistent, or the second derivative fails.",
            "nested-tapes-need-persistent",
        ),
        (
            "A GradientTape only does first derivatives, so for a second derivative you need finite differences.",
            "tape-first-order-only",
        ),
    ],
    "tf-function-speedup": [
        (
            "The speedup comes from tf.function moving the computation onto the GPU.",
            "tf-function-uses-gpu",
        ),
        (
            "The biggest models gain the most, since they have the most computation to optimise.",
            "big-models-gain-most",
        ),
        (
            "tf.function always compiles with XLA, which is where the speedup comes from.",
            "tf-function-is-xla",
        ),
        (
            "After the first call the graph caches the gradients, so the backward pass is skipped.",
            "graph-caches-gradients",
        ),
    ],
    "trainable-vs-all-variables": [
        (
            "model.variables is better because it makes the optimizer update everything, including the BatchNorm statistics.",
            "pass-model-variables",
        ),
        (
            "model.variables also contains the optimizer's slot variables, like Adam's moments.",
            "variables-include-optimizer-slots",
        ),
        (
            "The two lists are always identical, so it doesn't matter which one you pass.",
            "variables-are-the-same",
        ),
        (
            "apply_gradients crashes immediately if even one of the gradients is None.",
            "none-gradient-crashes-apply",
        ),
    ],
    "training-flag": [
        (
            "training=True is what switches on gradient recording in the tape.",
            "training-flag-enables-gradients",
        ),
        (
            "Without training=True the model doesn't learn anything at all.",
            "missing-flag-stops-learning",
        ),
        (
            "If you leave training= out in a custom loop, Keras raises an error.",
            "missing-training-flag-errors",
        ),
        (
            "training=True tells the optimizer that it is allowed to update the weights.",
            "training-flag-is-optimizer-mode",
        ),
    ],
    "gradient-accumulation": [
        (
            "Just call apply_gradients after every micro-batch with a quarter of the learning rate.",
            "apply-every-micro-batch",
        ),
        (
            "Keep a single tape open over all four micro-batches and call gradient once at the end.",
            "single-tape-over-micro-batches",
        ),
        (
            "If you skip the reset, TensorFlow adds the gradients up across micro-batches on its own.",
            "tape-accumulates",
        ),
        (
            "Accumulating this way also gives BatchNorm the statistics of all 256 examples.",
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
