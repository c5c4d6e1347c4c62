"""Round 11 (issue 14, engineer T): true statements the rules read as a misconception.

Written before any round-11 change (docs/freetext-rounds.md "Round 11: false tells (engineer
T)"): 42 true statements in candidates' voices (terse, rambling, analogies, code,
non-native English, PyTorch contrasted) about the ten core questions and 21 misconceptions
naming known tells. TRUE_TUNED (28) and WRONG_TUNED (14) were read while fixing; TRUE_CHECK
(12), the two check misses and WRONG_CHECK (7) were run once, at the end (true statements
with a tell: 2 of 14 before, 2 after; all 7 wrong ones named before and after). One miss
was fixed after that reading (CHECK_FIXED_AFTER, in-sample since); CHECK_MISSES was left (fixed in round 12).
Rules alone, as the round measured them.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from app.packs.rubric import Rubric
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

TRUE_TUNED = [
    (
        "no-zero-grad",
        "Nowhere. In PyTorch the grads pile up in .grad across backward() calls, that's why you zero them; TF has no .grad to clear.",
    ),
    (
        "no-zero-grad",
        "There isn't one to call. tape.gradient hands back brand-new tensors each time and the tape is thrown away after the step, so nothing carries over.",
    ),
    (
        "no-zero-grad",
        "Think of PyTorch's .grad as a bucket you must empty; TensorFlow gives you a fresh cup every step, no bucket at all.",
    ),
    (
        "no-zero-grad",
        "In TF you dont need it. Gradients is just return value of tape.gradient, not kept on variable, so next step they are new.",
    ),
    (
        "no-zero-grad",
        "Only if you build your own accumulators (say for micro-batches) do you reset something, and that's your tf.Variable buffers, not an optimizer method.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient is pure: it differentiates the recorded ops and returns one tensor per variable, it avoids touching any weight. apply_gradients is the one that writes.",
    ),
    (
        "gradient-vs-apply",
        "gradient() = the math (d loss / d w). apply_gradients() = the optimizer step (w -= lr*g for SGD, moments for Adam). Only the second mutates the variables.",
    ),
    (
        "gradient-vs-apply",
        "Like loss.backward() without optimizer.step(): tape.gradient gives you the grads, the weights stay put until apply_gradients runs.",
    ),
    (
        "gradient-vs-apply",
        "The gradient call never changes weights, it only reads the tape; weights move when optimizer.apply_gradients(zip(grads, vars)) is executed.",
    ),
    (
        "why-none-gradients",
        "The loss was computed outside the with block, so the tape has no record of it: there is no recorded path from the loss back to any variable, hence None. Move the forward pass and the loss inside.",
    ),
    (
        "why-none-gradients",
        "None is not zero. A zero gradient means the path exists and the derivative happens to vanish; None means no path was recorded at all.",
    ),
    (
        "why-none-gradients",
        "Most likely model(x) or the loss ran after the tape closed. Without those ops on the tape TF can't connect loss to weights, so each gradient comes back None. Indent them into the block.",
    ),
    (
        "why-none-gradients",
        "Gradients that vanish in a deep net are tiny numbers, not None - None here means disconnected, usually the loss outside the tape.",
    ),
    (
        "numpy-inside-tape",
        "h.numpy() leaves TensorFlow; the tape cannot see NumPy maths, so it records nothing there. The next layer gets a constant, the chain is cut, everything before h gets None.",
    ),
    (
        "numpy-inside-tape",
        "No error, but silently broken: numpy ops aren't TF ops, the tape has no record of them, and gradients stop at the conversion - layers before it get None, layers after still train.",
    ),
    (
        "numpy-inside-tape",
        "It's like photocopying a page halfway through: the rest of the model reads the copy, so the tape can't trace back past it. Upstream variables get None.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables also has BN moving_mean/moving_variance and frozen weights; they have no gradient (None), and passing only trainable ones avoids creating optimizer slots for weights that never move.",
    ),
    (
        "trainable-vs-all-variables",
        "Because non-trainable vars (BN stats, frozen layers) must not be touched by the optimizer. With model.variables you'd get None grads for them and warnings.",
    ),
    (
        "trainable-vs-all-variables",
        "trainable_variables is the list the optimizer should update. The others are updated by assignment in the forward pass, not by gradient descent.",
    ),
    (
        "persistent-tape",
        "A normal tape frees its resources after the first gradient() call, so the second raises. Use persistent=True to keep it, then del tape when you're done.",
    ),
    (
        "persistent-tape",
        "Non-persistent tapes are one-shot. Open it with persistent=True, take both gradients, then delete it - a persistent tape holds memory until you drop the reference.",
    ),
    (
        "persistent-tape",
        "Alternatively pass both losses in one call as a list target, but that gives the gradient of their sum, not each one; for separate gradients persistent=True is the way, and del the tape after.",
    ),
    (
        "higher-order-derivatives",
        "Nest two tapes: outer opened first, inner inside it; compute y in the inner, call inner.gradient(y, x) while still inside the outer block, then after the outer block closes call outer.gradient(dy_dx, x).",
    ),
    (
        "higher-order-derivatives",
        "Finally leave the outer block and call outer.gradient(first_grad, x); it works because the inner gradient computation was itself recorded by the outer tape.",
    ),
    (
        "higher-order-derivatives",
        "One persistent tape can also do it as long as the first gradient is taken inside its with block, but nested tapes are the normal way.",
    ),
    (
        "gradient-accumulation",
        "Keep tf.Variable accumulators, zeros like each trainable var. For each of the 4 micro-batches run a fresh tape, add the grads in, then apply the sum divided by 4 once and reset the accumulators.",
    ),
    (
        "gradient-accumulation",
        "In PyTorch grads accumulate across backward() calls by themselves; in TF they don't, so you sum them yourself in variables, average over 4 and apply once.",
    ),
    (
        "tf-function-speedup",
        "It traces the Python function into a graph once, so later calls skip per-op Python dispatch and Grappler can fuse ops. Biggest win for small models with many tiny ops; big convnets with big batches are already GPU-bound, gain small.",
    ),
]
TRUE_CHECK = [
    (
        "no-zero-grad",
        "skip it - tf has no grad buffers. new tape each step, gradient() returns fresh tensors, nothing to clear",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient computes d(loss)/d(vars) and returns them; it prevents nothing and changes nothing. optimizer.apply_gradients applies the update rule and modifies the variables in place.",
    ),
    (
        "gradient-vs-apply",
        "Only apply_gradients changes weights. tape.gradient is read-only with respect to the model.",
    ),
    (
        "why-none-gradients",
        "The forward pass or loss was outside `with tf.GradientTape() as tape:`. The tape only records what runs inside it, so it sees no link and returns None. Put them inside.",
    ),
    (
        "numpy-inside-tape",
        "Numpy work is invisible to the tape: it has no record of those operations, so h is a constant afterwards and the variables upstream of it get None.",
    ),
    (
        "numpy-inside-tape",
        "The tape records TF ops only. After h.numpy() the history is gone; backprop stops there, upstream gradients are None and apply_gradients just skips them.",
    ),
    (
        "trainable-vs-all-variables",
        "We pass trainable ones so the optimizer never creates slot variables or updates for BatchNorm's moving statistics or frozen layers - those have no gradients anyway.",
    ),
    (
        "trainable-vs-all-variables",
        "Frozen layers and BN moving averages live in model.variables too; they are not learned by gradient descent, so you leave them out.",
    ),
    (
        "persistent-tape",
        "The tape releases everything after one gradient() by default. persistent=True lets you call it twice; afterwards del the tape so the memory is freed.",
    ),
    (
        "higher-order-derivatives",
        "Outer tape around inner tape. inner.gradient(y, x) inside the outer block gives dy/dx as recorded ops; then close the outer block and call outer.gradient(dy_dx, x) for d2y/dx2.",
    ),
    (
        "gradient-accumulation",
        "Sum the gradients of the 4 micro-batches in tf.Variables (each with its own tape), divide by 4, apply once, zero the buffers. Unlike PyTorch nothing accumulates on its own.",
    ),
    (
        "tf-function-speedup",
        "Graph mode removes Python overhead per op; small models with lots of small ops gain the most. Large batches on a GPU are compute-bound already, so the gain is small there.",
    ),
]
# The untouched check's two misses. The first ("Unlike PyTorch, where X" read X as a
# statement about TensorFlow) was fixed after the check was read, so it no longer measures
# anything held out; the second stays: the ordered phrasing "vanishing gradient(s)" of
# none-means-zero-signal has no exclusion for "never None".
CHECK_FIXED_AFTER = [
    (
        "no-zero-grad",
        "You don't. Unlike PyTorch, where gradients accumulate into param.grad between backward calls, TF returns them from tape.gradient and stores nothing.",
    ),
]
CHECK_MISSES = [
    (
        "why-none-gradients",
        "A vanishing gradient would be a small number, never None; None says the tape has no record connecting loss and weights - compute the loss inside the tape.",
    ),
]
WRONG_TUNED = [
    (
        "no-zero-grad",
        "Call optimizer.zero_grad() at the start of every step, otherwise the gradients from the previous step add up.",
        "needs-zero-grad",
    ),
    (
        "no-zero-grad",
        "The tape accumulates gradients across gradient() calls, so reset it each step.",
        "tape-accumulates",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient updates the weights, apply_gradients just logs the step.",
        "gradient-updates-weights",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients returns the new weights and you assign them back to the model.",
        "apply-returns-new-weights",
    ),
    (
        "why-none-gradients",
        "Computing the loss outside the tape is fine, the tape still tracks the variables.",
        "loss-outside-is-fine",
    ),
    (
        "why-none-gradients",
        "None just means the gradients vanished, they're too small to represent.",
        "none-means-zero-signal",
    ),
    (
        "numpy-inside-tape",
        "The tape records numpy operations too, so gradients flow normally.",
        "numpy-is-recorded",
    ),
    (
        "numpy-inside-tape",
        "Converting to numpy raises an error inside the tape.",
        "numpy-raises-error",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables includes the optimizer's slot variables, that's why we avoid it.",
        "variables-include-optimizer-slots",
    ),
    (
        "trainable-vs-all-variables",
        "There's no difference, model.variables and trainable_variables are the same list.",
        "variables-are-the-same",
    ),
    (
        "persistent-tape",
        "Tapes are persistent by default, the error comes from something else.",
        "persistent-by-default",
    ),
    (
        "higher-order-derivatives",
        "Just call tape.gradient twice on the same tape, the second call gives the second derivative.",
        "gradient-twice-same-tape",
    ),
    (
        "higher-order-derivatives",
        "Call outer.gradient first, then inner.gradient on its result.",
        "nesting-order-reversed",
    ),
    (
        "tf-function-speedup",
        "Large batches gain the most from tf.function.",
        "large-batch-gains-most",
    ),
]
WRONG_CHECK = [
    (
        "no-zero-grad",
        "You still need zero_grad before each step in TF, same as PyTorch.",
        "needs-zero-grad",
    ),
    (
        "gradient-vs-apply",
        "Both change the weights: tape.gradient updates them and apply_gradients finalises.",
        "gradient-updates-weights",
    ),
    (
        "why-none-gradients",
        "The loss can be computed outside the tape, that's fine; the None comes from the optimizer.",
        "loss-outside-is-fine",
    ),
    (
        "numpy-inside-tape",
        "TF records numpy ops automatically so nothing changes.",
        "numpy-is-recorded",
    ),
    (
        "trainable-vs-all-variables",
        "Passing model.variables is fine, the extra ones just get zero gradients.",
        "pass-model-variables",
    ),
    (
        "persistent-tape",
        "A persistent tape is free, there's no cost, keep it open.",
        "persistent-is-free",
    ),
    (
        "gradient-accumulation",
        "Call apply_gradients after each micro-batch, it's the same as one big batch.",
        "apply-every-micro-batch",
    ),
]


test_a_true_statement_names_no_tell = names_nothing(
    TRUE_TUNED + TRUE_CHECK + CHECK_FIXED_AFTER, fields="qid text", tells=_tells
)


# Fixed in round 12 (engineer R): "vanishing gradient(s)" set against None names no tell.
test_a_check_miss_names_no_tell = names_nothing(CHECK_MISSES, fields="qid text", tells=_tells)
test_a_misconception_is_named = names_the_tell(
    WRONG_TUNED + WRONG_CHECK, fields="qid text tag", tells=_tells
)


@pytest.mark.parametrize(
    ("qid", "text", "named"),
    [
        # a tell is a claim about TensorFlow, even when it names PyTorch's API
        (
            "no-zero-grad",
            "In PyTorch, gradients accumulate into param.grad across backward() calls.",
            False,
        ),
        ("no-zero-grad", "The tape accumulates gradients across gradient() calls.", True),
        # "unlike PyTorch, where X": X is about PyTorch; the main clause is about TensorFlow
        (
            "no-zero-grad",
            "Unlike PyTorch, where grads pile up in .grad between backward() calls, TensorFlow returns fresh tensors.",
            False,
        ),
        (
            "no-zero-grad",
            "Unlike PyTorch, where you call zero_grad, TF still needs optimizer.zero_grad() before each step.",
            True,
        ),
        (
            "no-zero-grad",
            "Like PyTorch, the tape accumulates gradients across gradient() calls, so reset it.",
            True,
        ),
        # a phrasing's last word inside a call argument is another word
        (
            "higher-order-derivatives",
            "Then close the outer block and call outer.gradient(first_derivative, x).",
            False,
        ),
        ("higher-order-derivatives", "Call outer.gradient first, then inner.gradient.", True),
        # a denial inside the first clause of a match that runs into the next
        (
            "numpy-inside-tape",
            "The tape has no record of what happens to it: numpy operations aren't TF ops.",
            False,
        ),
        ("numpy-inside-tape", "The tape records numpy operations too, so gradients flow.", True),
        # what is avoided or prevented is not stated
        (
            "trainable-vs-all-variables",
            "Passing trainable_variables is what the optimizer should own, and it also avoids creating optimizer slot variables for frozen weights.",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "It also creates optimizer slot variables, model.variables includes the optimizer's slots.",
            True,
        ),
        (
            "persistent-tape",
            "Redo the forward pass in a new tape: it costs a second pass, but it's simple and avoids keeping everything in memory.",
            False,
        ),
        # vanishing set apart from None
        (
            "why-none-gradients",
            "Gradients that vanish in a deep net are tiny numbers, not None.",
            False,
        ),
        ("why-none-gradients", "None just means the gradients vanished, they are too small.", True),
    ],
)
def test_reads_the_round11_shapes(qid: str, text: str, named: bool) -> None:
    assert bool(_tells(qid, text)) is named


def _claim_rubric(phrasing: str) -> dict[str, Any]:
    return {
        "model_answer": "None means no recorded path.",
        "concepts": [{"id": "path", "label": "no path", "any": ["path"]}],
        "misconceptions": [{"tag": "t", "correction": "c", "any": [phrasing]}],
    }


def test_an_excluded_role_may_hold_a_negation() -> None:
    rubric = Rubric.model_validate(_claim_rubric("gradients? & vanish\\w* & !(not None)"))
    assert rubric.misconceptions[0].any


def test_a_role_that_must_occur_still_may_not() -> None:
    with pytest.raises(ValidationError, match="contains a negation"):
        Rubric.model_validate(_claim_rubric("gradients? & not vanish\\w*"))
