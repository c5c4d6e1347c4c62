"""Round 47 of issue 14 (engineer W5): round 46's four false tells on answers labelled correct
(docs/freetext-rounds.md "Round 47: round 46's false tells (engineer W5)").

Round 46's final set drew four tells on answers its labellers read as right, each from words
that had another reading in the sentence:
- higher-order-derivatives `gradient-outside-outer-tape`: "if you moved that line out of the
  outer with, the outer tape would have seen only y = x3, never the derivative, and would return
  None" - the mistake's right account, its result (None) given;
- no-zero-grad `tape-accumulates`: "the variables have no gradient attribute and nothing
  accumulates between calls" - the match took "gradient" from the first clause and its verb
  from the clause whose subject is "nothing"; the "no" and the "nothing" were counted as one
  denial undoing the other (statements.py);
- persistent-tape `two-tapes-need-two-forwards`: "Another option is two separate tapes, but then
  you may need two forward passes" - the two tapes offered as an option;
- trainable-vs-all-variables `pass-model-variables`: "Also it is wasted computation." after the
  frozen weights and the moving statistics - a reason added to others, not the only one.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import time

import pytest

from app.grading.freetext.phrasings import compile_phrasing, mask
from app.grading.freetext.statements import statement_matches
from tests.grading.core_questions import assert_linear_on, misconception_of, tells_by_rules

HOD, NZG, PT, TVA = (
    "higher-order-derivatives",
    "no-zero-grad",
    "persistent-tape",
    "trainable-vs-all-variables",
)
OUTSIDE, ACCUMULATES = "gradient-outside-outer-tape", "tape-accumulates"
TWO_FORWARDS, PASS_ALL = "two-tapes-need-two-forwards", "pass-model-variables"


@pytest.mark.parametrize(
    "text",
    [
        "If the first-order call sat after the outer block, the outer tape would only have seen"
        " y = x**2 and would hand back None.",
        "Were the inner call placed outside, the outer one would just see the forward pass and"
        " return None for the second derivative.",
    ],
)
def test_the_outer_tape_seeing_only_the_forward_beside_none_is_the_right_account(
    text: str,
) -> None:
    assert OUTSIDE not in tells_by_rules(HOD, text)


@pytest.mark.parametrize(
    "text",
    [
        "The outer tape only needs to record the forward pass y = x**3, then it differentiates"
        " twice.",
        "The outer tape just has to see the forward computation; the inner call can come later.",
    ],
)
def test_the_outer_tape_said_to_need_only_the_forward_is_still_named(text: str) -> None:
    assert OUTSIDE in tells_by_rules(HOD, text)


@pytest.mark.parametrize(
    "text",
    [
        "In TF there is no gradient buffer on a variable and nothing accumulates between calls.",
        "Keras keeps no grads on the weights and nothing builds up across calls to gradient.",
    ],
)
def test_a_denying_subject_after_and_opens_its_own_statement(text: str) -> None:
    assert ACCUMULATES not in tells_by_rules(NZG, text)


@pytest.mark.parametrize(
    "text",
    [
        "The gradients accumulate between calls, so TF needs a reset just like PyTorch.",
        "Gradients pile up over calls and nothing else resets them, so you must zero them.",
    ],
)
def test_gradients_said_to_accumulate_are_still_named(text: str) -> None:
    assert ACCUMULATES in tells_by_rules(NZG, text)


@pytest.mark.parametrize(
    "text",
    [
        "One more option is separate tapes, though then you might need two forward passes.",
        "Separate tapes are an option too, but then you would need two forward runs.",
    ],
)
def test_two_tapes_offered_as_an_option_are_no_belief(text: str) -> None:
    assert TWO_FORWARDS not in tells_by_rules(PT, text)


@pytest.mark.parametrize(
    "text",
    [
        "You can use two tapes, but each tape needs its own forward pass.",
        "Two separate tapes require two forward passes, one per loss.",
    ],
)
def test_two_tapes_said_to_need_two_forwards_are_still_named(text: str) -> None:
    assert TWO_FORWARDS in tells_by_rules(PT, text)


@pytest.mark.parametrize(
    "text",
    [
        "Frozen layers would be trained by mistake. Also, it is wasted compute.",
        "BN's moving mean is updated by assignment, not by gradient. Besides, it's wasted work.",
    ],
)
def test_wasted_work_added_to_other_reasons_is_no_belief(text: str) -> None:
    assert PASS_ALL not in tells_by_rules(TVA, text)


@pytest.mark.parametrize(
    "text",
    [
        "Passing model.variables changes nothing; it's just wasted computation.",
        "Why trainable_variables? Honestly it is wasted work otherwise, nothing more.",
    ],
)
def test_wasted_work_as_the_whole_reason_is_still_named(text: str) -> None:
    assert PASS_ALL in tells_by_rules(TVA, text)


def round47_phrasings() -> list[str]:
    guarded = [
        (HOD, OUTSIDE, r"\binner (gradient|tape)\b|\bNone\b)"),
        (PT, TWO_FORWARDS, "options?"),
        (TVA, PASS_ALL, "wasted (work|compute|computation|effort)\\b & !"),
    ]
    return [p for qid, tag, mark in guarded for p in misconception_of(qid, tag).any if mark in p]


PUMPED = [
    "outer tape only records y = x " * 1400,
    "two tapes need two forward passes option " * 1000,
    "it is wasted compute also " * 1600,
    "None " * 8000 + "outer tape only sees the forward pass",
]


def test_round47_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round47_phrasings()
    assert len(patterns) == 3  # one phrasing of each of three tags
    assert_linear_on(patterns, PUMPED)


@pytest.mark.parametrize("unit", ["grads and nothing accumulate ", "and nothing and nobody "])
def test_a_pumped_denying_subject_is_read_in_linear_time(unit: str) -> None:
    """The statement boundary looks for "and nothing" once per match: 40,000 characters in
    well under a quarter of a second of CPU."""
    text = (unit * (40_000 // len(unit) + 1))[:40_000] + " between calls."
    between_calls = "(across|over|between) ~ (g"
    (pattern,) = [p for p in misconception_of(NZG, ACCUMULATES).any if between_calls in p]
    started = time.thread_time()
    statement_matches(compile_phrasing(pattern), text, mask(text))
    assert time.thread_time() - started < 0.25
