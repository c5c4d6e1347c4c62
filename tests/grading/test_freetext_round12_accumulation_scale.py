"""Round 12 of issue 14: a gradient-accumulation answer that sums four micro-batch gradients
and applies the sum (no averaging, no scaled loss) leaves out the required scaling, so it is
at most partial; dividing the summed gradients by 4, averaging them, or dividing each
micro-batch loss by 4 before tape.gradient is the scaling. Written before the rubric change;
the `_HELD` answers did not shape it (they were first run with the others, once the change
was written, and passed; nothing was changed after)."""

# ruff: noqa: E501 - tables of answers read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

SUMMED_ONLY = [
    "Create a tf.Variable of zeros for every trainable variable. For each of the four micro-batches of 64, open a tape, compute the mean loss, get the gradients and assign_add them into the accumulators. After the fourth micro-batch, call optimizer.apply_gradients(zip(accumulators, model.trainable_variables)) once, then reset the accumulators to zero.",
    "Keep a list of zeros_like buffers, one per variable. Each micro-batch adds its tape.gradient result into the buffers. After 4 micro-batches apply the summed gradients with apply_gradients and zero the buffers again.",
    "Make accumulators, add up the four micro-batches' gradients, apply the sum once every 4 steps, then reset them. TensorFlow won't do this for you.",
    "I'd loop over the 4 micro-batches of 64, each with its own GradientTape and a mean loss, and sum the gradients into tf.Variable accumulators with assign_add. Once all four are in, one apply_gradients call with the accumulated totals, then assign zeros back.",
    # Written before the change, beside the first four: a mean loss or "a quarter" near a
    # four is no scaling (each of these three was graded correct before this round).
    "Split the 256 into four micro-batches of 64, a quarter each. Per micro-batch: tape, mean loss, gradients, assign_add into zero-initialised accumulators. Then one apply_gradients with the accumulated gradients and reset.",
    "The loss of every micro-batch is a mean over its 64 examples; add those four gradients into accumulators, apply the total once, and clear them.",
    "Average loss per micro-batch of 64, four times, summing the gradients into accumulator variables; then a single apply_gradients on the sums and a reset to zeros.",
    "For each of the 4 micro-batches compute the mean loss inside a tape, add the gradients into tf.Variable accumulators, and after the fourth call apply_gradients with the sums once, then zero the accumulators.",
]  # fmt: skip

SCALED = [
    "Create a tf.Variable of zeros for every trainable variable. For each of the four micro-batches of 64, open a tape, compute the mean loss, get the gradients and assign_add them into the accumulators. After the fourth micro-batch, divide the accumulators by 4 and call optimizer.apply_gradients once, then reset the accumulators to zero.",
    "Keep zero-initialised tf.Variable accumulators, one per trainable variable. For each micro-batch, divide the loss by 4 before calling tape.gradient, then assign_add the gradients into the accumulators. After the fourth micro-batch apply the accumulated gradients once with apply_gradients and reset the accumulators to zero.",
    "Accumulators of zeros per variable; for each of the 4 micro-batches compute loss = loss_fn(y, model(x, training=True)) / 4 inside the tape and add its gradients in; after the fourth, one apply_gradients call, then reset them to zero.",
    "Make accumulators, add up the four micro-batches' gradients, apply the average of the accumulated gradients once every 4 steps, then reset them. TensorFlow won't do this for you.",
    "For each of the 4 micro-batches compute the mean loss inside a tape, add the gradients into tf.Variable accumulators, and after the fourth divide the sums by 4, apply_gradients once, then zero the accumulators.",
    "The loss of every micro-batch is a mean over its 64 examples; add those four gradients into accumulators, apply their mean once, and clear them.",
]  # fmt: skip

SUMMED_ONLY_HELD = [
    "Allocate accumulator variables (zeros) for the trainable weights. Per micro-batch: tape, loss, gradients, accumulate them with assign_add. After the last of the four, feed the accumulated sums to apply_gradients in a single call and clear the accumulators.",
]  # fmt: skip

SCALED_HELD = [
    "Allocate accumulator variables (zeros) for the trainable weights. Per micro-batch: tape, loss scaled by 1/4, gradients, accumulate them with assign_add. After the last of the four, feed the accumulated sums to apply_gradients in a single call and clear the accumulators.",
]  # fmt: skip


@pytest.mark.parametrize("answer", SUMMED_ONLY + SUMMED_ONLY_HELD)
def test_summed_gradients_applied_without_averaging_are_not_correct(answer: str) -> None:
    result = grade_freetext(question("gradient-accumulation"), answer)
    assert result.verdict != "correct"
    assert "scale" in result.details["concepts_missed"]


@pytest.mark.parametrize("answer", SCALED + SCALED_HELD)
def test_averaged_or_scaled_loss_accumulation_is_correct(answer: str) -> None:
    result = grade_freetext(question("gradient-accumulation"), answer)
    assert result.verdict == "correct"
    assert "scale" in result.details["concepts_found"]
