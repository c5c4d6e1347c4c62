"""Round 12 (engineer R): known defects of the free-text reader, each with statements
written before the change. *_HELD lists were kept back and read once, at the end
(docs/freetext.md "Round 12: reader defects (engineer R)"). Rules alone.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import question


def _tells(qid: str, text: str) -> list[str]:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    return list(result.misconceptions)


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


@pytest.mark.parametrize(("qid", "text"), KEYWORD_PROSE_TRUE)
def test_a_keyword_led_prose_answer_reads_its_denials(qid: str, text: str) -> None:
    assert _tells(qid, text) == []


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


@pytest.mark.parametrize(("qid", "tag", "text"), SPLIT_WRONG + SPLIT_WRONG_HELD)
def test_a_claim_split_by_and_the_is_read(qid: str, tag: str, text: str) -> None:
    assert tag in _tells(qid, text)


@pytest.mark.parametrize(("qid", "text"), SPLIT_TRUE + SPLIT_TRUE_HELD)
def test_a_true_statement_split_by_and_the_names_no_tell(qid: str, text: str) -> None:
    assert _tells(qid, text) == []
