"""Round 12 (engineer R): known defects of the free-text reader, each with statements
written before the change. *_HELD lists were kept back and read once, at the end
(docs/freetext-rounds.md "Round 12: reader defects (engineer R)"). Rules alone.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import clean, normalise
from tests.grading.core_questions import concepts_by_rules
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

# 1. A line that starts with a Python keyword is code only if it is Python.
PROSE_LINES = [
    "return the gradients and let apply_gradients update the weights",
    "del the tape once both gradients are taken, a persistent tape holds its memory until then",
    "import the optimizer, call tape.gradient for the grads, then apply_gradients",
    "from what I remember you import numpy and that breaks the chain",
    "If you compute the loss after the with block, here is what happens:",
    "for each micro-batch:",
]
PROSE_LINES_HELD = [
    "del tape only drops the Python name, the memory goes when nothing else refers to it",
    "return early if grads is None, otherwise apply them",
    "import numpy inside the tape and the chain breaks",
]
CODE_LINES = [
    "del tape",
    "return tape.gradient(loss, model.trainable_variables)",
    "import tensorflow as tf",
    "from tensorflow import keras",
    "if grads[0] is None:",
    "for x, y in dataset:",
    "with tf.GradientTape(persistent=True) as tape:",
    "return x, y",
    "del grads  # free them",
]
CODE_LINES_HELD = ["return loss", "import numpy as np", "if tape is None:"]


@pytest.mark.parametrize("line", PROSE_LINES + PROSE_LINES_HELD)
def test_a_sentence_that_starts_with_a_keyword_is_prose(line: str) -> None:
    assert not any(unit.is_code for unit in normalise(line).units)


@pytest.mark.parametrize("line", CODE_LINES + CODE_LINES_HELD)
def test_a_python_line_that_starts_with_a_keyword_is_code(line: str) -> None:
    assert any(unit.is_code for unit in normalise(line).units)


# A one-line prose answer's denials are read (in code, `not` is logic).
KEYWORD_PROSE_TRUE = [
    (
        "gradient-vs-apply",
        "return the gradients from tape.gradient; it does not update the weights, apply_gradients does",
    ),
    (
        "gradient-vs-apply",
        "return the grads and let the optimizer apply them; tape.gradient never changes a variable",
    ),
]


test_a_keyword_led_prose_answer_reads_its_denials = names_nothing(
    KEYWORD_PROSE_TRUE, fields="qid text", tells=_tells
)


# 4. A claim whose fix follows "and the" + a new subject.
SPLIT_WRONG = [
    (
        "why-none-gradients",
        "unconnected-zero-fixes",
        "Pass unconnected_gradients=tf.UnconnectedGradients.ZERO and the None gradients are fixed.",
    ),
    (
        "why-none-gradients",
        "unconnected-zero-fixes",
        "Set unconnected_gradients to ZERO and the problem is solved.",
    ),
]
SPLIT_WRONG_HELD = [
    (
        "numpy-inside-tape",
        "unconnected-zero-fixes",
        "Just add unconnected_gradients=tf.UnconnectedGradients.ZERO and the error is fixed.",
    ),
]
SPLIT_TRUE = [
    (
        "why-none-gradients",
        "Pass unconnected_gradients=ZERO and the None gradients become zeros, but the variables are still disconnected.",
    ),
    (
        "why-none-gradients",
        "Compute the loss inside the tape and the None gradients are fixed; unconnected_gradients=ZERO would only hide them.",
    ),
]
SPLIT_TRUE_HELD = [
    (
        "why-none-gradients",
        "With unconnected_gradients=ZERO the Nones become zeros and the weights still learn nothing, so nothing is fixed.",
    ),
]


test_a_claim_split_by_and_the_is_read = names_the_tell(
    SPLIT_WRONG + SPLIT_WRONG_HELD, fields="qid tag text", tells=_tells
)
test_a_true_statement_split_by_and_the_names_no_tell = names_nothing(
    SPLIT_TRUE + SPLIT_TRUE_HELD, fields="qid text", tells=_tells
)


# 2. "zero gradient(s)" is the API only where the words name it.
ZERO_AS_WORDS = [
    "None is not a zero gradient: a zero gradient means the path exists but the slope is 0.",
    "With unconnected_gradients=ZERO you get zero gradients instead of None.",
    "Frozen layers just get zero gradients.",
    "Applying zero gradients does nothing to the weights.",
]
ZERO_AS_API = [
    ("Call zero grad at the start of each step.", "Call zero_grad at the start of each step."),
    ("optimizer.zero-grad() clears .grad", "optimizer.zero_grad() clears .grad"),
    ("use zerograd first", "use zero_grad first"),
    ("call optimizer.zero grad() first", "call optimizer.zero_grad() first"),
]


@pytest.mark.parametrize("text", ZERO_AS_WORDS)
def test_zero_gradients_as_words_stay_words(text: str) -> None:
    assert "zero_grad" not in clean(text)[0]


@pytest.mark.parametrize(("text", "expected"), ZERO_AS_API)
def test_zero_grad_spellings_name_the_api(text: str, expected: str) -> None:
    assert clean(text)[0] == expected


ZERO_TRUE = [
    # "zero gradients are not the same as reset gradients" is no denial of zero_grad.
    (
        "no-zero-grad",
        "If a gradient is zero the step does nothing; zero gradients are not the same as reset gradients.",
        "not-needed",
    ),
]


@pytest.mark.parametrize(("qid", "text", "concept"), ZERO_TRUE)
def test_zero_gradients_as_words_earn_no_zero_grad_credit(
    qid: str, text: str, concept: str
) -> None:
    assert concept not in concepts_by_rules(qid, text)


ZERO_WRONG = [
    ("no-zero-grad", "You need to zero gradients before each step.", "needs-zero-grad"),
    ("no-zero-grad", "Call zero grad at the start of each step.", "needs-zero-grad"),
    ("no-zero-grad", "You must zero the gradients each step or they pile up.", "needs-zero-grad"),
]
ZERO_WRONG_HELD = [
    (
        "no-zero-grad",
        "Before every step you have to zero gradients, like in PyTorch, or they accumulate.",
        "needs-zero-grad",
    ),
]


test_zeroing_gradients_is_still_the_tell = names_the_tell(
    ZERO_WRONG + ZERO_WRONG_HELD, fields="qid text tag", tells=_tells
)


# 3. A vanishing (or zero) gradient set against None names no none-means-zero-signal.
VANISHING_TRUE = [
    ("why-none-gradients", "Vanishing gradients are tiny numbers, not None."),
    (
        "why-none-gradients",
        "None is not a zero gradient: a zero gradient means the path exists but the slope is 0.",
    ),
    (
        "why-none-gradients",
        "A vanishing gradient would be a small number, never None; None says the tape has no record connecting loss and weights - compute the loss inside the tape.",
    ),
]
VANISHING_TRUE_HELD = [
    (
        "why-none-gradients",
        "This isn't vanishing gradients - those are small values, not None. None means no recorded path.",
    ),
]
VANISHING_WRONG = [
    (
        "why-none-gradients",
        "None gradients are just vanishing gradients: the signal got too small.",
    ),
    ("why-none-gradients", "You get None because the gradients vanished in the deep network."),
]
VANISHING_WRONG_HELD = [
    (
        "why-none-gradients",
        "It's the vanishing gradient problem, the None means the signal died out.",
    ),
]


@pytest.mark.parametrize(("qid", "text"), VANISHING_TRUE + VANISHING_TRUE_HELD)
def test_a_gradient_set_against_none_names_no_tell(qid: str, text: str) -> None:
    assert "none-means-zero-signal" not in _tells(qid, text)


@pytest.mark.parametrize(("qid", "text"), VANISHING_WRONG + VANISHING_WRONG_HELD)
def test_none_read_as_a_vanishing_gradient_is_the_tell(qid: str, text: str) -> None:
    assert "none-means-zero-signal" in _tells(qid, text)
