"""Round 22 of issue 14 (engineer C2, rubric content): rounds 20's and 21's final sets, now
tuned on, read one answer at a time. Misconceptions said in words the phrasings lacked
(tape.reset() named zero_grad's counterpart after "That's", in a code comment or as "the
equivalent is resetting the tape"; gradients adding up as more steps run; the optimizer
clearing them "once it has applied them"; large models named by their size or compute;
"it's basically XLA" and a step compiled into new kernels; a summed loss's gradient said to
contain both; persistence as what gives the second derivative; passing model.variables called
harmless or wasted work; autodiff said to keep working across NumPy), concepts said in words
the phrasings lacked, and true statements the rules read as tells ("the tape only records TF
ops and NumPy ops are invisible", "(BatchNorm statistics aside)", "you pass it on every call",
"a constant for it", "for a model without such layers nothing changes", "effectively zero").
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 22:
rubric content (engineer C2)"). Read by the rules alone: the learned parts are retrained by the
lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import concepts_by_rules, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # tape-reset-is-zero-grad: after "That's", in a code comment, named as the counterpart
    ("no-zero-grad", "tape-reset-is-zero-grad", "Call tape.reset() before every step. That's the TensorFlow counterpart of zero_grad."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "```python\nfor x, y in data:\n    tape.reset()  # = opt.zero_grad()\n    step(x, y)\n```"),
    ("no-zero-grad", "tape-reset-is-zero-grad", "In TensorFlow the equivalent is resetting the tape each iteration."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "The same idea in TF is tape.reset(), called once per step."),
    # tape-accumulates: the gradients add up as more steps run
    ("no-zero-grad", "tape-accumulates", "Grads still add up as you run more iterations, so clear them somehow."),
    # optimizer-clears-grads: once it has applied them
    ("no-zero-grad", "optimizer-clears-grads", "There is no zero_grad because the optimizer clears the gradients once it has applied them."),
    # big-models-gain-most: adjectives in a list, size or compute, "get the most out of it"
    ("tf-function-speedup", "big-models-gain-most", "The biggest speedups are for large, compute-heavy networks."),
    ("tf-function-speedup", "big-models-gain-most", "Networks with millions of parameters benefit the most."),
    ("tf-function-speedup", "big-models-gain-most", "Huge transformers get the most out of it."),
    ("tf-function-speedup", "big-models-gain-most", "The speedup is largest for deep, wide networks."),
    # tf-function-is-xla: "basically XLA", compiled into new kernels or native code
    ("tf-function-speedup", "tf-function-is-xla", "That's essentially XLA doing its fusion."),
    ("tf-function-speedup", "tf-function-is-xla", "tf.function compiles your step into native code, so the maths runs faster."),
    # sum-losses-gives-each-gradient: the summed gradient contains both
    ("persistent-tape", "sum-losses-gives-each-gradient", "The gradient of the total includes both losses' gradients, so one call is enough."),
    ("persistent-tape", "sum-losses-gives-each-gradient", "Summing them gives you both in a single backward pass."),
    # persistent-gives-second-order: persistence as the subject; the graph kept for the second call
    ("higher-order-derivatives", "persistent-gives-second-order", "Persistence is what lets you take the second derivative."),
    ("higher-order-derivatives", "persistent-gives-second-order", "A persistent tape keeps its graph alive so the second call can differentiate the first result."),
    # pass-model-variables: harmless, wasted work, merely saves work
    ("trainable-vs-all-variables", "pass-model-variables", "Passing model.variables would be harmless, just a bit slower."),
    ("trainable-vs-all-variables", "pass-model-variables", "The extra ones get no gradient. It's only wasted work."),
    ("trainable-vs-all-variables", "pass-model-variables", "trainable_variables merely saves some compute."),
    # optimizer-clears-grads (gradient-vs-apply): "does the clear_grad job"
    ("gradient-vs-apply", "optimizer-clears-grads", "apply_gradients moves the weights and then does the zero_grad part for you."),
    # none-means-zero-signal: None as TensorFlow's way of writing a zero gradient
    ("why-none-gradients", "none-means-zero-signal", "The derivative of that constant is 0, and TF encodes a zero gradient as None."),
    # tf-hessians-works-eagerly: tf.hessians given for second derivatives
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "A tape only does first order; for second derivatives just call tf.hessians(y, x)."),
    # numpy-is-recorded: autodiff keeps working
    ("numpy-inside-tape", "numpy-is-recorded", "Autodiff still works across the NumPy round trip, it is only slower."),
]  # fmt: skip

CORRECT = [
    # numpy-is-recorded: "only records TF ops"
    ("numpy-inside-tape", "The tape only records TensorFlow ops and NumPy ops are invisible to it, so everything before h gets None."),
    # accumulation-matches-batchnorm: the exception in a bracket
    ("gradient-accumulation", "Since the weights stay put during the four passes, the result equals one 256 batch (BatchNorm statistics aside)."),
    # dropout-ignores-training-flag: passing the flag on every call
    ("training-flag", "Unlike PyTorch there is no mode to flip; you pass it on every call to the model."),
    # none-means-zero-signal: a constant for the tape
    ("why-none-gradients", "In that version pred is a constant for it, so no path leads back to the weights."),
    # training-auto-detected-in-tape: a model that lacks the layers
    ("training-flag", "For a network without such layers nothing changes when you leave it out."),
    # numpy-gives-zero-gradients: effectively zero, said of the update
    ("numpy-inside-tape", "The gradient for the layers before h is effectively zero, so they stop learning while the head keeps training."),
    # guards: the new phrasings' words in true statements
    ("no-zero-grad", "No zeroing call is needed. The closest thing, tape.reset(), only discards what a tape has recorded."),
    ("tf-function-speedup", "The biggest gains are for small models, not for large, compute-bound ones."),
    ("tf-function-speedup", "tf.function is not XLA; XLA compilation needs jit_compile=True."),
    ("persistent-tape", "The gradient of the sum holds only the combined gradient, never each loss's own."),
    ("higher-order-derivatives", "Nested tapes, not persistence, are what give you the second derivative."),
    ("trainable-vs-all-variables", "Passing model.variables is not harmless: the optimizer would be handed the moving statistics."),
    ("why-none-gradients", "None is not how TF represents a zero gradient; a zero gradient is a tensor of zeros."),
    ("higher-order-derivatives", "Nest two tapes for second derivatives; tf.hessians only works inside a tf.function graph."),
    ("gradient-vs-apply", "apply_gradients does the update; it does no zeroing, because there is nothing to zero."),
]  # fmt: skip

CREDITED = [
    # chain-broken: "gives None"
    ("numpy-inside-tape", "chain-broken", "Anything upstream of h has no path to the loss, so gradient() gives None for those variables."),
    # not-recorded: TensorFlow as the subject
    ("why-none-gradients", "not-recorded", "TF can't see those ops, so it returns None."),
    ("why-none-gradients", "not-recorded", "TensorFlow never recorded the operations run after the block."),
    # optimizer-must-not-update: "move" denied of the optimizer
    ("trainable-vs-all-variables", "optimizer-must-not-update", "The moving statistics are not learned, and the optimizer should not move them."),
]  # fmt: skip


test_grade_freetext_names_a_round22_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round22_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


@pytest.mark.parametrize(("question_id", "concept", "answer"), CREDITED)
def test_grade_freetext_credits_a_round22_concept(
    question_id: str, concept: str, answer: str
) -> None:
    assert concept in concepts_by_rules(question_id, answer)
