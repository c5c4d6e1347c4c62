"""Round 17 of issue 14: the six labeller tags of round 16's final set that no rubric knew
(mapped onto the rubric tag naming the same belief, or added where the source document
implies them), and the worst-named tell of gradient-vs-apply (`apply-ignores-optimizer-rule`,
15 of 17 labelled answers unnamed). Wrong statements for each belief in candidates' voices and
true statements on the same subjects that must name nothing. All were written from the tags'
descriptions, the source document and a scratch check on TF 2.21 / Keras 3.15.1
(docs/freetext-rounds.md "Round 17: rubric content (engineer C)") before any phrasing was
written; the `_HELD` lists were kept untouched until the end, as a last check."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question
from tests.grading.held_statements import names_nothing, names_the_tell

# Round 26: held statements the neighbours named from words alone; a learned tell now needs
# the answer's own evidence (learned_evidence.py), which these do not give.
NO_EVIDENCE = (
    "round 26: named by the neighbours alone; a learned tell needs the answer's evidence of "
    "it (learned_evidence.py) and no phrasing of the tell reads this, loosely or not"
)

WRONG = [
    # broken-tape-raises-error, mapped onto numpy-raises-error (numpy-inside-tape)
    ("numpy-inside-tape", "numpy-raises-error", "A broken chain makes tape.gradient raise an exception, so as long as training runs without an error the gradients are flowing."),
    ("numpy-inside-tape", "numpy-raises-error", "The .numpy() call breaks the graph and TensorFlow throws an error at the gradient call."),
    # gradient-updates-bn-stats, mapped onto gradient-updates-weights (tape.gradient changes model state)
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient also updates the BatchNorm moving mean and variance as it runs the backward pass."),
    ("gradient-vs-apply", "gradient-updates-weights", "The backward pass is where BatchNorm's running statistics get updated; apply_gradients then handles the trainable weights."),
    ("training-flag", "gradient-updates-weights", "With training=True, tape.gradient updates the moving mean and variance of each BatchNorm layer."),
    # zero-grad-is-memory-cleanup (new, no-zero-grad)
    ("no-zero-grad", "zero-grad-is-memory-cleanup", "zero_grad is just memory cleanup - PyTorch makes you free the gradient buffers yourself, while TensorFlow's garbage collector does it for you."),
    ("no-zero-grad", "zero-grad-is-memory-cleanup", "TensorFlow doesn't need zero_grad because the garbage collector frees the old gradients automatically."),
    # training-flag-controls-rnn-state (new, training-flag)
    ("training-flag", "training-flag-controls-rnn-state", "training=True also tells a stateful LSTM to carry its hidden state over to the next batch."),
    ("training-flag", "training-flag-controls-rnn-state", "Without the flag, recurrent layers reset their hidden state on every call instead of keeping it between batches."),
    # frozen-bn-adapts-with-training-flag (new, training-flag)
    ("training-flag", "frozen-bn-adapts-with-training-flag", "Even with the backbone frozen (trainable=False), passing training=True lets its BatchNorm statistics adapt to the new dataset."),
    ("training-flag", "frozen-bn-adapts-with-training-flag", "When fine-tuning a frozen base model, call it with training=True so the batch norm layers keep updating their moving averages on your data."),
    # python-state-persists-in-tf-function (new, tf-function-speedup)
    ("tf-function-speedup", "python-state-persists-in-tf-function", "Inside a tf.function a Python counter works like a static local: it increments on every call and keeps its value between calls."),
    ("tf-function-speedup", "python-state-persists-in-tf-function", "Python side effects like print or appending to a list still run on every call of the compiled function."),
    # apply-ignores-optimizer-rule widened (gradient-vs-apply)
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "apply_gradients is always just w = w - lr * g under the hood, whatever optimizer you picked."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "The optimizers only differ in how they schedule the learning rate; the update itself is one subtraction."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "apply_gradients basically multiplies each gradient by the learning rate and subtracts it, that's all it does."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "The optimizer object is really just a container for the learning rate."),
    # single-tape-over-micro-batches widened (gradient-accumulation)
    ("gradient-accumulation", "single-tape-over-micro-batches", "Open one `tf.GradientTape(persistent=True)` and run all four micro-batches inside it, then call gradient once on the total."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Just keep a single tape for all four micro-batches and sum their losses."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Inside the with block you loop over the four chunks of 64 and add up the losses."),
    # tape-stores-no-activations widened (gradient-accumulation)
    ("gradient-accumulation", "tape-stores-no-activations", "Memory is fine because the tape records the ops, not the data."),
    ("gradient-accumulation", "tape-stores-no-activations", "Each micro-batch's activations are freed as soon as its forward pass finishes, even inside the one tape."),
    # tape-holds-gradients widened (no-zero-grad)
    ("no-zero-grad", "tape-holds-gradients", "Each step builds a new tape and the old gradients are thrown away along with the old tape."),
    ("no-zero-grad", "tape-holds-gradients", "The gradients are effectively cleared when the tape goes out of scope at the end of the step."),
    ("no-zero-grad", "tape-holds-gradients", "In TensorFlow the tape is the gradient storage, so a new tape per step means nothing to clear."),
    # persistent-is-free widened (persistent-tape): nothing to do afterwards, the tape cleans itself up
    ("persistent-tape", "persistent-is-free", "Make it persistent=True; afterwards nothing special is needed."),
    ("persistent-tape", "persistent-is-free", "With persistent=True you can call gradient twice, and the tape is cleaned up automatically when the with block exits."),
    # pass-model-variables widened (trainable-vs-all-variables): only a matter of cost
    pytest.param(
        "trainable-vs-all-variables", "pass-model-variables", "Mostly cost: fewer variables to differentiate.",
        marks=pytest.mark.xfail(
            strict=True,
            reason=NO_EVIDENCE,
        ),
    ),
    ("trainable-vs-all-variables", "pass-model-variables", "trainable_variables is just the convention; either way you get identical gradients."),
    # Named by the neighbours only (the rules alone name nothing). Round 26's start: the
    # neighbours retrained with round 25's set in tune no longer suggested it (a strict xfail);
    # round 28's start (round 27's set in tune) suggests it again, and the answer has the
    # evidence the guard asks (its phrasing as written): a plain test again.
    ("trainable-vs-all-variables", "pass-model-variables", "Passing model.variables wouldn't actually break anything, it would just waste some compute."),
    # tape-accumulates widened (no-zero-grad): the reason given for a reset
    ("no-zero-grad", "tape-accumulates", "Call tape.reset() at the start of each step so the gradients from the previous batch don't leak into the next one."),
    ("no-zero-grad", "tape-accumulates", "The TF equivalent is tape.reset(); call it before the forward pass so the old gradients are cleared."),
    # Held (the last check, run once, nothing changed after it): "but" ends the clause that
    # says frozen, and "only change the learning rate" (change is not among the claim's verbs;
    # "the same assign_sub(...)" has no just / only).
    ("training-flag", "frozen-bn-adapts-with-training-flag", "Setting trainable=False freezes the weights, but with training=True the BatchNorm running mean and variance still update."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Under the hood every optimizer's apply_gradients is the same assign_sub(learning_rate * grad); Adam or RMSprop only change the learning rate."),
]  # fmt: skip

# gradient-outside-outer-tape written as code (higher-order-derivatives): the inner tape's gradient()
# on a line back at the outer with's indentation, after both blocks closed.
_NESTED = "with tf.GradientTape() as {o}:\n{ow}    with tf.GradientTape() as {i}:\n{iw}        y = x * x * x\n"
CODE_WRONG = [
    "Nest them:\n```\n" + _NESTED.format(o="t2", i="t1", ow="", iw="") + "dy = t1.gradient(y, x)\nd2y = t2.gradient(dy, x)\n```\nThe outer tape records everything the inner one does.",
    "x = tf.Variable(2.0)\n" + _NESTED.format(o="outer", i="inner", ow="", iw="") + "dy_dx = inner.gradient(y, x)\nd2 = outer.gradient(dy_dx, x)\nThe outer tape sees everything, so you take the gradient of the gradient.",
    "```python\nx = tf.constant(2.0)\n" + _NESTED.format(o="t2", i="t1", ow="    t2.watch(x)\n", iw="        t1.watch(x)\n") + "g = t1.gradient(y, x)\nh = t2.gradient(g, x)\n```\nThe inner tape gives the first derivative.",
]  # fmt: skip
_ONE_TAPE = "with tf.GradientTape() as tape:\n    total = 0.0\n    for xb, yb in micro_batches:\n        total += loss_fn(yb, model(xb, training=True)) / 4\ngrads = tape.gradient(total, model.trainable_variables)\n"
_TAPE_EACH = "for xb, yb in micro_batches:\n    with tf.GradientTape() as tape:\n        loss = loss_fn(yb, model(xb, training=True)) / 4\n    grads = tape.gradient(loss, model.trainable_variables)\n    for acc, g in zip(accum, grads):\n        acc.assign_add(g)\n"
CODE_CORRECT = [
    "Nest them:\n```\n" + _NESTED.format(o="t2", i="t1", ow="", iw="") + "    dy = t1.gradient(y, x)\nd2y = t2.gradient(dy, x)\n```\nThe outer tape records the inner gradient computation.",
    "```python\nx = tf.constant(2.0)\n" + _NESTED.format(o="outer", i="inner", ow="    outer.watch(x)\n", iw="        inner.watch(x)\n") + "    dy_dx = inner.gradient(y, x)\nd2y = outer.gradient(dy_dx, x)\n```\nThe outer tape is still recording when the inner gradient is taken, so it can differentiate it again.",
    "Inside the outer block I take the first derivative:\n```\n" + _NESTED.format(o="t2", i="t1", ow="", iw="") + "        dy = t1.gradient(y, x)\nd2y = t2.gradient(dy, x)\n```\nThe outer tape records that gradient computation.",
]  # fmt: skip

WRONG_HELD = [
    ("numpy-inside-tape", "numpy-raises-error", "You'd notice right away: tape.gradient fails with an exception when the chain is broken."),
    ("gradient-vs-apply", "gradient-updates-weights", "Calling tape.gradient refreshes the batch norm moving statistics along with computing the gradients."),
    ("no-zero-grad", "zero-grad-is-memory-cleanup", "The point of zero_grad is to release the memory held by the gradients; in TF the garbage collector handles that."),
    ("training-flag", "training-flag-controls-rnn-state", "The flag decides whether an RNN keeps its state between calls, so in training mode the GRU remembers the previous sequence."),
    ("training-flag", "frozen-bn-adapts-with-training-flag", "Setting trainable=False freezes the weights, but with training=True the BatchNorm running mean and variance still update."),
    ("tf-function-speedup", "python-state-persists-in-tf-function", "Plain Python variables inside the decorated step get updated on each call, just like in eager mode."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Under the hood every optimizer's apply_gradients is the same assign_sub(learning_rate * grad); Adam or RMSprop only change the learning rate."),
]  # fmt: skip

CORRECT = [
    # numpy-raises-error
    ("numpy-inside-tape", "Nothing raises: the chain breaks silently and tape.gradient returns None for the layers before the conversion."),
    # gradient-updates-bn-stats
    ("gradient-vs-apply", "tape.gradient updates nothing, not even BatchNorm's moving statistics; those are updated in the forward pass when the layer runs with training=True."),
    ("training-flag", "With training=True, BatchNorm updates its moving mean and variance during the forward pass; tape.gradient and apply_gradients don't touch them."),
    # zero-grad-is-memory-cleanup
    ("no-zero-grad", "zero_grad exists because PyTorch accumulates into .grad; TensorFlow returns fresh gradient tensors, and the old ones are freed by garbage collection like any other tensor."),
    ("no-zero-grad", "In PyTorch, zero_grad clears the accumulated .grad values so the next backward pass doesn't add to them."),
    # training-flag-controls-rnn-state
    ("training-flag", "Whether an LSTM carries its hidden state between batches is set by stateful=True, not by the training flag; training=True turns on its dropout."),
    ("training-flag", "For an LSTM, training=True switches its dropout and recurrent dropout on; the hidden state across batches is a separate setting, stateful=True."),
    # frozen-bn-adapts-with-training-flag
    ("training-flag", "A BatchNormalization layer with trainable=False runs in inference mode even when called with training=True, so its moving statistics stay frozen."),
    ("training-flag", "When you unfreeze the backbone, BatchNorm runs in training mode again and its moving mean and variance start updating."),
    # python-state-persists-in-tf-function
    ("tf-function-speedup", "Python side effects inside a tf.function run only while it is traced, so a print or a list append happens once, not on every call."),
    ("tf-function-speedup", "The Python code in the step runs once at trace time; after that each call executes the graph, which is where the speedup for small models comes from."),
    # apply-ignores-optimizer-rule
    ("gradient-vs-apply", "For plain SGD, apply_gradients does w = w - lr * g; Adam also updates its moment estimates and scales the step per parameter."),
    ("gradient-vs-apply", "apply_gradients runs the optimizer's whole rule - momentum, Adam moments, weight decay - not just w = w - lr * g."),
    ("gradient-vs-apply", "The optimizer holds the learning rate and its slot variables, and apply_gradients uses both."),
    ("gradient-vs-apply", "You just pick an optimizer and a learning rate; apply_gradients then applies that optimizer's update rule to each variable."),
    # single-tape-over-micro-batches, tape-stores-no-activations
    ("gradient-accumulation", "Use a fresh tape for each micro-batch rather than one tape over all four, and add its gradients into the accumulators."),
    ("gradient-accumulation", "For each of the four micro-batches, open a new tape, compute the loss inside the with block, take the gradients and add them into the accumulators."),
    ("gradient-accumulation", "A tape keeps the activations its gradient needs, so one tape over all four micro-batches would hold the memory of the full batch."),
    ("gradient-accumulation", "Each micro-batch's activations are freed once its own tape's gradient() call returns."),
    # tape-holds-gradients
    ("no-zero-grad", "The tape is discarded at the end of the step along with its recording; the gradients were never in it, tape.gradient returned them as new tensors."),
    ("no-zero-grad", "The gradient tensors tape.gradient returned are dropped once apply_gradients has used them, like any other tensor."),
    ("no-zero-grad", "A tape is a recording of the forward pass, not a gradient store."),
    # tape-accumulates
    # persistent-is-free
    ("persistent-tape", "A persistent tape keeps its recording until you del it, so delete it once you have both gradients."),
    ("persistent-tape", "A default tape releases its recording automatically after the first gradient() call; a persistent one holds it until the tape is deleted."),
    # pass-model-variables
    ("trainable-vs-all-variables", "It's not just about cost: model.variables includes BatchNorm's moving statistics, which the optimizer must not update."),
    ("trainable-vs-all-variables", "Passing model.variables would break the BatchNorm statistics, since apply_gradients would try to update them."),
    ("trainable-vs-all-variables", "For a model with no non-trainable variables both lists are the same, so either works there; add a BatchNorm layer and they differ."),
    ("no-zero-grad", "tape.gradient returns a fresh list every step, so the old gradients never leak into the next one."),
    ("no-zero-grad", "In PyTorch you call zero_grad so the previous batch's gradients are cleared before the next backward()."),
    ("no-zero-grad", "There are no old gradients to clear: apply_gradients consumes the list and the next step computes a new one."),
]  # fmt: skip

CORRECT_HELD = [
    ("numpy-inside-tape", "Inside a tf.function .numpy() does raise, since a symbolic tensor has no value; run eagerly it fails silently and the gradients are None."),
    ("gradient-vs-apply", "Neither call touches BatchNorm's moving statistics: the layer's forward pass in training mode updates them."),
    ("no-zero-grad", "TensorFlow has no zero_grad because tape.gradient returns a fresh list every step; memory is freed by garbage collection, but that is not what zero_grad is for."),
    ("training-flag", "The flag has nothing to do with an RNN's hidden state, which only carries over when the layer is stateful."),
    ("training-flag", "If you freeze a BatchNorm layer with trainable=False it uses its moving statistics, whatever training flag you pass."),
    ("tf-function-speedup", "A Python counter inside a tf.function only increments while tracing; use a tf.Variable if it must change on every call."),
    ("gradient-vs-apply", "Only with plain SGD is apply_gradients a bare w -= lr * g; with Adam it also keeps running averages of the gradients per variable."),
]  # fmt: skip

# Wrong statements the grader does not name: the first three state the belief across two clauses
# (the flag in "Without the flag," or "Even with the backbone frozen (...)," and the state in the
# next clause; "call it with training=True so the batch norm layers keep updating"), and a claim's
# roles must share one clause; the last gives tape-accumulates as the purpose of a reset ("so the
# old gradients are cleared" is no claim that they pile up; the reader's, engineer R's area).
# Round 18 (engineer R): "Call tape.reset() ... so the gradients from the previous batch don't
# leak into the next one" is named now (a denied reset's purpose is affirmed, purposes.py) and
# is back among the wrong statements named.
# Round 35 (engineer C16): "The TF equivalent is tape.reset(); call it before the forward pass so
# the old gradients are cleared" is named now (tape-accumulates reads a zeroing said to clear the
# old gradients where the tape is named before it) and is back among the wrong statements named.
KNOWN_UNNAMED = [
    # Held (the last check, run once, nothing changed after it): "but" ends the clause that
    # says frozen, and "only change the learning rate" (change is not among the claim's verbs;
    # "the same assign_sub(...)" has no just / only).
    ("training-flag", "frozen-bn-adapts-with-training-flag", "Setting trainable=False freezes the weights, but with training=True the BatchNorm running mean and variance still update."),
    # (round 32: "the same assign_sub(learning_rate * grad)" is named since round 31's set
    # joined tune and the learned parts were retrained; it is a plain WRONG_HELD case again.)
    ("training-flag", "training-flag-controls-rnn-state", "Without the flag, recurrent layers reset their hidden state on every call instead of keeping it between batches."),
    ("training-flag", "frozen-bn-adapts-with-training-flag", "Even with the backbone frozen (trainable=False), passing training=True lets its BatchNorm statistics adapt to the new dataset."),
    ("training-flag", "frozen-bn-adapts-with-training-flag", "When fine-tuning a frozen base model, call it with training=True so the batch norm layers keep updating their moving averages on your data."),
]  # fmt: skip
# True statements that name a tell with main's rubrics already, by phrasings this round did not
# touch (engineer T's area): a counterfactual "one tape over all four micro-batches would
# hold ..." read as the advice (single-tape-over-micro-batches, tape-accumulates); "the tape is
# discarded at the end of the step" read as tape-discarded-on-block-exit.
# "When you unfreeze the backbone, BatchNorm runs in training mode again and its moving mean and
# variance start updating." names nothing since engineer T's round 17 edit
# (training-flag-is-optimizer-mode needs the flag as the one unfreezing): a true statement again.
# Round 49 (engineer C44): "the gradients are None" in an answer that never says which variables lose them names
# numpy-kills-all-gradients (the labellers tag every such not-read answer over tune; docs/freetext-rounds.md).
KNOWN_NAMED = [
    ("numpy-inside-tape", "Inside a tf.function .numpy() does raise, since a symbolic tensor has no value; run eagerly it fails silently and the gradients are None."),
    ("gradient-accumulation", "A tape keeps the activations its gradient needs, so one tape over all four micro-batches would hold the memory of the full batch."),
    ("no-zero-grad", "The tape is discarded at the end of the step along with its recording; the gradients were never in it, tape.gradient returned them as new tensors."),
]  # fmt: skip
WRONG = [w for w in WRONG if w not in KNOWN_UNNAMED]
WRONG_HELD = [w for w in WRONG_HELD if w not in KNOWN_UNNAMED]
CORRECT = [c for c in CORRECT if c not in KNOWN_NAMED]
CORRECT_HELD = [c for c in CORRECT_HELD if c not in KNOWN_NAMED]


test_grade_freetext_names_a_round17_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round17_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round17_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the phrasings do not read this statement"
)
test_grade_freetext_round17_known_named_statements = names_nothing(
    KNOWN_NAMED, xfail="named with main's rubrics already (another tag)"
)


@pytest.mark.parametrize("answer", CODE_WRONG)
def test_grade_freetext_names_an_inner_gradient_after_both_blocks(answer: str) -> None:
    misconceptions = grade_freetext(question("higher-order-derivatives"), answer).misconceptions
    assert "gradient-outside-outer-tape" in misconceptions


@pytest.mark.parametrize("answer", CODE_CORRECT)
def test_grade_freetext_inner_gradient_inside_the_outer_block_names_nothing(answer: str) -> None:
    assert grade_freetext(question("higher-order-derivatives"), answer).misconceptions == []


# Round 43 (engineer C32): a `with tf.GradientTape()` block around the micro-batch loop is read
# in code (a strict xfail until then: claims were read in prose only).
def test_grade_freetext_names_a_loop_over_micro_batches_inside_one_tape() -> None:
    answer = "Sum the losses under one tape:\n```python\n" + _ONE_TAPE + "```\nThen apply once."
    misconceptions = grade_freetext(question("gradient-accumulation"), answer).misconceptions
    assert "single-tape-over-micro-batches" in misconceptions


def test_grade_freetext_a_tape_per_micro_batch_in_code_names_nothing() -> None:
    answer = (
        "One tape per micro-batch:\n```python\n"
        + _TAPE_EACH
        + "```\nApply the sums every four micro-batches, then reset the accumulators."
    )
    assert grade_freetext(question("gradient-accumulation"), answer).misconceptions == []
