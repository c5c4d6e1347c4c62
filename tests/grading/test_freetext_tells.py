"""The source document's five tells read from any statement by the free-text matcher."""

from __future__ import annotations

import pytest

from app.grading.freetext import affirms, stated_core_tells
from app.grading.freetext.tells import CORE_TELLS, core_tell_misconceptions


def test_core_tell_misconceptions_come_from_the_core_rubrics() -> None:
    assert sorted(m.tag for m in core_tell_misconceptions()) == sorted(CORE_TELLS)


@pytest.mark.parametrize(
    ("statement", "tags"),
    [
        ("You have to call optimizer.zero_grad() at the start of every step", ["needs-zero-grad"]),
        ("Then I call tape.gradient and the weights are updated.", ["gradient-updates-weights"]),
        ("Passing model.variables works fine too.", ["pass-model-variables"]),
        ("The loss can be computed after the with block.", ["loss-outside-is-fine"]),
        ("The tape records NumPy operations too.", ["numpy-is-recorded"]),
        ("tape.gradient does not update the weights.", []),
        ("In PyTorch you call zero_grad every step.", []),
        ("You never need zero_grad in TensorFlow.", []),
        ("zero_grad, tape, weights, updates, numpy, recorded, model.variables", []),
    ],
)
def test_stated_core_tells_reads_claims_not_keywords(statement: str, tags: list[str]) -> None:
    assert sorted(stated_core_tells(statement)) == tags


@pytest.mark.parametrize(
    ("statement", "affirmed"),
    [
        ("`model.variables`, so nothing is left out", True),
        ("Never pass model.variables.", False),
    ],
)
def test_affirms_judges_a_bare_phrasing_by_its_polarity(statement: str, affirmed: bool) -> None:
    assert affirms(statement, r"\bmodel\.variables\b") is affirmed


def test_stated_core_tells_reads_no_tell_in_a_question() -> None:
    # Interviews use the grader's reading: asking about a tell does not state it.
    assert stated_core_tells("Should I call optimizer.zero_grad() before each step?") == {}
    stated = stated_core_tells("I'd call optimizer.zero_grad() before each step.")
    assert "needs-zero-grad" in stated
