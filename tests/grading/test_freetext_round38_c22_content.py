"""Round 38 of issue 14 (engineer C22, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): the stated beliefs the rules missed most across the tune
personas, counted by question and tag before any sentence was read. On no-zero-grad,
tape-accumulates reads the tape said to mix the gradients (also as a zeroing's denied purpose:
"so the tape doesn't mix the gradients"), and needs-zero-grad reads a zeroing method GradientTape
does not have (`tape.clear()`). On gradient-accumulation, tape-stores-no-activations reads memory
said to be fine because each forward pass only holds 64 examples, in an answer that keeps no tape
per micro-batch; summed-gradients-equal-big-batch reads the result said to be the same as one big
batch, in an answer that never divides or averages. Statements written for this file, in words of
their own (docs/freetext-rounds.md "Round 38: gradient-vs-apply, gradient-accumulation, no-zero-grad
and tf-function-speedup content (engineer C22)"). Read by the rules alone: the learned parts are
retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("no-zero-grad", "tape-accumulates", "Reset it before each forward pass so the tape doesn't mix the gradients of two batches."),
    ("no-zero-grad", "tape-accumulates", "Call it first thing in every step, so that the tape does not mix up gradients from different iterations."),
    ("no-zero-grad", "tape-accumulates", "Otherwise the tape mixes the gradients of consecutive steps."),
    ("no-zero-grad", "needs-zero-grad", "Begin every iteration with tape.clear(), the TensorFlow way of zeroing."),
    ("gradient-accumulation", "tape-stores-no-activations", "Keep one tape open around all four micro-batches; memory is fine because every forward pass only holds 64 examples."),
    ("gradient-accumulation", "tape-stores-no-activations", "Record the four forward passes on one persistent tape. Since each pass only sees 64 samples, it fits in memory."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Add up the four micro-batch gradients and apply them once; the update is identical to one big batch."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Sum the gradients of the four chunks and call apply_gradients a single time, just like a batch of 256."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "Each step opens a fresh tape, so the tape cannot mix gradients from two batches; there is nothing to clear."),
    ("no-zero-grad", "In PyTorch, autograd mixes new gradients into .grad, which is why zero_grad exists; TensorFlow returns new tensors."),
    ("no-zero-grad", "GradientTape has neither tape.clear() nor tape.zero_grad(); tape.gradient returns new tensors every step."),
    ("no-zero-grad", "There is no tape.clear() in TensorFlow, and no call is needed: every step gets new gradient tensors."),
    ("gradient-accumulation", "Use a separate tape per micro-batch and add its gradients into tf.Variable accumulators. Memory is fine since each forward pass only sees 64 samples."),
    ("gradient-accumulation", "for x, y in micro_batches:\n    with tf.GradientTape() as tape:\n        loss = loss_fn(y, model(x, training=True)) / 4\n    grads = tape.gradient(loss, model.trainable_variables)\nMemory is fine because each forward pass only sees 64 samples."),
    ("gradient-accumulation", "Open a new tape for each micro-batch: memory stays low because only 64 examples' activations are alive, and they are released after tape.gradient."),
    ("gradient-accumulation", "Divide each micro-batch gradient by 4 before adding it to the accumulators; after the fourth, the sum is exactly the gradient of the full 256 batch."),
    ("gradient-accumulation", "Average the four gradients (sum, then divide by four) and apply once: the update is identical to one big batch."),
    ("gradient-accumulation", "Scale each micro-batch loss by 1/4 inside its own tape, so the summed gradients are the same as one batch of 256."),
]  # fmt: skip


test_grade_freetext_names_a_round38_c22_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round38_c22_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
