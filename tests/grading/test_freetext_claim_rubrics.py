"""The core rubrics' claim phrasings (issue 14, round 3): each names its tell in wordings
written for this test (not copied from the labelled sets), and stays silent on the same
subject stated correctly."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

CLAIMED_TELLS = [
    ("numpy-inside-tape", "numpy-kills-all-gradients", "Once you go through NumPy, the model's gradients are all None."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "After that conversion the network can't learn at all."),
    ("numpy-inside-tape", "numpy-gives-zero-gradients", "The derivative through the NumPy step is taken as zero."),
    ("numpy-inside-tape", "numpy-is-recorded", "The gradients are still calculated, TF just converts the array back."),
    ("why-none-gradients", "unbuilt-model-gives-none", "Its weights weren't created yet when the tape opened, so nothing was tracked."),
    ("why-none-gradients", "none-means-zero-signal", "The grads vanish in a deep sigmoid net until TensorFlow reports None."),
    ("why-none-gradients", "must-watch-variables", "You must add tape.watch for the weights before the forward pass."),
    ("higher-order-derivatives", "persistent-gives-second-order", "Setting persistent is what lets the tape give you a second derivative."),
    ("higher-order-derivatives", "gradient-twice-same-tape", "Take the gradient again on the first result and that's d2y/dx2."),
    ("higher-order-derivatives", "nested-tapes-need-persistent", "With nested tapes, the outer one must be persistent."),
    ("higher-order-derivatives", "tape-first-order-only", "Skip the tapes and call tf.hessians directly."),
    ("tf-function-speedup", "tf-function-uses-gpu", "With tf.function the graph is executed on the GPU."),
    ("tf-function-speedup", "big-models-gain-most", "Very deep networks speed up the most."),
    ("no-zero-grad", "optimizer-clears-grads", "The optimizer wipes the gradients internally once it has applied them."),
    ("no-zero-grad", "needs-zero-grad", "Reset the optimizer state at the start of each step instead."),
    ("gradient-vs-apply", "gradient-updates-weights", "The weights get their new values during backprop, in tape.gradient."),
    ("training-flag", "training-auto-detected-in-tape", "Inside a tape the model knows it is training anyway."),
    ("training-flag", "training-auto-detected-in-tape", "Nothing breaks if you forget it inside the tape."),
    ("training-flag", "batchnorm-ignores-training-flag", "Dropout changes, but BatchNorm doesn't depend on the flag."),
    # round 54 (engineer C55): the clean-up claim is read only in an answer that speaks of a
    # persistent tape (its answer requirement `!+(persistent)`): of a default tape it is true, and
    # the labellers gave the tag to 1 of the 67 tune answers it named that never speak of one. This
    # lone sentence says nothing of the tape; not strict: a retrained tag classifier may name it.
    pytest.param(
        "persistent-tape", "persistent-is-free", "Afterwards there's nothing to do, the garbage collector frees it.",
        marks=pytest.mark.xfail(reason="read only beside a persistent tape (round 54, engineer C55)", strict=False),
    ),
    ("persistent-tape", "gradient-consumes-target", "You have to recompute the forward pass for each loss under a new tape."),
    ("higher-order-derivatives", "tape-first-order-only", "A GradientTape only handles first-order derivatives."),
    ("gradient-vs-apply", "gradients-computed-in-forward", "tape.gradient just reads the gradients stored during the forward pass."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The BatchNorm moving mean would get real gradients and drift with SGD."),
]  # fmt: skip

# The same subjects stated correctly: the claims must not fire on them.
CORRECT_STATEMENTS = [
    (
        "numpy-inside-tape",
        "Every variable before the conversion gets None; the later layers still learn.",
    ),
    ("numpy-inside-tape", "Not all gradients are None: only the ones upstream of h."),
    ("numpy-inside-tape", "Those gradients are None, not zero, so apply_gradients skips them."),
    ("numpy-inside-tape", "The later layers' gradients are still computed normally."),
    (
        "why-none-gradients",
        "The model creates its weights on its first call; they are watched automatically.",
    ),
    (
        "why-none-gradients",
        "Trainable variables are watched automatically; you never need tape.watch for them.",
    ),
    (
        "higher-order-derivatives",
        "Nest two tapes; persistent is not needed unless you call one tape's gradient more than once.",
    ),
    ("higher-order-derivatives", "The outer tape takes the gradient of the inner tape's result."),
    (
        "tf-function-speedup",
        "Eager ops run on the GPU as well; tf.function removes the per-op Python dispatch.",
    ),
    (
        "tf-function-speedup",
        "For big convolutional models the kernels dominate, so the gain is small.",
    ),
    ("tf-function-speedup", "The gain is large for models with many small ops."),
    (
        "higher-order-derivatives",
        "Nest two tapes and take the gradient twice, first with the inner, then the outer.",
    ),
    (
        "higher-order-derivatives",
        "Nest two tapes; TF1 used to have tf.hessians, which did it directly.",
    ),
    # rounds 24 and 35-39: a strict xfail (the retrained neighbours named
    # training-auto-detected-in-tape on this short true statement, which the rules grade partial:
    # it does not say what the flag changes); round 40's retrains (round 39's set in tune) no
    # longer do, so it is asserted again: a retrain that names the tell on it again fails here
    (
        "training-flag",
        "With model.fit Keras knows it is training; in a custom loop you pass training=True yourself.",
    ),
    (
        "higher-order-derivatives",
        "Nest two tapes, because a single tape only gives first-order derivatives of what it recorded.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient just calculates, it's read-only for the model; apply_gradients updates the weights.",
    ),
    (
        "training-flag",
        "BatchNorm depends on the flag: batch statistics in training, moving averages at inference.",
    ),
    (
        "persistent-tape",
        "Delete it with del tape; otherwise Python only frees it when it goes out of scope.",
    ),
    (
        "persistent-tape",
        "Non-persistent tapes are freed after the first gradient call, so use persistent=True and del it after.",
    ),
    (
        "persistent-tape",
        "One option is to redo the forward pass in a second tape; persistent=True avoids that cost.",
    ),
    ("no-zero-grad", "You never reset anything: the optimizer keeps no gradients, only its slots."),
    # True in Keras 3 (checked on TF 2.21): a frozen layer's weights are still
    # differentiable, so passed explicitly they get real gradients and the optimizer moves them.
    (
        "trainable-vs-all-variables",
        "Frozen weights would get real gradients and the optimizer would train them again.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient only computes; apply_gradients is the call that changes the weights.",
    ),
]

# Concepts credited from claims, including denials ("TF doesn't keep gradients").
CLAIMED_CONCEPTS = [
    (
        "no-zero-grad",
        "fresh-gradients",
        "TensorFlow doesn't hold on to any gradients between steps.",
    ),
    (
        "trainable-vs-all-variables",
        "optimizer-must-not-update",
        "Those moving averages aren't meant to be trained by the optimizer.",
    ),
    (
        "trainable-vs-all-variables",
        "optimizer-must-not-update",
        "Only the trainable ones should get optimizer updates.",
    ),
    ("gradient-vs-apply", "gradient-no-update", "tape.gradient is a pure computation."),
    (
        "gradient-accumulation",
        "apply-every-n",
        "Sum the four gradient lists and at the end apply them with the optimizer.",
    ),
    ("persistent-tape", "persistent-true", "Or record the forward pass with two tapes at once."),
]
NOT_CLAIMED = [
    ("no-zero-grad", "fresh-gradients", "PyTorch keeps the gradients between steps in .grad."),
    ("trainable-vs-all-variables", "optimizer-must-not-update", "The optimizer should update every variable."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "tag", "answer"), CLAIMED_TELLS)
def test_grade_freetext_names_a_tell_stated_as_a_claim(
    question_id: str, tag: str, answer: str
) -> None:
    assert tag in grade_freetext(question(question_id), answer).misconceptions


@pytest.mark.parametrize(("question_id", "answer"), CORRECT_STATEMENTS)
def test_grade_freetext_claims_spare_correct_statements(question_id: str, answer: str) -> None:
    assert grade_freetext(question(question_id), answer).misconceptions == []


@pytest.mark.parametrize(("question_id", "concept", "answer"), CLAIMED_CONCEPTS)
def test_grade_freetext_credits_a_concept_stated_as_a_claim(
    question_id: str, concept: str, answer: str
) -> None:
    assert concept in grade_freetext(question(question_id), answer).details["concepts_found"]


@pytest.mark.parametrize(("question_id", "concept", "answer"), NOT_CLAIMED)
def test_grade_freetext_gives_no_claim_credit_to_the_opposite(
    question_id: str, concept: str, answer: str
) -> None:
    assert concept not in grade_freetext(question(question_id), answer).details["concepts_found"]


def test_grade_freetext_accumulation_without_reset_is_partial() -> None:
    # The prompt asks for every update to be as if the batch were 256: tf.Variable accumulators
    # never reset carry one cycle's sums into the next update. Round 43 (engineer K3) made
    # `reset` required (the labellers' partial); before, resetting was credited but not required.
    answer = (
        "Keep a list of tf.Variable accumulators, add each micro-batch's gradients into them, "
        "and after the fourth micro-batch apply them once, divided by 4."
    )
    assert grade_freetext(question("gradient-accumulation"), answer).verdict == "partial"


QUESTIONS = [
    # A direct question asks; it states no tell (the answer that follows decides).
    ("no-zero-grad", "Do you need to call optimizer.zero_grad() before each step? Not in TensorFlow: tape.gradient returns fresh tensors.", []),
    ("gradient-vs-apply", "Does tape.gradient update the weights? It doesn't; apply_gradients does.", []),
    ("numpy-inside-tape", "So, are all the gradients None? Only those of the layers before h.", []),
    # A statement with a question mark is still a statement.
    # (round 28: C8's phrasing of tape-reset-is-zero-grad, a reset at a step's start, reads it too)
    ("no-zero-grad", "I think you call tape.reset() at the start of each step?", ["needs-zero-grad", "tape-reset-is-zero-grad"]),
    ("persistent-tape", "When you're finished you call tape.reset() to release it?", ["reset-frees-tape"]),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "answer", "tags"), QUESTIONS)
def test_grade_freetext_reads_no_claim_in_a_direct_question(
    question_id: str, answer: str, tags: list[str]
) -> None:
    assert grade_freetext(question(question_id), answer).misconceptions == tags
