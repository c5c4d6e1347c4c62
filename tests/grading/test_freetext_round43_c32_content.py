"""Round 43 of issue 14 (engineer C32, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): the stated beliefs the rules missed, counted per
(question, tag) over the tune personas and worked down from the top. gradient-accumulation: the memory
said to be a micro-batch's because each forward pass only sees 64 (one tape held over all four; a clause
after the comma hid it), and the micro-batch loop opened inside one tape's `with` block in code.
numpy-inside-tape: the gradients said to come to no harm, as a denial ("No problem for the gradient").
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 43:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C32)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_under, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["gradient-accumulation", "numpy-inside-tape"]

ONE_TAPE = "Put all four micro-batches of 64 under one GradientTape, add their losses divided by 4 and take one gradient."
OWN_TAPES = "Give every micro-batch of 64 its own tape, take its gradients and add them into tf.Variable accumulators."

ONE_TAPE_CODE = (
    "Sum the four losses under a single tape:\n\n"
    "```python\n"
    "with tf.GradientTape() as tape:\n"
    "    total = 0.0\n"
    "    for xb, yb in chunks:\n"
    "        total += loss_fn(yb, model(xb, training=True)) / 4\n"
    "grads = tape.gradient(total, model.trainable_variables)\n"
    "optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "```\n"
)
OWN_TAPES_CODE = (
    "One tape per chunk, gradients summed into accumulators:\n\n"
    "```python\n"
    "acc = [tf.zeros_like(v) for v in model.trainable_variables]\n"
    "for xb, yb in chunks:\n"
    "    xb = augment(xb)\n"
    "    with tf.GradientTape() as tape:\n"
    "        loss = loss_fn(yb, model(xb, training=True)) / 4\n"
    "    grads = tape.gradient(loss, model.trainable_variables)\n"
    "    acc = [a + g for a, g in zip(acc, grads)]\n"
    "optimizer.apply_gradients(zip(acc, model.trainable_variables))\n"
    "```\n"
)

WRONG = [
    ("gradient-accumulation", "tape-stores-no-activations", f"{ONE_TAPE} The forward passes only see 64 examples each, so activation memory is small."),
    ("gradient-accumulation", "tape-stores-no-activations", f"{ONE_TAPE} Memory stays fine because the forward passes only ever take 64 images."),
    ("gradient-accumulation", "tape-stores-no-activations", f"{ONE_TAPE} The network sees 64 rows per forward call, so we never run out of memory."),
    ("gradient-accumulation", "single-tape-over-micro-batches", ONE_TAPE_CODE),
    ("numpy-inside-tape", "numpy-is-recorded", "Nothing bad happens to the gradients in eager mode."),
    ("numpy-inside-tape", "numpy-is-recorded", "Honestly, nothing wrong with the gradients here."),
    ("numpy-inside-tape", "numpy-is-recorded", "No problem for the gradient, it's just slower because of the copy."),
    ("numpy-inside-tape", "numpy-is-recorded", "It is a speed issue, there is no correctness problem at all."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", f"{OWN_TAPES} The forward passes only see 64 examples each, so activation memory is small."),
    ("gradient-accumulation", "For each micro-batch open a new `tf.GradientTape()`, take its gradients and add them up. The forward passes only see 64 examples each, so activation memory is small."),
    ("gradient-accumulation", "Each tape is released after its gradient call, so memory stays at 64 samples because the forward passes run one after the other."),
    ("gradient-accumulation", f"{OWN_TAPES_CODE}\nThe forward passes only see 64 examples each, so memory stays small."),
    ("gradient-accumulation", f"{OWN_TAPES_CODE}\nDivide the sums by 4 before that apply, then zero the accumulators."),
    ("gradient-accumulation", "Memory would stay small because the forward passes each see 64 samples, but only if every tape is freed before the next one."),
    ("numpy-inside-tape", "The gradients of the layers before the conversion are None, while there is no problem for the gradients of the layers after it."),
    ("numpy-inside-tape", "This is a real problem for the gradients: everything before .numpy() gets None."),
    ("numpy-inside-tape", "Rewrite it with tf.math and there is no problem for the gradients as long as every op stays in TensorFlow."),
]  # fmt: skip


test_grade_freetext_names_a_round43_c32_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round43_c32_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "forward pass only 64 " * 500,
    "memory because the forward " * 400,
    "with tf.GradientTape() as tape:\n    for x in y:\n" * 250,
    "    for x in range(4):\n" * 450,
    "no problem for the gradients " * 350,
    "gradient problem after " * 450,
    "a" * 10_000,
]


def test_round43_c32_phrasings_are_read_back() -> None:
    assert len(phrasings_under("# Round 43 (engineer C32)", QUESTIONS)) == 4


def test_round43_c32_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(phrasings_under("# Round 43 (engineer C32)", QUESTIONS), PUMPED)
