"""Round 49 of issue 14 (engineer W7): a counterfactual with an irregular past, and denials of
storage in a phrase (docs/freetext-rounds.md "Round 49: counterfactuals and the false tells left
(engineer W7)").

Round 48 (engineer G1) found the rules naming `tape-accumulates` on "If the tape kept the
gradients across micro batches, you would not need accumulators": the if-clause's past tense was
read only as a regular "-ed" verb, so "kept" left it an open condition's claim. And two denials of
storage named `tape-holds-gradients`: "at no point does the tape keep the gradients" (a short
"no" whose scope an opener stopped) and "none of the gradients are held in the tape" ("none of"
was no cue). The lead took "none of" out at the merge: as a clause cue it denied round 14's held
statement "none of the tapes may be released before the update step, so make them persistent and
keep them around" (the belief follows the denial across the clause cut); its two sentences here
were strict xfails until round 50 (engineer W8) gave "none of" a scope that stops at that cut and
made it a cue again. Statements written for this file, in words of their own; read by the rules
alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.conditions import in_counterfactual_condition
from app.grading.freetext.phrasings import mask
from app.grading.freetext.polarity import is_affirmed
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

GA, NZG, GVA = "gradient-accumulation", "no-zero-grad", "gradient-vs-apply"
ACCUMULATES, HOLDS = "tape-accumulates", "tape-holds-gradients"


@pytest.mark.parametrize(
    "text",
    [
        "If the tape kept the gradients across micro batches, you would not need accumulators.",
        "If the tape kept the grads between calls, we'd never write an accumulation loop.",
    ],
)
@pytest.mark.parametrize("question_id", [GA, NZG])
def test_an_irregular_past_counterfactual_states_nothing(question_id: str, text: str) -> None:
    assert ACCUMULATES not in tells_by_rules(question_id, text)


@pytest.mark.parametrize(
    "text",
    [
        "The tape keeps the gradients across micro batches, so you do not need accumulators.",
        "If you use one tape, it keeps the gradients across micro batches for you.",
    ],
)
def test_the_plain_statement_and_the_open_condition_still_name_it(text: str) -> None:
    assert ACCUMULATES in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    ("text", "counterfactual"),
    [
        ("if the tape kept the gradients, you would not need accumulators", True),
        ("if the tape is kept open, you would get the same gradients", False),  # no past
        ("if the gradients are kept on the tape, you need no accumulators", False),  # passive
        ("if the tape kept the gradients, you need no accumulators", False),  # no "would"
    ],
)
def test_only_a_past_premise_with_would_is_counterfactual(text: str, counterfactual: bool) -> None:
    masked = mask(text)
    start = masked.index("tape")
    assert in_counterfactual_condition(masked, start, masked.index(",")) is counterfactual


@pytest.mark.parametrize(
    ("question_id", "text"),
    [
        (NZG, "At no point does the tape keep the gradients."),
        (NZG, "None of the gradients are held in the tape."),  # round 50: "none of" is a cue again
        (GVA, "None of the gradients are stored on the tape; it keeps the forward ops."),
        (NZG, "In no way does the tape keep the gradients; it keeps the recorded ops."),
    ],
)
def test_a_phrase_denying_storage_names_no_storage_belief(question_id: str, text: str) -> None:
    assert HOLDS not in tells_by_rules(question_id, text)


@pytest.mark.parametrize(
    ("question_id", "text"),
    [
        (NZG, "The tape keeps the gradients until it is deleted."),
        (NZG, "The gradients are held in the tape."),
        (GVA, "The gradients are stored on the tape."),
        (NZG, "None of the ops are replayed twice: the tape keeps the gradients."),
    ],
)
def test_the_storage_belief_stated_is_still_named(question_id: str, text: str) -> None:
    assert HOLDS in tells_by_rules(question_id, text)


@pytest.mark.parametrize("unit", ["at no point ", "in no way ", "none of the "])
def test_a_sentence_full_of_phrase_denials_is_read_in_linear_time(unit: str) -> None:
    text = (unit * (40_000 // len(unit) + 1))[:40_000] + " the tape keeps the gradients"

    def read(text: str) -> None:
        masked = mask(text)
        is_affirmed(masked, masked.rindex("the tape keeps"), len(masked))

    assert_linear(read, text)


def test_a_pumped_if_clause_of_irregular_pasts_is_read_in_linear_time() -> None:
    text = "if " + ("the tape kept held made " * 1700)[:40_000] + ", you would not need it"

    def read(text: str) -> None:
        masked = mask(text)
        in_counterfactual_condition(masked, masked.index("if ") + 3, masked.index(","))

    assert_linear(read, text)
