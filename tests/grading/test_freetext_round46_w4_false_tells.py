"""Round 46 of issue 14 (engineer W4): round 45's four false tells on answers labelled correct
(docs/freetext-rounds.md "Round 46: round 45's false tells (engineer W4)").

Round 45's final set drew four tells on answers its labellers read as right, each from words
that had another reading in the sentence:
- numpy-inside-tape `numpy-is-recorded` (twice): the fix's own words - the NumPy maths
  *replaced* by TensorFlow operations "so the tape can record them", and a NumPy routine
  wrapped in a custom gradient "so that the tape knows how to differentiate through it";
- gradient-accumulation `tape-accumulates`: "If you record all four forward passes on one
  tape, the activations of all 256 samples are kept until the gradient call" - the match ran
  from the if-clause's tape into a main clause whose determined subject was one word too
  long for the statement boundary (statements.py);
- higher-order-derivatives `must-watch-variables`: "... rather than a variable, it must be
  watched by both tapes, since constants are not watched automatically" - the denial is the
  reason clause's, whose subject is the constants.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import time

import pytest

from app.grading.freetext.phrasings import compile_phrasing, mask
from app.grading.freetext.statements import statement_matches
from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    tells_by_rules,
)

NIT, GA, HOD = "numpy-inside-tape", "gradient-accumulation", "higher-order-derivatives"
RECORDED, ACCUMULATES, MUST_WATCH = "numpy-is-recorded", "tape-accumulates", "must-watch-variables"


@pytest.mark.parametrize(
    "text",
    [
        "Fix: replace the NumPy part with the equivalent TensorFlow functions so the tape can"
        " record them.",
        "Replacing the numpy step by tf.math calls means the tape has recorded ops again.",
    ],
)
def test_numpy_replaced_by_tf_is_no_numpy_recorded(text: str) -> None:
    assert RECORDED not in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    "text",
    [
        "If you cannot avoid NumPy, wrap the call in a custom gradient so that TF can"
        " differentiate through it.",
        "The tape differentiates through it only because you gave it a tf.custom_gradient.",
    ],
)
def test_a_custom_gradient_is_how_the_tape_differentiates_through(text: str) -> None:
    assert RECORDED not in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    "text",
    [
        "The numpy maths gets recorded too, so the gradients are fine.",
        "Nothing to worry about, the tape still differentiates through numpy.",
        "TF differentiates through the numpy call on its own.",
    ],
)
def test_numpy_said_recorded_is_still_named(text: str) -> None:
    assert RECORDED in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    "text",
    [
        "If you record all four micro-batches on a single tape, the activations of all 256"
        " examples are kept until the gradient call.",
        "If all four forward passes run on one tape, the activations of the whole 256 batch"
        " are kept until the gradient call.",
        # a hyphenated word is one word of the subject
        "If you record all four micro-batches on a single tape, the activations of every"
        " micro-batch are kept until the gradient call.",
    ],
)
def test_a_long_determined_subject_opens_its_own_statement(text: str) -> None:
    assert ACCUMULATES not in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "The tape keeps the gradients across micro-batches, so you just call gradient at the end.",
        "Use one tape, it accumulates the gradients for you over the four micro-batches.",
    ],
)
def test_the_tape_keeping_gradients_is_still_named(text: str) -> None:
    assert ACCUMULATES in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "If w is a tensor rather than a variable, it has to be watched by each tape, since"
        " tensors are not watched automatically.",
        "When x is a constant instead of a variable, it must be tracked on both tapes, because"
        " constants are not tracked by default.",
        "For a constant rather than a tf.Variable, it has to be watched on each tape, because"
        " constants are not watched on their own.",
    ],
)
def test_the_reason_clause_denies_its_own_subject(text: str) -> None:
    assert MUST_WATCH not in tells_by_rules(HOD, text)


@pytest.mark.parametrize(
    "text",
    [
        "Variables are not watched automatically by the inner tape, so call watch on them.",
        "The nested tapes do not watch the variables automatically; you must watch them yourself.",
        "Variables aren't watched automatically by the outer tape, since it only sees constants.",
    ],
)
def test_variables_said_unwatched_are_still_named(text: str) -> None:
    assert MUST_WATCH in tells_by_rules(HOD, text)


def round46_phrasings() -> list[str]:
    recorded = [p for p in misconception_of(NIT, RECORDED).any if "replac" in p or "custom" in p]
    watch = [p for p in misconception_of(HOD, MUST_WATCH).negated if "since|because" in p]
    return recorded + watch


PUMPED = [
    "numpy recorded replace " * 1700,
    "the tape differentiates through it " * 1100,
    "custom gradient " * 2500 + "tape differentiates through it",
    "variables since watched because automatically " * 800,
    "variables " * 4000 + "watched automatically",
]


def test_round46_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round46_phrasings()
    assert len(patterns) == 3  # two numpy-is-recorded, one must-watch-variables
    assert_linear_on(patterns, PUMPED)


@pytest.mark.parametrize(
    "unit", ["tape, the activations of all 256 samples ", "x, the a of ", "tape, the a-b-c-d-e "]
)
def test_a_pumped_determined_subject_is_read_in_linear_time(unit: str) -> None:
    """The statement boundary reads a bounded subject at each comma: 40,000 characters in
    well under a quarter of a second of CPU."""
    text = (unit * (40_000 // len(unit) + 1))[:40_000] + " are kept until the gradient call."
    pattern = misconception_of(GA, ACCUMULATES).any[1]
    started = time.thread_time()
    statement_matches(compile_phrasing(pattern), text, mask(text))
    assert time.thread_time() - started < 0.25
