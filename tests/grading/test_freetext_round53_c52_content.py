"""Round 53 of issue 14 (engineer C52, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). Round 52's three false tells on correct
answers on these questions mended: gradient-accumulation `gradient-averages-over-batch` where the
loss is what the learner divides before tape.gradient, no-zero-grad `tape-accumulates` on
accumulation done deliberately or over micro-batches, and no-zero-grad `needs-zero-grad` on
`optimizer.zero_grad()` inside PyTorch's own loop (its backward() or optimizer.step() in the same
unit). Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 53:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C52)"). Read by the rules alone: the learned parts are retrained by the
lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_of_tags, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

ACCUMULATION = "gradient-accumulation"
ZERO_GRAD = "no-zero-grad"
AVERAGES = "gradient-averages-over-batch"
TAPE_ACCUMULATES = "tape-accumulates"
NEEDS_ZERO_GRAD = "needs-zero-grad"

WRONG = [
    # gradient-averages-over-batch: the mend keeps the tape said to average.
    (ACCUMULATION, AVERAGES, "tape.gradient divides by the batch size for you, so four micro-batch gradients just add up to the mean."),
    # tape-accumulates: the mend keeps accumulation said of the gradients themselves.
    (ZERO_GRAD, TAPE_ACCUMULATES, "Without a reset the gradients accumulate across steps."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "If you skip it they would pile up over iterations."),
    # needs-zero-grad: the mend keeps a zeroing call written for TensorFlow.
    (ZERO_GRAD, NEEDS_ZERO_GRAD, "In TensorFlow you still call optimizer.zero_grad() before opening the tape."),
    (ZERO_GRAD, NEEDS_ZERO_GRAD, "Put optimizer.zero_grad() as the first line of the step, then tape.gradient and apply_gradients."),
]  # fmt: skip

CORRECT = [
    # Round 52's three false tells on correct answers, in words of their own.
    (ACCUMULATION, "Scale each micro-batch loss by a quarter before calling tape.gradient, add the four gradient lists, and apply once."),
    (ACCUMULATION, "Divide every chunk's loss by the number of micro-batches prior to tape.gradient so the summed gradients equal the full-batch mean."),
    (ZERO_GRAD, "The one reset you might need is when they deliberately sum up gradients over micro-batches themselves."),
    (ZERO_GRAD, "Only if you accumulate gradients on purpose across steps is there anything to zero, and that is your running sum."),
    (ZERO_GRAD, "In torch the loop is optimizer.zero_grad(), loss.backward(), optimizer.step(); the TF loop has no such call, tape.gradient returns fresh tensors."),
    (ZERO_GRAD, "PyTorch:\n```\nopt.zero_grad()\nout.backward()\nopt.step()\n```\nTensorFlow returns new gradients from each tape, so there is nothing to zero."),
]  # fmt: skip


test_grade_freetext_names_a_round53_c52_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round53_c52_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "optimizer.zero_grad() " * 700 + "backward()",
    "backward() " * 700 + "optimizer.zero_grad()",
    "divide " * 700 + "micro-batch " * 700 + "loss tape.gradient batch",
    "gradients " * 500 + "accumulate over " * 300 + "micro-batches deliberately",
    "a" * 10_000,
]


def test_round53_c52_phrasings_search_pumped_text_in_linear_time() -> None:
    tags = {ZERO_GRAD: [TAPE_ACCUMULATES, NEEDS_ZERO_GRAD], ACCUMULATION: [AVERAGES]}
    assert_linear_on(phrasings_of_tags(tags), PUMPED)
