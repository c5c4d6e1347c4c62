"""Round 26 of issue 14 (engineer M): a line's leading label ("Root cause:", "Workaround:",
"1)", "Step 1:", "Q:", "**Why:**", a Markdown header) is no claim. What follows it is read as
it would be on its own line: code as code (it was read as prose, and its identifiers and
commas made the answer a keyword list, so the code stated nothing), a question as a question,
a sentence anchored on its start from the body's start; a verdict label ("Myth:", "Wrong:",
"Not:") judges its line false. Sentences written for this file (docs/freetext-rounds.md
"Round 26: the matcher on labelled lines (engineer M)"), read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import concepts_by_rules, tells_by_rules

LABELS = ["Root cause: ", "Resolution: ", "TL;DR: ", "Answer: ", "Step 1: ", "A: ", "Edit: ", "Note: ", "Workaround: ", "Pass both in one call: ", "1/ ", "1) ", "2. ", "- ", "## Fix\n", "**Why:** ", "**Fix**: "]  # fmt: skip
LIST_CODE = "ga, gb = tape.gradient([l1, l2], model.trainable_variables)"


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("code", [LIST_CODE, f"`{LIST_CODE}`"])
def test_code_after_a_label_states_its_tell(label: str, code: str) -> None:
    assert "list-target-separate-grads" in tells_by_rules("persistent-tape", label + code)


@pytest.mark.parametrize("label", LABELS)
def test_code_after_a_label_earns_its_concept(label: str) -> None:
    text = label + "`with tf.GradientTape(persistent=True) as tape:`"
    assert "persistent-true" in concepts_by_rules("persistent-tape", text)


def test_a_labelled_code_line_is_a_code_unit_after_its_label() -> None:
    units = normalise("Workaround: `" + LIST_CODE + "`").units
    assert [(u.text, u.is_code) for u in units] == [("Workaround:", False), (LIST_CODE, True)]


@pytest.mark.parametrize(
    "line",
    [
        "Fix: call tape.watch(x) before the forward pass.",
        "after: tape.reset()",  # a bare call names an action, as in a sentence
        "don't need to nest anything -> tf.hessians(y, x) gives the 2nd derivs (for scalar x)",
        "Note: tf.hessians(y, x) gives the 2nd derivs directly (hessian matrix)",
    ],
)
def test_prose_after_a_label_stays_prose(line: str) -> None:
    assert [u.is_code for u in normalise(line).units] == [False]


@pytest.mark.parametrize("label", ["Q: ", "Question: ", "1) ", "Interviewer: "])
def test_a_question_after_a_label_states_nothing(label: str) -> None:
    text = label + "Do you have to call optimizer.zero_grad() at the start of every step?"
    assert tells_by_rules("no-zero-grad", text) == []


@pytest.mark.parametrize("label", ["Q: ", "Root cause: ", "1) ", "**Why:** "])
def test_a_label_keeps_a_stated_tell(label: str) -> None:
    assert tells_by_rules(
        "no-zero-grad", label + "You have to call optimizer.zero_grad() at the start of every step."
    ) == ["needs-zero-grad"]
    assert "gradient-updates-weights" in tells_by_rules(
        "gradient-vs-apply", label + "tape.gradient computes the gradients and updates the weights."
    )


@pytest.mark.parametrize(
    "label", ["Myth: ", "Wrong: ", "Not: ", "False: ", "Incorrect: ", "**Wrong:** ", "Myth #2: "]
)
@pytest.mark.parametrize(
    "body",
    [
        "the tape updates the weights.",
        "tape.gradient updates the weights.",
        "`optimizer.apply_gradients` is not needed because tape.gradient updates the weights.",
    ],
)
def test_a_verdict_label_denies_its_line(label: str, body: str) -> None:
    assert tells_by_rules("gradient-vs-apply", label + body) == []


@pytest.mark.parametrize("label", ["Wrong: ", "Myth: ", "Not: "])
def test_code_after_a_verdict_label_states_no_tell(label: str) -> None:
    assert tells_by_rules("persistent-tape", label + "`" + LIST_CODE + "`") == []


@pytest.mark.parametrize("label", ["Mistake: ", "Root cause: ", "Note: ", "Wrong fix: "])
def test_a_label_that_is_no_verdict_denies_nothing(label: str) -> None:
    text = label + "tape.gradient updates the weights."
    assert "gradient-updates-weights" in tells_by_rules("gradient-vs-apply", text)
