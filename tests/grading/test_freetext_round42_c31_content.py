"""Round 42 of issue 14 (engineer C31, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): the stated beliefs the rules missed, counted per (question, tag)
over the tune personas and worked down from the top. gradient-accumulation: memory said to stay at a
micro-batch's with one tape over all four ("only 64 samples go through at a time, so it fits": the comma
before "so" hid it), one GradientTape (not only "tape") over all the micro-batches, the summed gradients
applied as they are in an answer that never divides. no-zero-grad: the optimizer said to clear its
gradient buffers, zero_grad said to be built into apply_gradients, "yourself" kept out only beside
accumulating it yourself, the optimizer's variables assigned zeros in code, recreating the optimizer
offered as the other way to reset. tf-function-speedup: the batch's examples said to be split over
threads or cores. Statements written for this file, in words of their own (docs/freetext-rounds.md
"Round 42: gradient-vs-apply, gradient-accumulation, no-zero-grad and tf-function-speedup misconceptions
(engineer C31)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    graded_by_rules_alone,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["gradient-vs-apply", "gradient-accumulation", "no-zero-grad", "tf-function-speedup"]

ONE_TAPE = (
    "Wrap the four micro-batches of 64 in a single GradientTape and add their losses divided by 4."
)
OWN_TAPES = "Give every micro-batch of 64 its own tape, take its gradients and add them into tf.Variable accumulators."

WRONG = [
    ("gradient-accumulation", "tape-stores-no-activations", f"{ONE_TAPE} Just 64 examples pass through the network at once, so memory stays low."),
    ("gradient-accumulation", "tape-stores-no-activations", f"{ONE_TAPE} Each chunk only has 64 rows in it, so it fits on the card."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Open a single GradientTape over all four micro-batches and call gradient once on the summed loss."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Keep one `tf.GradientTape` around all the micro-batches, then differentiate the total once."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", f"{OWN_TAPES} After the fourth one, call apply_gradients with the summed gradients and zero the accumulators."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", f"{OWN_TAPES} Then pass the summed gradients to apply_gradients once."),
    ("no-zero-grad", "optimizer-clears-grads", "Nothing to call: Keras optimizers reset the gradients automatically inside apply_gradients, so you never write it yourself."),
    ("no-zero-grad", "optimizer-clears-grads", "Once the update is done, the Keras optimizer empties its gradient buffers, so every step begins clean."),
    ("no-zero-grad", "optimizer-clears-grads", "You skip it in TensorFlow, because zero_grad is folded into apply_gradients."),
    ("no-zero-grad", "zero-grad-resets-momentum", "At the top of each step reset the optimizer like this:\n\n```python\nfor var in optimizer.variables:\n    var.assign(tf.zeros_like(var))\n```\n"),
    ("no-zero-grad", "recreate-optimizer-resets", "The old gradient history sits in the optimizer, so assign zeros to its variables, or just build a new optimizer."),
    ("no-zero-grad", "recreate-optimizer-resets", "TF has no zero_grad; the closest thing is to re-create the optimizer every epoch."),
    ("tf-function-speedup", "tf-function-parallel-threads", "Under tf.function the examples of each batch are handed out to the CPU cores and run in parallel instead of one after another."),
    ("tf-function-speedup", "tf-function-parallel-threads", "The traced step splits the batch across all the cores, which eager execution cannot do."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", f"{OWN_TAPES} Just 64 examples pass through the network at once, so memory stays low."),
    ("gradient-accumulation", "For each micro-batch open a new tape, add its gradients to the accumulators and let the tape go. Only 64 samples are alive at a time, so it fits."),
    ("gradient-accumulation", "Open one GradientTape for every micro-batch, take its gradients right away and add them to the running sums."),
    ("gradient-accumulation", f"{OWN_TAPES} Divide the sums by 4, then call apply_gradients once with the summed gradients and zero the accumulators."),
    ("no-zero-grad", "Nowhere: tape.gradient returns new tensors every step and apply_gradients never clears any gradient buffer, because there is none. PyTorch's optimizer.zero_grad() is what clears .grad."),
    ("no-zero-grad", "Nowhere. If you accumulate on purpose, you write the accumulation yourself and reset your accumulators after apply_gradients; TensorFlow itself has nothing to zero."),
    ("no-zero-grad", "A Keras 3 optimizer built with gradient_accumulation_steps resets its own accumulators after every Nth update; you still never zero anything."),
    ("tf-function-speedup", "tf.function removes the per-op Python dispatch, so small models with many small ops gain most; the GPU already spreads a batch's examples over its cores in both modes."),
    ("tf-function-speedup", "The graph runs without Python between ops; tf.data can separately prefetch and map batches in parallel on CPU cores."),
]  # fmt: skip


test_grade_freetext_names_a_round42_c31_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round42_c31_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def test_optimizer_clears_grads_caps_the_yourself_answer_incorrect() -> None:
    answer = (
        "You don't call it. Keras optimizers clear the gradients automatically inside "
        "apply_gradients, so you don't call it yourself, and each step gets fresh gradients."
    )
    result = graded_by_rules_alone("no-zero-grad", answer)
    assert "optimizer-clears-grads" in result.misconceptions
    assert result.verdict == "incorrect"


PUMPED = [
    "word " * 2_000,
    "only 64 so it " * 700,
    "one GradientTape around all " * 350,
    "apply_gradients with the summed " * 300,
    "optimizer.variables()\n v.assign(tf.zeros_like(" * 200,
    "zero_grad is built into " * 400,
    "or recreate the optimizer " * 350,
    "split the batch across threads " * 300,
    "a" * 10_000,
]


def test_round42_c31_phrasings_are_read_back() -> None:
    # round 52 (S2): the shared entries' phrasings keep their comments in _misconceptions.yaml
    read = (*QUESTIONS, "_misconceptions")
    assert len(phrasings_under("# Round 42 (engineer C31)", read, first_only=True)) == 8


def test_round42_c31_phrasings_search_pumped_text_in_linear_time() -> None:
    read = (*QUESTIONS, "_misconceptions")  # round 52: shared entries keep their comments there
    assert_linear_on(phrasings_under("# Round 42 (engineer C31)", read), PUMPED)
