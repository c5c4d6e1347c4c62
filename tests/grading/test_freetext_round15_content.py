"""Round 15 of issue 14: the labeller tags of round 14's final set that no rubric knew, and
three known content defects. Wrong statements for each belief in candidates' voices and
true statements on the same subjects that must name nothing. All were written from the
tags' descriptions, the source document and a scratch check on TF 2.21 / Keras 3.15.1
(docs/freetext-rounds.md "Round 15: rubric content (engineer C)"), before any phrasing was
written and without reading the labelled answers; the `_HELD` lists (about a third) were
kept untouched until the end, as a last check."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # default-is-training-mode, mapped onto training-auto-detected-in-tape ("or by default")
    ("training-flag", "training-auto-detected-in-tape", "If you don't pass training, Keras layers default to training mode, so dropout keeps dropping units even when you call model.predict."),
    pytest.param(
        "training-flag", "training-auto-detected-in-tape",
        "Leaving the flag off is harmless in a custom loop: layers run in training mode unless you explicitly say training=False.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="named by the neighbours until round 16's set joined tune (round 17 start, "
            "before any change); the rules alone name nothing",
        ),
    ),
    ("training-flag", "training-auto-detected-in-tape", "training=True is the default for every Keras layer call; you only need to pass training=False at inference."),
    ("training-flag", "training-auto-detected-in-tape", "Without the argument the model assumes it is training, so Dropout stays active at predict time too."),
    # layer-level-backward, mapped onto tape-is-symbolic-differentiation (not reverse mode over the recorded ops)
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "tape.gradient calls each Keras layer's own backward method in reverse order, the way a hand-written backprop framework does."),
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "Every Keras layer defines a backward function, and tape.gradient just chains those layer backward functions together."),
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "The tape doesn't differentiate the individual ops; it asks each layer for its precomputed backward pass."),
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "Dense, Conv2D and friends each ship their own gradient implementation, and tape.gradient dispatches to them layer by layer."),
    # materialise-output-reuses-tape, mapped onto tape-reset-allows-second-gradient (a trick makes a default tape reusable)
    ("persistent-tape", "tape-reset-allows-second-gradient", "Wrap the shared output in tf.identity before computing the two losses; then the default tape can give you both gradients."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "Store the forward output in a tf.Variable so it isn't freed with the first gradient, and a non-persistent tape can differentiate the second loss too."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "The second call only fails because the shared activation was consumed; materialise it with tf.identity and you don't need persistent=True."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "Copy the common output into a fresh tensor after the forward pass and the normal tape handles both gradient calls."),
    # tf-function-keeps-gradient-state, mapped onto tape-accumulates (like tf-function-grads-carry-over in the tag map)
    ("no-zero-grad", "tape-accumulates", "In eager mode nothing carries over, but inside a tf.function the graph keeps its gradient state between calls, so you have to reset it every step."),
    ("no-zero-grad", "tape-accumulates", "Once the step is compiled with tf.function, the gradients live in the graph across calls and must be cleared before the next one."),
    ("no-zero-grad", "tape-accumulates", "A traced train_step holds on to the previous step's gradients, so under tf.function you do need a zero_grad-like reset."),
    ("no-zero-grad", "tape-accumulates", "Graph mode is stateful: the gradient buffers inside the tf.function persist from call to call unless you reset them."),
    # variable-watch-survives-numpy (new)
    ("numpy-inside-tape", "variable-watch-survives-numpy", "The tape watches the variables, not the intermediate values, so the weights before the NumPy step still get their gradients."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "Since the trainable variables are watched automatically, converting an activation to NumPy and back doesn't stop gradients reaching them."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "It's fine: the tape tracks the weights themselves, so the gradient still gets to the first layer across the .numpy() call."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "Gradients still reach every variable because watching happens at the variable level, whatever you do with the intermediate tensors."),
    # tape-discarded-on-block-exit must still be named once its true lifetimes are spared (task item 2)
    ("persistent-tape", "tape-discarded-on-block-exit", "The tape is deleted as soon as the with block exits, persistent or not."),
    ("why-none-gradients", "tape-discarded-on-block-exit", "The tape gets deleted when the with block ends, so calling gradient after the block finds nothing."),
    # trainable-only-for-efficiency merged into pass-model-variables (task item 2; the tag map's only-efficiency and trainable-for-efficiency precedent)
    ("trainable-vs-all-variables", "pass-model-variables", "Honestly it's mostly a speed thing; model.variables works as well, you just compute a few extra gradients."),
]  # fmt: skip

CORRECT = [
    # persistent tapes' lifetime (task item 2, written first)
    ("persistent-tape", "A persistent tape keeps its recording, and the intermediate tensors it holds, alive until it is garbage collected, so don't leave it in a long-lived scope."),
    ("persistent-tape", "Because a persistent tape holds every intermediate tensor until the tape object itself goes away, del it as soon as you have both gradients."),
    ("persistent-tape", "Leaving the with block does not free a persistent tape; it stays alive - and keeps its memory - until you del it or it goes out of scope."),
    ("persistent-tape", "If the tape is stored on self or in a global, its buffers are never garbage collected while that reference lives."),
    ("persistent-tape", "A default tape frees its recording when gradient() returns; a persistent one only when it is deleted."),
    # why-none-gradients: "delete"/"deleted" wordings of the tape's release
    ("why-none-gradients", "Exiting the with block just stops recording; the tape object stays around until you delete it or it's garbage collected."),
    ("why-none-gradients", "The tape keeps its recording after the block ends until it gets deleted, so computing the gradient outside the block works."),
    ("why-none-gradients", "A default tape is only deleted after its first gradient call, so calling tape.gradient after the with block is fine."),
    # default-is-training-mode
    ("training-flag", "If you leave the flag out, a direct model(x) call runs in inference mode: Dropout passes its input through unchanged and BatchNorm uses its moving averages."),
    ("training-flag", "Only fit() sets training=True for you; called directly, a Keras model defaults to inference behaviour."),
    ("training-flag", "model.predict always runs with training=False, so dropout is off at prediction time."),
    # layer-level-backward
    ("gradient-vs-apply", "tape.gradient walks the recorded ops backwards and applies each op's registered gradient function with the chain rule."),
    ("gradient-vs-apply", "Keras layers define no backward method; the tape differentiates the TensorFlow ops the layer ran, like MatMul and Relu."),
    ("gradient-vs-apply", "A layer is just a bundle of ops and variables to the tape - its gradient is the chain of the ops' gradients."),
    # materialise-output-reuses-tape
    ("persistent-tape", "A non-persistent tape raises on any second gradient() call, whatever the target: copying the output with tf.identity does not help."),
    ("persistent-tape", "Turning the output into a tf.Variable cuts it off from the recording - the gradient through it is None, and the tape is still single-use."),
    ("persistent-tape", "tf.identity is just one more recorded op; the default tape still frees its whole recording after the first gradient."),
    # tf-function-keeps-gradient-state
    ("no-zero-grad", "Under tf.function each call runs the traced step anew: a new tape records, tape.gradient returns new tensors and nothing from the last call is kept."),
    ("no-zero-grad", "What a tf.function keeps between calls is variables - the weights and the optimizer's slots - not gradients."),
    ("no-zero-grad", "Wrapping the step in tf.function changes speed, not semantics: there's still no gradient to zero between steps."),
    ("tf-function-speedup", "tf.function caches the traced graph, not any gradient values: every call computes new gradients."),
    # variable-watch-survives-numpy
    ("numpy-inside-tape", "The variables before the conversion are still watched, yet they get None: the NumPy step cuts the recorded path from the loss back to them."),
    ("numpy-inside-tape", "Watching a variable only marks it as a source; the gradient still has to flow through recorded ops, and NumPy ops are not recorded."),
    ("numpy-inside-tape", "tape.watched_variables() lists the first layer's weights too, but their gradients come back None because the chain is broken at the NumPy call."),
]  # fmt: skip

WRONG_HELD = [
    pytest.param(
        "training-flag", "training-auto-detected-in-tape",
        "Dropout is on by default; you switch it off with training=False when you evaluate.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="named by the neighbours until round 18's set joined tune (round 19 start, "
            "before any change); the rules alone name nothing",
        ),
    ),
    ("training-flag", "training-auto-detected-in-tape", "By default Keras calls run in train mode, so writing training=True just documents what already happens."),
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "Under the hood tape.gradient runs layer.backward() for every layer, last layer first."),
    ("gradient-vs-apply", "tape-is-symbolic-differentiation", "Gradients come from the layers: each Keras layer implements its derivative, and the tape only calls them in order."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "Cache the shared forward output as a tf.Variable and the second gradient() on the same default tape works."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "With tf.identity on the shared output, each loss gets its own copy, so one non-persistent tape is enough for both gradients."),
    ("no-zero-grad", "tape-accumulates", "With @tf.function the gradients are kept in the graph between steps, so reset them at the start of each call."),
    ("no-zero-grad", "tape-accumulates", "The compiled function remembers the last gradients it computed, so each step must clear them first."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "The earlier layer's kernel is still watched, so its gradient comes through the NumPy conversion unharmed."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "What matters to the tape is the watched variables, not the activations in between, so a round trip through NumPy is harmless."),
    ("persistent-tape", "tape-discarded-on-block-exit", "Exiting the context destroys the tape, so gradient calls after the block fail."),
]  # fmt: skip

CORRECT_HELD = [
    ("persistent-tape", "The persistent tape lives on after the block and keeps the activations until its last reference disappears."),
    ("persistent-tape", "Keep a persistent tape in a short-lived local scope: it pins all the recorded tensors until it is collected."),
    ("why-none-gradients", "The with block ending doesn't delete the tape; it is deleted once gradient() has returned, which is why you call it after the block."),
    ("training-flag", "The default is not training mode: without training=True the tape records an inference-mode forward pass."),
    ("training-flag", "Dropout drops units only when training=True reaches it, either passed explicitly or set by fit()."),
    ("gradient-vs-apply", "Each recorded op (MatMul, BiasAdd, Relu) has a gradient registered in TensorFlow, and tape.gradient chains those in reverse."),
    ("gradient-vs-apply", "You can override one op's gradient with tf.custom_gradient, but by default the tape uses the registered gradient of every recorded op."),
    ("persistent-tape", "Materialising the shared output changes nothing about the RuntimeError: only persistent=True, two tapes, or a second forward pass give a second gradient."),
    ("no-zero-grad", "Only tf.Variables survive between tf.function calls; the gradient tensors are recomputed each call and then dropped."),
    ("no-zero-grad", "If you accumulate into tf.Variables inside a tf.function, those you do reset yourself - they are your state, not TensorFlow's."),
    ("numpy-inside-tape", "Being watched is not enough - a variable gets a gradient only if a recorded path of TensorFlow ops links it to the loss."),
    ("numpy-inside-tape", "The layers after the tf.constant round trip still get gradients; those before it are watched but get None."),
]  # fmt: skip

# Wrong statements the grader does not name. Tune: the copy trick and "a non-persistent tape
# can ..." sit in two clauses (a claim reads one). Held (the last check, run once): "run in train mode" by default, the compiled
# function "remembers the last gradients" (named needs-zero-grad and grads-leak-without-cleanup
# instead), the two "still watched ... unharmed / harmless" wordings, and "destroys" (the discard
# words are past participles; named gradient-outside-block-errors instead, as with main's rubrics).
KNOWN_UNNAMED = [
    ("persistent-tape", "tape-reset-allows-second-gradient", "Store the forward output in a tf.Variable so it isn't freed with the first gradient, and a non-persistent tape can differentiate the second loss too."),
    ("persistent-tape", "tape-reset-allows-second-gradient", "The second call only fails because the shared activation was consumed; materialise it with tf.identity and you don't need persistent=True."),
    ("training-flag", "training-auto-detected-in-tape", "By default Keras calls run in train mode, so writing training=True just documents what already happens."),
    ("no-zero-grad", "tape-accumulates", "The compiled function remembers the last gradients it computed, so each step must clear them first."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "The earlier layer's kernel is still watched, so its gradient comes through the NumPy conversion unharmed."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "What matters to the tape is the watched variables, not the activations in between, so a round trip through NumPy is harmless."),
    ("persistent-tape", "tape-discarded-on-block-exit", "Exiting the context destroys the tape, so gradient calls after the block fail."),
]  # fmt: skip
WRONG = [w for w in WRONG if w not in KNOWN_UNNAMED]
WRONG_HELD = [w for w in WRONG_HELD if w not in KNOWN_UNNAMED]


test_grade_freetext_names_a_round15_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round15_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round15_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the phrasings do not read this statement"
)
