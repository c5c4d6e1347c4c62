"""Round 49 of issue 14 (engineer C44, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): round 48's two questions for the lead,
settled by the labels' own verdicts over tune, and two general claims instead of fitted wordings.
numpy-inside-tape: numpy-kills-all-gradients - said of "the gradients" too, in an answer that never
says which variables lose them (round 48's answer guard over the scope words), and capped `partial`,
the labellers' cap and the learned tell caps'. no-zero-grad: tape-reset-is-zero-grad - tape.reset
said to be called, used, needed or to clear (no answer labelled correct to this question says so
over tune); numpy-finite-differences - the numerical word in either order beside the gradient's
(not of numerical stability or precision). Statements written for this file, in words of their
own (docs/freetext-rounds.md "Round 49: gradient-vs-apply, gradient-accumulation, no-zero-grad,
tf-function-speedup and numpy-inside-tape misconceptions (engineer C44)"). Read by the rules alone:
the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

NUMPY = "numpy-inside-tape"
KILLS_ALL = "numpy-kills-all-gradients"
ZERO_GRAD = "no-zero-grad"
RESET = "tape-reset-is-zero-grad"
NUMERIC = "numpy-finite-differences"

WRONG = [
    (NUMPY, KILLS_ALL, "The tape cannot follow NumPy, so the gradients come back None and training quietly stalls."),
    (NUMPY, KILLS_ALL, "Nothing crashes. tape.gradient just hands you None gradients, because NumPy is invisible to it."),
    (NUMPY, NUMERIC, "The gradient through the NumPy part is then worked out numerically."),
    (NUMPY, NUMERIC, "For the NumPy step TensorFlow gets the derivative numerically instead of from the tape."),
    (ZERO_GRAD, RESET, "You have to use tape.reset() so that nothing carries over from the last batch."),
    (ZERO_GRAD, RESET, "Just use tape.reset() and you are fine."),
    (ZERO_GRAD, RESET, "In TensorFlow you need tape.reset() before the next batch."),
    (ZERO_GRAD, RESET, "Before the next batch, run tape.reset() on the tape."),
]  # fmt: skip

CORRECT = [
    # numpy-kills-all-gradients: a scope anywhere in the answer, a counterfactual, an if-clause, a denial.
    (NUMPY, "The gradients are None for everything before the conversion; the layers after h still learn."),
    (NUMPY, "The tape loses the path at h, so the gradients come back None. Only the encoder is affected."),
    (NUMPY, "Nothing raises: the conversion goes through, and the early layers just get None gradients."),
    (NUMPY, "If nothing on the tape connected the loss to the weights, the gradients would be None."),
    (NUMPY, "If you convert the loss itself to NumPy, the gradients are None."),
    (NUMPY, "Not all the gradients are None: the head after the conversion keeps its own."),
    # numpy-finite-differences: a denial, numerical precision.
    (NUMPY, "TensorFlow never differentiates numerically; the NumPy part is simply not recorded."),
    (NUMPY, "The float64 copy only changes the numerical precision a little, the gradients are None for the earlier layers."),
    # tape-reset-is-zero-grad: a denial, what the reset really drops, a counterfactual.
    (ZERO_GRAD, "You never need tape.reset() here: every step opens a new tape anyway."),
    (ZERO_GRAD, "tape.reset() only throws away what the tape has recorded so far; it has nothing to do with gradients."),
    (ZERO_GRAD, "tape.reset() makes the tape forget the operations it has recorded, nothing more."),
    (ZERO_GRAD, "If you called tape.reset() every step, nothing would change."),
    (ZERO_GRAD, "TensorFlow has no zero_grad because tape.gradient returns fresh gradients every step."),
]  # fmt: skip


test_grade_freetext_names_a_round49_c44_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round49_c44_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def test_round49_numpy_kills_all_gradients_caps_at_the_labellers_partial() -> None:
    assert misconception_of(NUMPY, KILLS_ALL).cap == "partial"


PUMPED = [
    "word " * 2_000,
    "gradients None " * 700,
    "gradients " * 1_500 + "None",
    "if " * 2_000 + "gradients None",
    "tape.reset " * 1_000,
    "tape.reset() " * 800 + "call",
    "call " * 2_000 + "tape.reset",
    "numerically " * 1_000 + "gradient",
    "numerical gradient " * 600 + "precision",
    "a" * 10_000,
]


def test_round49_c44_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(phrasings_of_tags({NUMPY: [KILLS_ALL, NUMERIC], ZERO_GRAD: [RESET]}), PUMPED)
