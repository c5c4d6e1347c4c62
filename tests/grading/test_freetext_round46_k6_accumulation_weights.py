"""gradient-accumulation's schedule and scaling alone stay below partial, round 46 (docs/
freetext-rounds.md "Round 46: incorrect answers graded partial (engineer K6)"): the prompt
already says the weights are updated once; an answer that credits only that schedule
(`apply-every-n`) and the scaling (`scale`) has not said how the gradients are accumulated
(`add-each`: one tape held over the micro-batches, an update per micro-batch), and labellers call
it wrong (tune answers with no tell named crediting exactly those two, graded partial: 11
incorrect, 2 correct, none partial). `apply-every-n` weighs 0.25 and `scale` 0.5: those two
alone score 0.75 / 3.75 = 0.2, below the 0.25 line; with the accumulation beside them the answer
is partial as before, and the three required parts are correct."""

from __future__ import annotations

import pytest

from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers)
SCHEDULE_AND_SCALE = (
    "Run the four micro-batches and call optimizer.apply_gradients only once every 4 steps, "
    "dividing the gradients by 4 so they match the mean of the big batch."
)
ADDED_AND_SCHEDULED = (
    "Keep a running sum: after each micro-batch add its gradients into accumulator variables "
    "with assign_add, and call apply_gradients once every 4 micro-batches."
)
COMPLETE = (
    "Make one tf.Variable of zeros per trainable variable. For each micro-batch compute the "
    "gradients with a tape and add them into the accumulators with assign_add. Every 4 "
    "micro-batches call apply_gradients once with the sums divided by 4, then reset the "
    "accumulators to zero."
)


def _rules(text: str) -> tuple[str, list[str], list[str]]:
    result = grade_freetext(
        question("gradient-accumulation"),
        text,
        second_opinion=False,
        neighbours=False,
        tell_caps=False,
        tag_classifier=False,
    )
    found = sorted(result.details.get("concepts_found", []))
    return result.verdict, found, result.misconceptions


def test_the_schedule_and_scaling_alone_are_below_partial() -> None:
    assert _rules(SCHEDULE_AND_SCALE) == ("incorrect", ["apply-every-n", "scale"], [])


@pytest.mark.parametrize(
    ("text", "verdict"), [(ADDED_AND_SCHEDULED, "partial"), (COMPLETE, "correct")]
)
def test_the_accumulation_beside_them_keeps_its_verdict(text: str, verdict: str) -> None:
    verdict_found, found, tells = _rules(text)
    assert (verdict_found, tells) == (verdict, [])
    assert "add-each" in found


def test_the_weights() -> None:
    concepts = {c.id: c for c in question("gradient-accumulation").rubric.concepts}
    assert (concepts["apply-every-n"].weight, concepts["scale"].weight) == (0.25, 0.5)
    assert sum(c.weight for c in concepts.values()) == 3.75
