"""Round 6 of issue 14: spoken self-corrections (retraction.py). A claim withdrawn by the
candidate ("X... no, wait, Y") neither names a tell nor credits a concept; the corrected
claim counts; ordinary negation and a bare "No." answering the prompt are not retractions.
Answers are written for these tests, not copied from the labelled sets."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import affirms, grade_freetext
from app.grading.freetext.normalise import normalise
from app.grading.freetext.retraction import withdraw
from app.grading.freetext.tells import stated_core_tells
from tests.grading.core_questions import question
from tests.grading.held_statements import names_the_tell

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
RETRACTED.append(
    (
        ["The gain is largest for small models... well, actually, it's the big ones."],
        ["it's the big ones."],
    )
)
KEPT = [
    ["No, you don't need zero_grad.", "Each step records a new tape."],
    ["No.", "Each step records a new tape."],
    ["Hmm, no gradient flows through numpy."],
    ["Actually, nothing is recorded."],
    ["Well, no matter what, the tape is fresh."],
    ["It works without it, no problem."],
    ["Use tape.gradient rather than a manual loop, or rather than anything else."],
    ["I mean that the tape records the forward pass."],
    ["Actually, the tape records the forward pass."],
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


# Round 6, part 2: tells that fired on right statements, by general cause.
FALSE_TELLS = [
    # a role that is itself a negation word is content, not a denial of the claim
    (
        "training-flag",
        "training-auto-detected-in-tape",
        "It calls the layers in inference mode. No error is raised, but the model is trained without dropout and with a broken normalisation.",
    ),
    # "don't forget X" denies a phrasing about forgetting X
    (
        "gradient-accumulation",
        "tape-accumulates",
        "Add each micro-batch's gradients into the accumulators and apply once; don't forget the reset after applying or they keep adding up.",
    ),
    # a reported belief: "people blame X"
    (
        "why-none-gradients",
        "none-means-zero-signal",
        "People often blame vanishing gradients, but vanishing gives tiny numbers. None means no recorded path from the loss to the variable.",
    ),
    # an if-clause naming the wrong choice as the alternative is a hypothesis
    (
        "trainable-vs-all-variables",
        "pass-model-variables",
        "Pass model.trainable_variables. If you pass model.variables instead, the non-trainable ones get None gradients.",
    ),
    # the object of "with" is no subject for the next clause
    (
        "gradient-accumulation",
        "tape-accumulates",
        "Loop over the micro-batches, each with its own tape, sum the gradients in Python, then apply_gradients once.",
    ),
    # tell phrasings that also matched the right statement
    (
        "gradient-vs-apply",
        "gradient-reruns-forward",
        "tape.gradient only computes: it replays what it recorded during the forward pass in reverse. apply_gradients updates the variables.",
    ),
    (
        "tf-function-speedup",
        "large-batch-gains-most",
        "A ResNet on big batches is mostly GPU-bound already, so you might only get 10-20% there; small models gain most.",
    ),
    (
        "higher-order-derivatives",
        "gradient-outside-outer-tape",
        "Nest the tapes, get dy_dx from the inner tape inside the outer block, then after the outer block call outer.gradient(dy_dx, x).",
    ),
    (
        "persistent-tape",
        "persistent-stores-gradients",
        "A tape is not persistent by default. Pass persistent=True to keep it for both gradients, and don't forget to del the tape afterwards.",
    ),
]
FALSE_TELLS.append(
    (
        "numpy-inside-tape",
        "numpy-raises-error",
        "In eager mode it runs and the gradients before h are None. Only inside a tf.function would you get an error, since .numpy() is not available in graph mode.",
    )
)
STILL_TELLS = [
    (
        "numpy-inside-tape",
        "numpy-raises-error",
        "Calling .numpy() inside the tape raises an error.",
    ),
    (
        "training-flag",
        "training-auto-detected-in-tape",
        "Leaving training=True out breaks nothing, Keras knows you're training inside the tape.",
    ),
    (
        "gradient-accumulation",
        "tape-accumulates",
        "You can forget the reset, the gradients accumulate automatically across the four calls.",
    ),
    (
        "trainable-vs-all-variables",
        "pass-model-variables",
        "You can pass model.variables instead, it would still work.",
    ),
    (
        "gradient-accumulation",
        "tape-accumulates",
        "Use a persistent tape: the tape accumulates the gradients across the micro-batches.",
    ),
    (
        "tf-function-speedup",
        "large-batch-gains-most",
        "Large batches gain the most from tf.function.",
    ),
]


@pytest.mark.parametrize(("question_id", "tag", "answer"), FALSE_TELLS)
def test_a_right_statement_names_no_tell(question_id: str, tag: str, answer: str) -> None:
    assert tag not in grade_freetext(question(question_id), answer).misconceptions


test_the_tell_itself_is_still_named = names_the_tell(STILL_TELLS)


def test_a_counterfactual_denies_its_condition_not_a_consequence_it_runs_into() -> None:
    q = question("trainable-vs-all-variables")
    stated = grade_freetext(
        q, "If you passed model.variables it'd still work fine, the extra ones would just get None."
    )
    assert "pass-model-variables" in stated.misconceptions
    consequence = r"(it'd|it would|would|it will) (still|also) (run|work)\b"
    assert affirms(
        "If you passed model.variables it'd still work, it would be slower.", consequence
    )
    condition = r"tape\.gradient ~ (updat|chang)\w* ~ (weights|variables)"
    assert not affirms("If tape.gradient updated the weights, you wouldn't need one.", condition)


def test_an_answer_taken_back_entirely_is_told_so_not_called_blank() -> None:
    q = question("gradient-vs-apply")
    withdrawn = grade_freetext(q, "tape.gradient updates the weights. Scratch that.")
    assert withdrawn.verdict == "incorrect" and withdrawn.misconceptions == []
    assert "taken back" in withdrawn.feedback[0].message
    for blank in ("", "   ", "<p></p>", "<script>x = 1</script>"):
        assert "No answer was given" in grade_freetext(q, blank).feedback[0].message
