"""Round 48 of issue 14 (engineer W6): a statement about TensorFlow's own API after another
framework is named (docs/freetext-rounds.md "Round 48: round 47's false tells (engineer W6)").

A comparison in the statement's own clause ("the tape accumulates gradients like in PyTorch")
was already read as said of TensorFlow. What the other-framework filter still took for
PyTorch's was a statement whose framework is named only in an earlier clause, with
TensorFlow's tape (or apply_gradients, `tf.`) named since: "for the same reason they call
zero_grad in PyTorch: the tape keeps what it recorded, ..." (matching.is_foreign). Statements
written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.matching import is_foreign
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

NZG, GVA = "no-zero-grad", "gradient-vs-apply"
ACCUMULATES, STORED = "tape-accumulates", "grads-stored-on-variables"


@pytest.mark.parametrize(
    "text",
    [
        "The habit comes from PyTorch; here the tape keeps adding the gradients up across steps,"
        " so reset it.",
        "Borrowing from PyTorch, the tape accumulates the gradients across steps unless you"
        " reset it.",
        "For the same reason people call zero_grad in PyTorch: the tape keeps what it recorded,"
        " and gradients pile up across steps.",
    ],
)
def test_the_tape_named_after_pytorch_is_what_the_statement_is_about(text: str) -> None:
    assert ACCUMULATES in tells_by_rules(NZG, text)


def test_tape_gradient_named_after_pytorch_is_what_the_statement_is_about() -> None:
    text = (
        "Coming from PyTorch I thought of it this way: tape.gradient stores the gradients on"
        " the variables and apply_gradients reads them."
    )
    assert STORED in tells_by_rules(GVA, text)


def test_a_comparison_in_the_clause_is_still_said_of_tensorflow() -> None:
    assert ACCUMULATES in tells_by_rules(NZG, "The tape accumulates gradients like in PyTorch.")


@pytest.mark.parametrize(
    "text",
    [
        "In PyTorch, backward() adds into .grad, so the gradients accumulate across steps unless"
        " you zero them.",
        "In PyTorch you call zero_grad because the gradients accumulate across backward calls.",
    ],
)
def test_a_statement_about_pytorch_names_no_tell(text: str) -> None:
    assert ACCUMULATES not in tells_by_rules(NZG, text)


@pytest.mark.parametrize("unit", ["in PyTorch you zero them, ", "PyTorch: the tape, "])
def test_the_own_api_is_looked_for_in_linear_time(unit: str) -> None:
    """Two bounded searches per hit, within its sentence: a match at the end of 40,000
    characters of PyTorch mentions and tape clauses in linear time."""
    sentence = (unit * (40_000 // len(unit) + 1))[:40_000] + " gradients accumulate"

    def read(sentence: str) -> None:
        is_foreign(sentence, mask(sentence), len(sentence) - 20, len(sentence))

    assert_linear(read, sentence)


@pytest.mark.parametrize(
    ("sentence", "foreign"),
    [
        ("the gradients accumulate across steps, at least in PyTorch", True),
        ("in PyTorch you zero them, then the gradients accumulate across steps", True),
        ("in PyTorch you zero them, then the tape accumulates gradients across steps", False),
    ],
)
def test_only_the_own_api_sets_a_pytorch_topic_aside(sentence: str, foreign: bool) -> None:
    start = sentence.index("accumulate") - 4
    end = sentence.index("steps") + 5
    assert is_foreign(sentence, mask(sentence), start, end) is foreign
