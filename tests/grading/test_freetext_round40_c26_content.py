"""Round 40 of issue 14 (engineer C26, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): first the false tells on answers labelled correct, counted by
question, tag and persona over the tune personas, then read. On gradient-accumulation
single-tape-over-micro-batches read "one tape for every micro-batch" (a tape per micro-batch) as one
tape across them, and tape-accumulates read the learner's own "..., and sum the gradients into
accumulators" as the tape's verb; on gradient-vs-apply apply-builds-deferred-op read an op's
possessive ("that op's registered gradient") as an op built, and needs-zero-grad read masking some
gradients "before applying" them as a clearing between steps; on tf-function-speedup
big-models-gain-most read "largest for small, op-heavy models" as heavy models. Then a belief the
rules missed on gradient-vs-apply: the gradient call said to store the gradients ("it", "them", "the
result") on the variables. Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 40: gradient-vs-apply, gradient-accumulation, no-zero-grad and
tf-function-speedup false tells and misconceptions (engineer C26)"). Read by the rules alone: the
learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_under, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["gradient-vs-apply", "gradient-accumulation", "no-zero-grad", "tf-function-speedup"]

WRONG = [
    ("gradient-vs-apply", "grads-stored-on-variables", "tape.gradient goes backwards through the recorded ops, computes dL/dw for each weight and stores it on the weight so the optimizer can use it."),
    ("gradient-vs-apply", "grads-stored-on-variables", "Backprop computes dL/dw and saves it on the weights, then apply_gradients does the update."),
    ("gradient-vs-apply", "grads-stored-on-variables", "It runs the chain rule backwards and puts the result on every variable; apply_gradients does the step afterwards."),
]  # fmt: skip

# Still named, as before: the beliefs the narrowed phrasings were written for.
STILL_WRONG = [
    ("gradient-accumulation", "single-tape-over-micro-batches", "Use the same tape for every micro-batch and take the gradient once at the end."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Keep one tape across all four micro-batches, then call tape.gradient on the summed loss."),
    ("gradient-accumulation", "tape-accumulates", "The GradientTape sums the gradients across the four calls, so just call apply_gradients after the last one."),
    ("gradient-vs-apply", "apply-builds-deferred-op", "apply_gradients builds an update op, and the weights only change when that op is run later."),
    ("gradient-vs-apply", "needs-zero-grad", "You must zero the old gradients before each step, otherwise apply_gradients sees stale values."),
    ("tf-function-speedup", "big-models-gain-most", "The speedup is biggest for deep transformer models, since they have the most layers."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", "Open one tape for every micro-batch and take its gradient right away; add the gradients into tf.Variable accumulators, apply the sum divided by four once, then zero the accumulators."),
    ("gradient-accumulation", "Do four passes of 64, each with a new GradientTape, and sum the returned gradients into zeroed accumulators (tf.Variables). Then apply the mean once and reset them."),
    ("gradient-vs-apply", "tape.gradient walks every op backwards with that op's registered gradient. It returns one tensor per trainable variable. apply_gradients runs the optimizer's rule and assigns the new values."),
    ("gradient-vs-apply", "tape.gradient only returns tensors. Because they are plain values, you can clip them, log them, or zero out a frozen branch's grads before applying; apply_gradients is what changes the weights."),
    ("tf-function-speedup", "The graph removes per-op Python dispatch, so the gain is largest for small, op-heavy models with many tiny kernels, and small for large models whose time goes to big GPU kernels."),
    ("gradient-vs-apply", "tape.gradient returns new gradient tensors and stores nothing on the variables; apply_gradients computes the update and writes the new values into the variables."),
]  # fmt: skip


test_grade_freetext_names_a_round40_c26_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round40_c26_narrowed_tells_still_name = names_the_tell(
    STILL_WRONG, tells=tells_by_rules
)
test_grade_freetext_round40_c26_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "tape.gradient " * 700,
    "it stores them " * 600,
    "one tape for " * 700,
    "the tape and sum " * 500,
    "that op's " * 900,
    "zero the grads before " * 400,
    "gain is largest for op-heavy " * 300,
    "a" * 10_000,
]


def test_round40_c26_phrasings_are_read_back() -> None:
    assert len(phrasings_under("# Round 40 (engineer C26)", QUESTIONS, first_only=True)) == 6


def test_round40_c26_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(
        phrasings_under("# Round 40 (engineer C26)", QUESTIONS, first_only=True), PUMPED
    )
