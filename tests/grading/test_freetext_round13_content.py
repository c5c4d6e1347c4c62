"""Round 13 of issue 14: the labeller tags of round 12's final set that no rubric knew.
Wrong statements for each belief in candidates' voices and true statements on the same
subjects that must name nothing. All were written from the tags' descriptions, the source
document and a scratch check on TF 2.21 / Keras 3.15.1 (docs/freetext-rounds.md "Round 13: rubric
content (engineer C)"), before any phrasing was written and without reading the labelled
answers; the `_HELD` lists were kept untouched until the end, as a last check: 11 of 14
held wrong statements named (0 with main's rubrics), 0 of 12 held true statements named a
tell (1 with main's: needs-zero-grad read tape.reset() as a keyword). The three held misses
are KNOWN_UNNAMED; nothing was changed after the check."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # tape-reset-is-zero-grad (new)
    ("no-zero-grad", "tape-reset-is-zero-grad", "The TF version of zero_grad is tape.reset(): call it at the start of each step so the old gradients are wiped."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "Use tape.reset() - that's what clears leftover gradients between iterations in TensorFlow."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "zero_grad() in torch == tape.reset() in tf, same job, clears the accumulated grads."),
    # zero-grad-resets-momentum (new)
    ("no-zero-grad", "zero-grad-resets-momentum", "The closest thing to zero_grad in TensorFlow is resetting the optimizer's momentum slots each step."),
    ("no-zero-grad", "zero-grad-resets-momentum", "In TF you zero the Adam moment variables (m and v) at every step; that's the equivalent of zero_grad."),
    ("no-zero-grad", "zero-grad-resets-momentum", "zero_grad's counterpart is clearing the optimizer slot variables so the momentum from the last batch doesn't leak in."),
    # optimizer-stores-accumulated-gradients (new)
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "The optimizer keeps the accumulated gradients in its slot variables between steps, so there's no separate zero_grad."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "Gradients are summed into the optimizer's slots across steps, and apply_gradients empties them."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "Keras optimizers store the running gradient sum in slot variables between iterations."),
    # persistent-fixes-none (new)
    ("why-none-gradients", "persistent-fixes-none", "Make the tape persistent=True; then it keeps the recording and the gradients stop being None."),
    ("why-none-gradients", "persistent-fixes-none", "The None gradients happen because the tape isn't persistent - set persistent=True and they come back."),
    ("why-none-gradients", "persistent-fixes-none", "Fix: GradientTape(persistent=True), so the tape is still around when you ask for the gradients."),
    # must-watch-inputs (new)
    ("why-none-gradients", "must-watch-inputs", "You have to call tape.watch(x) on the input batch, otherwise the weights get no gradients."),
    ("why-none-gradients", "must-watch-inputs", "The inputs aren't watched - add tape.watch(inputs) and the model's gradients will appear."),
    ("why-none-gradients", "must-watch-inputs", "Without watching the input tensor, the tape can't trace back to the weights, so everything is None."),
    # tf-hessians-works-eagerly (new)
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "Easiest way: just call tf.hessians(y, x) in eager mode, no tapes needed."),
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "tf.hessians gives you the second derivative in one call, so nesting tapes is optional."),
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "Instead of nested tapes you can use tf.hessians directly in TF2 eager code."),
    # outer-watch-visible-to-inner (new)
    ("higher-order-derivatives", "outer-watch-visible-to-inner", "Call outer.watch(x) once; the inner tape sees it too because it's nested inside."),
    ("higher-order-derivatives", "outer-watch-visible-to-inner", "Watching x on the outer tape is enough, the inner tape inherits the watch."),
    ("higher-order-derivatives", "outer-watch-visible-to-inner", "One watch on the outer tape covers both tapes when x is a constant."),
    # source-arg-watches (new)
    ("higher-order-derivatives", "source-arg-watches", "You don't need tape.watch for a constant; passing x as the source to gradient() is enough."),
    ("higher-order-derivatives", "source-arg-watches", "Passing the constant as the second argument of tape.gradient makes the tape track it."),
    ("higher-order-derivatives", "source-arg-watches", "tape.gradient(y, x) works on a tf.constant x because naming it as the source watches it."),
    # inference-mode-freezes-bn-params (new)
    ("training-flag", "inference-mode-freezes-bn-params", "Without training=True, BatchNorm's gamma and beta get no gradients, so they never learn."),
    ("training-flag", "inference-mode-freezes-bn-params", "In inference mode the BN scale and offset are frozen and don't get trained."),
    ("training-flag", "inference-mode-freezes-bn-params", "Leaving out the flag freezes BatchNorm's trainable parameters (gamma/beta)."),
    # apply-filters-non-trainable (new)
    ("trainable-vs-all-variables", "apply-filters-non-trainable", "Passing model.variables is harmless because apply_gradients skips the non-trainable ones anyway."),
    ("trainable-vs-all-variables", "apply-filters-non-trainable", "apply_gradients automatically filters out non-trainable variables, even if you pass them."),
    ("trainable-vs-all-variables", "apply-filters-non-trainable", "The optimizer ignores variables with trainable=False, so moving_mean is never touched."),
    # tf-function-tape-reusable (new)
    ("persistent-tape", "tf-function-tape-reusable", "Inside a tf.function you can call gradient twice on a normal tape; the RuntimeError is an eager-only thing."),
    ("persistent-tape", "tf-function-tape-reusable", "Wrap the step in tf.function and the non-persistent tape can be reused for both losses."),
    ("persistent-tape", "tf-function-tape-reusable", "In graph mode the tape isn't released after the first call, so two gradient calls work."),
    # embedding-grad-dense (new)
    ("gradient-vs-apply", "embedding-grad-dense", "For an embedding layer, tape.gradient returns a dense tensor the size of the whole table."),
    ("gradient-vs-apply", "embedding-grad-dense", "The embedding's gradient is a full dense matrix of vocab_size x dim, mostly zeros."),
    ("gradient-vs-apply", "embedding-grad-dense", "tape.gradient materialises a dense gradient for the entire embedding table, even if you looked up three rows."),
    # outer-watches-tape-object (mapped onto outer-records-inner-tape-object)
    ("higher-order-derivatives", "outer-records-inner-tape-object", "The outer tape watches the inner tape itself, as an object."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "For the second derivative, the outer tape is watching the inner GradientTape object."),
    # tape-never-reusable (mapped onto separate-gradients-impossible)
    ("persistent-tape", "separate-gradients-impossible", "A tape can only ever be used for one gradient call, so for two losses you either sum them or run the forward pass twice."),
    ("persistent-tape", "separate-gradients-impossible", "No tape can give two gradients from one recording; do a second forward pass for loss2."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "tape.reset() exists, but it discards the tape's recording so far, not gradients; it is not a zero_grad."),
    ("no-zero-grad", "There is nothing to clear: you open a new tape every step, so you never need tape.reset() or anything like zero_grad."),
    ("no-zero-grad", "PyTorch's zero_grad never touches momentum; Adam's moments live in the optimizer in both frameworks and must persist across steps."),
    ("no-zero-grad", "Resetting the optimizer's slot variables would throw away momentum, which is not what zero_grad does; TF just needs no zeroing."),
    ("no-zero-grad", "The optimizer's slot variables hold momentum and velocity, not gradients; each step's gradients come fresh from tape.gradient."),
    ("no-zero-grad", "Only if you build a Keras 3 optimizer with gradient_accumulation_steps does it keep gradient accumulators, and it resets them itself after each update."),
    ("why-none-gradients", "persistent=True only lets you call gradient more than once; it doesn't fix None gradients from a loss computed outside the block."),
    ("why-none-gradients", "Making the tape persistent won't help here: the loss must be computed inside the with block."),
    ("why-none-gradients", "You only need tape.watch(x) if you want the gradient with respect to the input x; the weights are watched automatically."),
    ("why-none-gradients", "Watching the inputs changes nothing for the weights' gradients; trainable variables are watched on their own."),
    ("higher-order-derivatives", "tf.hessians is built on tf.gradients, which raises a RuntimeError in eager mode; in TF2 nest two tapes."),
    ("higher-order-derivatives", "tf.hessians only works inside a graph (e.g. in a tf.function); eagerly you nest GradientTapes."),
    ("higher-order-derivatives", "With a constant x, call watch on both tapes: a watch on the outer tape doesn't make the inner one watch x."),
    ("higher-order-derivatives", "Each tape keeps its own watched set; the inner tape doesn't inherit the outer tape's watch."),
    ("higher-order-derivatives", "Naming a constant as the source isn't enough: without tape.watch(x) before the computation, the gradient is None."),
    ("higher-order-derivatives", "The source argument only says what to differentiate with respect to; a constant must be watched before it is used."),
    ("higher-order-derivatives", "The outer tape records the operations that inner.gradient runs; it never watches the tape object."),
    ("training-flag", "Even without training=True, gamma and beta get gradients and are updated; only the normalisation uses the moving statistics, which aren't updated."),
    # Round 16: named by the neighbours once round 15's set joined tune; round 17: no more,
    # the suggestion hung on one writer's answers (docs/freetext-rounds.md, round 17, V).
    ("training-flag", "In inference mode BatchNorm's gamma and beta are still trained by the optimizer; what changes is which statistics it normalises with."),
    ("trainable-vs-all-variables", "apply_gradients doesn't check the trainable flag: given a real gradient for moving_mean, it updates it."),
    ("trainable-vs-all-variables", "Non-trainable variables usually get None gradients, and apply_gradients skips None gradients with a warning; it does not filter by trainability."),
    ("persistent-tape", "Even inside tf.function a non-persistent tape raises the RuntimeError on a second gradient call, at trace time."),
    ("persistent-tape", "tf.function doesn't change the one-call rule; use persistent=True there too."),
    ("persistent-tape", "A default tape serves one gradient call; persistent=True lets one recording serve both losses."),
    ("persistent-tape", "Summing the losses gives one gradient of the sum; for separate gradients from one forward pass use a persistent tape."),
    ("gradient-vs-apply", "For an embedding lookup, tape.gradient returns tf.IndexedSlices holding only the looked-up rows."),
    ("gradient-vs-apply", "The embedding gradient is sparse: an IndexedSlices with the rows' values and their indices, not a table-sized tensor."),
]  # fmt: skip

WRONG_HELD = [
    ("no-zero-grad", "tape-reset-is-zero-grad", "In a custom loop you reset the tape every iteration; that's TensorFlow's way of zeroing the gradients from the last batch."),
    ("no-zero-grad", "zero-grad-resets-momentum", "To mimic zero_grad, reinitialise the optimizer's velocity and momentum variables before each update."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "Adam's slot variables are where TF accumulates the gradients from step to step."),
    ("why-none-gradients", "persistent-fixes-none", "A persistent tape solves it, since it holds on to the ops until you call gradient."),
    ("why-none-gradients", "must-watch-inputs", "Remember to watch your features tensor before the forward pass or the variables' gradients come back None."),
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "Skip the nested tapes and call tf.hessians(loss, params); it works fine eagerly."),
    ("higher-order-derivatives", "outer-watch-visible-to-inner", "Since the inner tape is opened inside the outer one, it also watches whatever the outer tape watches."),
    ("higher-order-derivatives", "source-arg-watches", "Giving x as the sources argument is all it takes; the tape then differentiates with respect to it."),
    ("training-flag", "inference-mode-freezes-bn-params", "Omitting training means batch norm's learnable scale and shift stay fixed during the step."),
    ("trainable-vs-all-variables", "apply-filters-non-trainable", "Keras's optimizer checks the trainable flag and leaves the non-trainable variables alone, whatever list you hand it."),
    ("persistent-tape", "tf-function-tape-reusable", "Decorating the train step with @tf.function makes the second tape.gradient call fine without persistent=True."),
    ("gradient-vs-apply", "embedding-grad-dense", "Even for a 1M-row embedding, the gradient you get back is a dense tensor covering every row."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "It works because outer has the inner tape on its watch list."),
    ("persistent-tape", "separate-gradients-impossible", "Once a tape has produced gradients it's spent for good, so compute loss1 + loss2 and take one gradient."),
]  # fmt: skip

CORRECT_HELD = [
    ("no-zero-grad", "Calling tape.reset() after the forward pass would throw away the recording and give you None gradients; TF has no zero_grad because nothing is stored."),
    ("no-zero-grad", "The optimizer's slots hold momentum and Adam's moments, which are meant to carry over between steps; only the gradients are fresh each step."),
    ("no-zero-grad", "Slot variables such as Adam's m and v are running averages used by the update rule; no gradient sum is stored in the optimizer."),
    ("why-none-gradients", "A default tape still has its recording when you call gradient after the block; persistence only matters for a second call."),
    ("why-none-gradients", "tape.watch(x) is for input gradients like saliency maps; the model's variables get gradients without it."),
    ("higher-order-derivatives", "In eager TF2 the answer is nested tapes; tf.hessians is a graph-mode API."),
    ("higher-order-derivatives", "If only the outer tape watches x, the inner gradient comes back None."),
    ("higher-order-derivatives", "For a tf.constant you must call tape.watch(x) inside the block; listing it in gradient() comes too late."),
    ("training-flag", "Setting bn.trainable = False freezes gamma and beta and, in Keras, also runs the layer in inference mode."),  # as above
    ("trainable-vs-all-variables", "The optimizer applies whatever (gradient, variable) pairs you give it, trainable or not."),
    ("persistent-tape", "Graph mode or eager, a default tape allows one gradient call."),
    ("gradient-vs-apply", "An embedding's gradient comes back as IndexedSlices, not a dense table-sized tensor."),
]  # fmt: skip


# Held wrong statements the new phrasings do not name (the last check): "reset the tape"
# and "zeroing the gradients" sit in two clauses split by a semicolon; "makes the second
# tape.gradient call fine" is not "twice"/"reused"; "on its watch list" is not "watches
# the inner tape object".
# Round 52 (W10): "that's TensorFlow's way ..." takes its subject from the clause before, so the
# first held statement (tape-reset-is-zero-grad) is named and left this list.
KNOWN_UNNAMED = [
    ("persistent-tape", "tf-function-tape-reusable", "Decorating the train step with @tf.function makes the second tape.gradient call fine without persistent=True."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "It works because outer has the inner tape on its watch list."),
]  # fmt: skip

# Round 14 (engineer C): optimizer-clears-grads no longer reads "it resets them itself after
# each update" beside Keras 3's own accumulators; that statement is back among CORRECT.
WRONG_HELD = [w for w in WRONG_HELD if w not in KNOWN_UNNAMED]


test_grade_freetext_names_a_round13_tell = names_the_tell(WRONG + WRONG_HELD)


# Round 18's start (round 17's final set joined tune, neighbours retrained): the neighbours
# suggested inference-mode-freezes-bn-params on true statements 18 and 35 (the rules name
# nothing); they came and went with retrains (not in round 23, 18 again in round 25) and were
# strict xfails. Round 26: a learned tell needs the answer's own evidence of it
# (learned_evidence.py), which neither gives ("still", ".trainable" are the tell's excluded
# roles), so they are plain tests again, whatever a retrain suggests.
test_grade_freetext_round13_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round13_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the new phrasings do not read this held statement"
)
