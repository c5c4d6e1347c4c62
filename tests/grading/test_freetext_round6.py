"""Round 6 of issue 14: spoken self-corrections (retraction.py). A claim withdrawn by the
candidate ("X... no, wait, Y") neither names a tell nor credits a concept; the corrected
claim counts; ordinary negation and a bare "No." answering the prompt are not retractions.
Answers are written for these tests, not copied from the labelled sets."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.normalise import normalise
from app.grading.freetext.retraction import withdraw
from app.grading.freetext.tells import stated_core_tells
from tests.grading.core_questions import question

RETRACTED = [
    # (sentences, what is left of them)
    (["The gradient is zero... hmm, no, not zero, None."], ["not zero, None."]),
    (
        ["tape.gradient updates the weights - no wait, apply_gradients does."],
        ["apply_gradients does."],
    ),
    (
        ["I think you need zero_grad, because... actually no, each step starts fresh."],
        ["each step starts fresh."],
    ),
    (["The tape adds them up.", "No, sorry, that's the other thing."], ["", ""]),
    (["The tape adds them up, or that's for something else."], [""]),
    (
        ["You pass model.variables, or rather model.trainable_variables."],
        ["model.trainable_variables."],
    ),
    (
        ["It keeps the tape; tape.gradient updates them.", "Scratch that, it only computes them."],
        ["It keeps the tape;", "it only computes them."],
    ),
    (["persistent=True frees it.", "Strike that - del frees it."], ["", "del frees it."]),
    (["It's zero, I mean None."], ["None."]),
    (
        ["The loss can be outside.", "Well, no, it has to be inside the block."],
        ["", "it has to be inside the block."],
    ),
    (["It updates the weights.", "Never mind, it doesn't."], ["", "it doesn't."]),
    (
        ["It updates the weights.", "Let me correct that: apply_gradients does."],
        ["", "apply_gradients does."],
    ),
    (["It updates the weights, hmm, that's wrong, it returns them."], ["it returns them."]),
    (["The outer tape goes first.", "Wait, no, the inner one."], ["", "the inner one."]),
]
KEPT = [
    ["No, you don't need zero_grad.", "Each step records a new tape."],
    ["No.", "Each step records a new tape."],
    ["Hmm, no gradient flows through numpy."],
    ["Actually, nothing is recorded."],
    ["Well, no matter what, the tape is fresh."],
    ["It works without it, no problem."],
    ["Use tape.gradient rather than a manual loop, or rather than anything else."],
    ["I mean that the tape records the forward pass."],
]


@pytest.mark.parametrize(("sentences", "left"), RETRACTED)
def test_a_retraction_marker_withdraws_the_claim_before_it(
    sentences: list[str], left: list[str]
) -> None:
    assert withdraw(sentences) == left


@pytest.mark.parametrize("sentences", KEPT)
def test_denials_answers_and_determiners_are_not_retractions(sentences: list[str]) -> None:
    assert withdraw(sentences) == sentences


def test_a_marker_opening_the_answer_withdraws_nothing_before_it() -> None:
    assert withdraw(["No wait, apply_gradients updates them."]) == ["apply_gradients updates them."]


def test_normalise_drops_a_withdrawn_sentence_and_keeps_code() -> None:
    units = normalise(
        "tape.gradient updates the weights.\nx = tape.gradient(loss, w)\nNo wait."
    ).units
    assert [u.text for u in units] == [
        "tape.gradient updates the weights.",
        "x = tape.gradient(loss, w)",
    ]
    units = normalise("tape.gradient updates the weights. No wait, it only computes them.").units
    assert [u.text for u in units] == ["it only computes them."]


def test_a_withdrawn_claim_names_no_tell_in_grading() -> None:
    q = question("gradient-vs-apply")
    said = grade_freetext(
        q,
        "tape.gradient updates the weights, right? Hmm, no, tape.gradient only computes them; optimizer.apply_gradients updates the variables.",
    )
    assert "gradient-updates-weights" not in said.misconceptions
    kept = grade_freetext(
        q, "tape.gradient updates the weights; optimizer.apply_gradients updates the variables too."
    )
    assert "gradient-updates-weights" in kept.misconceptions


def test_the_corrected_claim_after_the_marker_counts() -> None:
    q = question("gradient-vs-apply")
    result = grade_freetext(
        q,
        "apply_gradients only computes the gradients... no wait, tape.gradient updates the weights.",
    )
    assert "gradient-updates-weights" in result.misconceptions


def test_interview_tells_read_retractions_like_grading() -> None:
    assert (
        stated_core_tells(
            "You have to call zero_grad before each step. Actually no, scratch that, TensorFlow needs no zero_grad."
        )
        == {}
    )
    assert "needs-zero-grad" in stated_core_tells("You have to call zero_grad before each step.")
    assert "needs-zero-grad" in stated_core_tells(
        "No, you have to call zero_grad before each step."
    )
