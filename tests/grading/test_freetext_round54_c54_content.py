"""Round 54 of issue 14 (engineer C54, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). no-zero-grad `needs-zero-grad`: round 53's
guard on PyTorch's loop (`optimizer.zero_grad()` beside `backward()` / `optimizer.step()`) now skips
the loop only where it is said of PyTorch (PyTorch named before the call with no TensorFlow between,
or the call on a code line of its own), so the whole loop said of TensorFlow names the tag again.
tf-function-speedup `big-models-gain-most`: "heavy" after a hyphen is a heavy model only where the
word before says compute ("compute-heavy"), not in an "op-heavy" model of many small ops.
gradient-vs-apply `gradient-updates-weights`: apply_gradients said to be skippable with training
still going on. tf-function-speedup `large-batch-gains-most`: not on a gain said much (far) less.
Statements written for this file (docs/freetext-rounds.md "Round 54: ... (engineer C54)"). Read by
the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_of_tags, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

ZERO_GRAD, NEEDS_ZERO_GRAD = "no-zero-grad", "needs-zero-grad"
SPEEDUP, BIG_MODELS, LARGE_BATCH = (
    "tf-function-speedup",
    "big-models-gain-most",
    "large-batch-gains-most",
)
APPLY, GRADIENT_UPDATES = "gradient-vs-apply", "gradient-updates-weights"

WRONG = [
    # The loop said of TensorFlow, a PyTorch likeness before or after it.
    (ZERO_GRAD, NEEDS_ZERO_GRAD, "Coming from PyTorch, in TensorFlow you call optimizer.zero_grad(), loss.backward(), optimizer.step() each step."),
    (ZERO_GRAD, NEEDS_ZERO_GRAD, "In TF the step is optimizer.zero_grad(), then loss.backward(), then optimizer.step()."),
    (ZERO_GRAD, NEEDS_ZERO_GRAD, "Same as PyTorch: optimizer.zero_grad(), loss.backward(), optimizer.step() every step."),
    # "heavy" with a compute word before its hyphen still reads as the heavy model.
    (SPEEDUP, BIG_MODELS, "The speedup is biggest for compute-heavy models such as large CNNs."),
    (SPEEDUP, BIG_MODELS, "It helps most with compute-heavy networks."),
    (SPEEDUP, BIG_MODELS, "The gain is largest for heavy models."),
    # The large batch said to gain the most, with or without an intensifier.
    (SPEEDUP, LARGE_BATCH, "Large batches gain the most from tf.function."),
    (SPEEDUP, LARGE_BATCH, "With a large batch you gain much more from tf.function."),
    # apply_gradients said to be skippable with training still going on: the weights change without it.
    (APPLY, GRADIENT_UPDATES, "If you skipped apply_gradients you'd still train, just without learning-rate control."),
    (APPLY, GRADIENT_UPDATES, "For plain SGD you can drop the apply step in a notebook and the model still learns."),
]  # fmt: skip

CORRECT = [
    # The loop said of PyTorch, in prose or in a block under a "PyTorch:" heading.
    (ZERO_GRAD, "In PyTorch you call optimizer.zero_grad(), loss.backward() and optimizer.step() each step, in TF you don't."),
    (ZERO_GRAD, "PyTorch:\n```\nopt.zero_grad()\nout.backward()\nopt.step()\n```\nTensorFlow returns new gradients from each tape, so there is nothing to zero."),
    # An op-heavy model is one of many small ops: the gain is largest there.
    (SPEEDUP, "tf.function helps most for op-heavy models."),
    (SPEEDUP, "The speedup is largest for op-heavy networks."),
    (SPEEDUP, "It gains most on loop-heavy models, where each Python iteration dispatches a few tiny ops."),
    # A gain said much (far, considerably) less at large batch (round 53's false tell, read after the end).
    (SPEEDUP, "Matmul-bound models at large batch are already GPU-bound, so they gain far less."),
    (APPLY, "tape.gradient only returns gradients. If you skip apply_gradients the weights stay the same, even though the loss is still computed."),
]  # fmt: skip


test_grade_freetext_names_a_round54_c54_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round54_c54_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "pytorch " * 700 + "optimizer.zero_grad() backward()",
    "optimizer.zero_grad() " * 700 + "backward()",
    "backward() " * 700 + "optimizer.zero_grad()",
    "\noptimizer.zero_grad()" * 700 + "\nbackward()",
    "op-heavy " * 1_000 + "models gain most",
    "compute-" * 1_000 + "heavy models gain most",
    "skip it " * 700 + "still trains",
    "skip apply_gradients " + "still " * 1_000,
    "large batch gain " + "much " * 1_000 + "less",
    "a" * 10_000,
]


def test_round54_c54_phrasings_search_pumped_text_in_linear_time() -> None:
    tags = {
        ZERO_GRAD: [NEEDS_ZERO_GRAD],
        SPEEDUP: [BIG_MODELS, LARGE_BATCH],
        APPLY: [GRADIENT_UPDATES],
    }
    assert_linear_on(phrasings_of_tags(tags), PUMPED)
