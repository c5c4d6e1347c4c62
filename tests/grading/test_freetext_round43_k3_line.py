"""Round 43 of issue 14 (engineer K3): where the partial line falls. Two parts each prompt asks
for are now required, so an answer without them is partial however much else it says:
gradient-accumulation's reset (the prompt asks for a training loop whose every update is "as if
the batch were 256"; accumulators never reset carry the last cycle's sums into the next update)
and tf-function-speedup's per-op Python overhead (the prompt asks *why* it helps; the graph is
how). Each concept also reads the wordings correct answers used for it ("assign zeros back", a
list of zero tensors made anew in the step, the Keras 3 option; "each op is dispatched from
Python", "fewer Python round trips"). Answers written for this file, in words of their own
(docs/freetext-rounds.md "Round 43: where the partial line falls (engineer K3)"). Read by the
rules alone."""

# ruff: noqa: E501 - tables of answers read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    verdict_and_concepts_by_rules,
)

ACCUMULATE = "gradient-accumulation"
SPEEDUP = "tf-function-speedup"
TRAINING = "training-flag"

# (question, answer, verdict): the part the prompt asks for is missing, so partial (correct before).
MISSING_THE_PART = [
    (ACCUMULATE, "Create a non-trainable tf.Variable of zeros for every trainable weight. For each of the four micro-batches open a new tape, compute the loss and its gradients, and assign_add them into the variables. After the fourth, divide the variables by 4 and call optimizer.apply_gradients once.", "partial"),
    (SPEEDUP, "tf.function traces the step into a graph instead of running it eagerly. The gain is biggest for small models.", "partial"),
    (TRAINING, "It tells layers such as Dropout and BatchNorm to use their training behaviour. If you leave it out they behave as at inference time, so dropout never drops anything and you train a different model.", "partial"),
]  # fmt: skip

# (question, answer, verdict): the part said in words the concept did not read before.
SAID_IN_OTHER_WORDS = [
    (ACCUMULATE, "Keep a tf.Variable of zeros per trainable weight, assign_add each micro-batch's gradients into it, divide by 4 and call apply_gradients once after the fourth micro-batch, then assign zeros back before the next cycle.", "correct"),
    (ACCUMULATE, "Keep accumulator variables for the weights, add every micro-batch's gradients into them, apply the mean (divide by four) once, and then put the accumulators again to zero.", "correct"),
    (ACCUMULATE, "Inside the train step:\n\n```python\nacc = [tf.zeros_like(v) for v in model.trainable_variables]\nfor xb, yb in micro_batches:\n    with tf.GradientTape() as tape:\n        loss = loss_fn(yb, model(xb, training=True)) / 4\n    grads = tape.gradient(loss, model.trainable_variables)\n    acc = [a + g for a, g in zip(acc, grads)]\noptimizer.apply_gradients(zip(acc, model.trainable_variables))\n```\n\nScaling each loss by 1/4 makes the sum the mean over 256.", "correct"),
    (SPEEDUP, "In eager mode each op is dispatched from Python one at a time; tf.function traces the step into a graph that runs in the C++ runtime. The gain is largest for small models with many tiny ops.", "correct"),
    (SPEEDUP, "It compiles the step to a graph, so there are fewer Python round trips. Small models gain the most.", "correct"),
    (TRAINING, "It switches Dropout and BatchNorm into training behaviour. Leave it out and they run as at inference: no dropout, and BatchNorm keeps using its moving mean and variance and never updates them.", "correct"),
    (TRAINING, "Dropout only drops units in training mode, and BatchNorm normalises with the statistics of the current batch only in training mode. Without the flag the forward pass runs in inference mode, so you train a different model.", "correct"),
]  # fmt: skip

# (question, a keyword list of the new phrasings' words): no new phrasing reads it, and it earns
# no correct verdict (the older phrasings' reading of such lists is round 42's and earlier).
KEYWORD_LISTS = [
    (ACCUMULATE, "zeros, assign, again, back, tf.zeros_like, gradient_accumulation_steps"),
    (SPEEDUP, "python, op, each, round trip, dispatch, goes away, fewer"),
    (TRAINING, "dropout, bn, stats, training, inference, averages, normalises"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "text", "verdict"), MISSING_THE_PART)
def test_an_answer_without_the_part_the_prompt_asks_for_is_partial(
    question: str, text: str, verdict: str
) -> None:
    assert verdict_and_concepts_by_rules(question, text)[0] == verdict


@pytest.mark.parametrize(("question", "text", "verdict"), SAID_IN_OTHER_WORDS)
def test_the_part_said_in_other_words_still_earns_correct(
    question: str, text: str, verdict: str
) -> None:
    assert verdict_and_concepts_by_rules(question, text)[0] == verdict


def test_the_keras_3_option_needs_no_reset_of_its_own() -> None:
    text = (
        "With Keras 3 you can pass gradient_accumulation_steps=4 to the optimizer and call "
        "apply_gradients on every micro-batch: it keeps the sums, applies their mean on every "
        "fourth call and starts them again itself."
    )
    assert "reset" in verdict_and_concepts_by_rules(ACCUMULATE, text)[1]


@pytest.mark.parametrize(("question", "text"), KEYWORD_LISTS)
def test_a_keyword_list_earns_nothing_new(question: str, text: str) -> None:
    from app.grading.freetext.phrasings import compile_phrasing

    for pattern in phrasings_under("Round 43 (engineer K3)", [question]):
        if " & " in pattern:
            continue  # a claim's roles are read in one clause; a comma list is many (below)
        assert not compile_phrasing(pattern).compiled.search(text), pattern
    assert verdict_and_concepts_by_rules(question, text)[0] != "correct"


def test_batchnorm_named_in_a_keyword_list_earns_no_batchnorm() -> None:
    text = "dropout, bn, stats, training, inference, averages, normalises"
    assert "batchnorm" not in verdict_and_concepts_by_rules(TRAINING, text)[1]


PUMPED = [
    "assign " * 1500,
    "each op each op " * 500,
    "back to back to " * 500,
    "acc = [tf.zeros_like(" * 300,
    "python round trips " * 400,
    "overhead goes " * 700,
    "bn bn stats " * 500,
    "batch norm batch norm " * 400,
]


def test_round43_k3_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_under("Round 43 (engineer K3)", [ACCUMULATE, SPEEDUP, TRAINING])
    assert len(patterns) >= 10
    assert_linear_on(patterns, PUMPED)
