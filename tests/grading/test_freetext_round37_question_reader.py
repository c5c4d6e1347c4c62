"""Reading a direct question stays linear in the answer's length (round 37).

`matching.asks` (a direct question states nothing) ran `re`, outside budget.py's bounded
searches, with two `\\W*` around an optional label: an answer of thousands of brackets or
quotes split that run every way for every phrasing searched (about 7 CPU s per 5,000
characters), spent the answer's whole budget and was held at partial (`stopped_early`).
The runs are possessive now; what counts as a question is unchanged.
"""

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.matching import asks
from app.grading.freetext.normalise import Unit
from tests.grading.core_questions import question

QUESTIONS = [
    "Do you need zero_grad before each step?",
    "Where should you call zero_grad?",
    "1) Is the tape persistent by default?",
    "Q: so why does it return None?",
    '"(( and do we call tape.reset()?"',
    "((((((((do you need it?",
]
STATEMENTS = [
    "I think you call tape.reset()?",
    "tf.hessians maybe?",
    "The tape records the forward pass.",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_direct_question_asks(text: str) -> None:
    assert asks(Unit(text, is_code=False))


@pytest.mark.parametrize("text", STATEMENTS)
def test_a_statement_or_hedge_does_not_ask(text: str) -> None:
    assert not asks(Unit(text, is_code=False))


@pytest.mark.parametrize(
    "opening, closing",
    [("(" * 2_400 + "[" * 2_400, "]" * 2_400 + ")" * 2_400), ("\"'`" * 1_600, "`'\"" * 1_600)],
)
def test_a_true_answer_inside_thousands_of_brackets_is_read_within_its_budget(
    opening: str, closing: str
) -> None:
    """Twice the hostile benchmark's shape: with the quadratic run it spent the 3 s budget
    on any machine (about 28 CPU s here); now it is read whole."""
    vs = question("gradient-vs-apply")
    model = " ".join(vs.rubric.model_answer.split())
    result = grade_freetext(vs, opening + model + closing)
    assert not result.details.get("stopped_early")
