"""Round 10 of issue 14 (engineer G): Keras 3 optimizers take gradient_accumulation_steps=N,
keep the running sums and apply their mean every N-th apply_gradients call, also from a
custom loop (checked on Keras 3.15.1). An answer using the option meets the concepts it
satisfies (accumulate, scale to the mean, apply once per N) and calling apply_gradients per
micro-batch with the option named in the same sentence is not the apply-every-micro-batch
tell. The answers were written before the rubric changed; the two `HELD` answers were kept
untouched until the end (docs/freetext-rounds.md "Round 10: Keras 3 accumulation option")."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

QID = "gradient-accumulation"

# (expected verdict, expected tells, answer)
OPTION = [
    (
        "correct",
        [],
        "Construct the optimizer with gradient_accumulation_steps=4 and call apply_gradients after each micro-batch; it averages and updates every 4th call.",
    ),
    (
        "correct",
        [],
        "In Keras 3 you can do optimizer = keras.optimizers.Adam(1e-3, gradient_accumulation_steps=4). In the custom loop compute each micro-batch's gradients with a tape and pass them to apply_gradients every time: the optimizer keeps the running sums and applies their mean only on every 4th call, then resets its accumulators.",
    ),
    (
        "correct",
        [],
        "Use the Keras 3 optimizer option gradient_accumulation_steps=4. For each micro-batch of 64 take tape.gradient and call optimizer.apply_gradients(zip(grads, vars)); the optimizer adds them into its own accumulators and only on the fourth call applies the averaged gradients, one step as if the batch were 256.",
    ),
    (
        "correct",
        [],
        "Set gradient_accumulation_steps=4 on the optimizer and call apply_gradients after every micro-batch.",
    ),
    (
        "incorrect",
        ["fit-accumulate-grad-batches"],
        "Just set gradient_accumulation_steps=4 in model.fit and Keras handles the accumulation.",
    ),
    (
        "incorrect",
        ["apply-every-micro-batch"],
        "Create the optimizer with gradient_accumulation_steps=4, but it still updates the weights after every micro-batch, just with a quarter of the learning rate.",
    ),
    (
        "correct",
        [],
        "Keras 3 optimizers take gradient_accumulation_steps. With it set to 4, each apply_gradients call from my loop accumulates, and every 4th call the optimizer applies the mean of the accumulated gradients once.",
    ),
]
HELD = [
    (
        "correct",
        [],
        "Simplest in Keras 3: SGD(learning_rate=0.01, gradient_accumulation_steps=4). I call apply_gradients once per micro-batch inside my loop, and the optimizer keeps the sums, divides by 4 and takes one step every fourth call.",
    ),
    (
        "incorrect",
        ["fit-accumulate-grad-batches"],
        "model.fit(x, y, batch_size=64, gradient_accumulation_steps=4) does the accumulation for you.",
    ),
]
HAND = [
    (
        "correct",
        [],
        "Keep one tf.Variable of zeros per trainable variable. For each micro-batch compute the gradients with a tape and assign_add them into the accumulators. After 4 micro-batches call apply_gradients with the accumulators divided by 4, then reset them to zero.",
    ),
    (
        "correct",
        [],
        "accum = [tf.zeros_like(v) for v in model.trainable_variables]; for each of the 4 micro-batches: grads = tape.gradient(loss, vars); accum = [a + g for a, g in zip(accum, grads)]. Then optimizer.apply_gradients(zip([a / 4 for a in accum], vars)) once and start again from zeros.",
    ),
    (
        "partial",
        [],
        "Sum the gradients of the four micro-batches in a list and apply them once at the end.",
    ),
    (
        "incorrect",
        ["apply-every-micro-batch"],
        "Apply the gradients after each micro-batch with the learning rate divided by 4, that is the same as one step on 256.",
    ),
]


# Round 22: the second opinion retrained with rounds 20's and 21's sets lowers these two
# (correct -> partial; the rules alone still grade them correct, 0.6 with add-each,
# apply-every-n and scale): recorded, not tuned away. Round 32: retrained with round 31's set
# it lowers a third (OPTION[2], 0.7 by the rules alone, 0.3 as shipped). Round 35: retrained
# with round 34's set it keeps OPTION[2] correct again (a plain test). Round 36: retrained with
# round 35's set it lowers OPTION[2] again (0.3 as shipped; the flip-flop engineer K4 measures).
# Round 37: retrained with round 36's set at the round's start it kept OPTION[2] correct; retrained
# after the round's merge it lowers OPTION[2] again and keeps OPTION[0] and OPTION[6] correct (plain
# tests now): the three sit near the second opinion's line, and each retrain moves them (K4, round 36).
# Round 38: retrained with round 37's set at the start and after the merge, it lowers OPTION[6] too
# (OPTION[2] stays lowered, OPTION[0] correct). Round 42: retrained after the round's merge it keeps
# OPTION[2] correct again (a plain test); OPTION[6] stays lowered. Round 43: retrained after the
# round's merge (K3's required reset reads the Keras 3 option's own reset) it keeps OPTION[6] correct
# again: no answer is lowered (all plain tests); the three near the line stay checked by the rules alone.
LOWERED: set[str] = set()
NEAR_THE_LINE = {OPTION[0][2], OPTION[2][2], OPTION[6][2]}
LOWERED_REASON = "rounds 22, 32, 36, 37 and 38: the retrained second opinion lowers it to partial"


@pytest.mark.parametrize(
    ("verdict", "tags", "answer"),
    [
        pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=LOWERED_REASON))
        if case[2] in LOWERED
        else case
        for case in OPTION + HELD + HAND
    ],
)
def test_keras_option_and_hand_built_answers(verdict: str, tags: list[str], answer: str) -> None:
    result = grade_freetext(question(QID), answer)
    assert result.verdict == verdict
    assert result.misconceptions == tags


@pytest.mark.parametrize("answer", [a for v, _, a in OPTION + HELD if v == "correct"])
def test_option_meets_the_concepts_it_satisfies(answer: str) -> None:
    found = grade_freetext(question(QID), answer).details["concepts_found"]
    assert isinstance(found, list)
    assert {"add-each", "scale", "apply-every-n"} <= set(found)


def test_apply_per_micro_batch_without_the_option_is_still_the_tell() -> None:
    answer = (
        "Call apply_gradients after each micro-batch and the four updates add up to one big step."
    )
    assert "apply-every-micro-batch" in grade_freetext(question(QID), answer).misconceptions


@pytest.mark.parametrize("answer", sorted(NEAR_THE_LINE))
def test_the_rules_alone_grade_the_option_answers_near_the_line_correct(answer: str) -> None:
    result = grade_freetext(question(QID), answer, second_opinion=False)
    assert (result.verdict, result.misconceptions) == ("correct", [])
