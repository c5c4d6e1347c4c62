"""Round 55 of issue 14 (engineer C56, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). gradient-accumulation
`summed-gradients-equal-big-batch` read across the answer: the prose equates the update with the 256
(full, big) batch, the code hands the accumulators themselves to `apply_gradients` (an answer
requirement, `!+(...)`), and nothing in the answer divides, averages or scales (round 38's answer
guard, `!!(...)`). No one clause holds that claim: the sum is in the code, the equating in the prose.
Statements written for this file (docs/freetext-rounds.md "Round 55: ... (engineer C56)"). Read by
the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_of_tags, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

ACCUMULATION, SUMMED = "gradient-accumulation", "summed-gradients-equal-big-batch"

LOOP = (
    "```\n"
    "acc = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]\n"
    "for x, y in micro_batches:\n"
    "    with tf.GradientTape() as tape:\n"
    "        loss = loss_fn(y, model(x, training=True))\n"
    "    grads = tape.gradient(loss, model.trainable_variables)\n"
    "    for a, g in zip(acc, grads):\n"
    "        a.assign_add(g)\n"
    "{apply}\n"
    "for a in acc:\n"
    "    a.assign(tf.zeros_like(a))\n"
    "```"
)
RAW = LOOP.format(apply="optimizer.apply_gradients(zip(acc, model.trainable_variables))")
DIVIDED = LOOP.format(
    apply="optimizer.apply_gradients(zip([a / 4 for a in acc], model.trainable_variables))"
)

WRONG = [
    (ACCUMULATION, SUMMED, f"Keep one accumulator per variable and add each micro-batch's gradients into it.\n{RAW}\nAfter four micro-batches you make a single update, equivalent to one step on 256."),
    (ACCUMULATION, SUMMED, f"{RAW}\nThis behaves exactly like training on the full batch, only with less memory."),
    (ACCUMULATION, SUMMED, f"Sum the gradients in variables, then apply them once per 256 examples, like a real large batch cut in four slices.\n{RAW}"),
]  # fmt: skip

CORRECT = [
    # The same answer that divides by four, in the code or in the prose.
    (ACCUMULATION, f"Keep one accumulator per variable and add each micro-batch's gradients into it.\n{DIVIDED}\nAfter four micro-batches the update is the same as one batch of 256."),
    (ACCUMULATION, f"{RAW}\nDivide the sums by 4 first, then it behaves exactly like training on the full batch."),
    (ACCUMULATION, f"{RAW}\nThe losses are means, so average the accumulated gradients: then it matches the 256 batch."),
    # The accumulators applied raw, with nothing equating them with the big batch.
    (ACCUMULATION, f"Keep one accumulator per variable and add each micro-batch's gradients into it.\n{RAW}"),
]  # fmt: skip


test_grade_freetext_names_a_round55_c56_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round55_c56_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "apply_gradients(zip(" * 700 + "acc,",
    "apply_gradients(zip(" + "acc" * 3_000 + ",",
    "apply_gradients(zip(" + "acc" * 3_000 + "x",
    "apply_gradients(zip(" + "x" * 9_000,
    "apply_gradients(zip(self." + "_" * 5_000,
    "256 " * 1_000 + "same",
    "full " * 1_000 + "batch as if",
    "a" * 10_000,
]


def test_round55_c56_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(phrasings_of_tags({ACCUMULATION: [SUMMED]}), PUMPED)
