"""Round 48 of issue 14 (engineer W6): round 47's three false tells on answers labelled correct
(docs/freetext-rounds.md "Round 48: round 47's false tells (engineer W6)").

Round 47's final set drew three tells on answers its labellers read as right, each from words
that had another reading in the sentence:
- gradient-accumulation `gradient-averages-over-batch`: "each micro-batch loss is already a mean
  over 64 rows, so adding four of them raw gives you 4x the gradient" - the loss is the mean;
  the claim's exclusion knew "the loss is", not "micro-batch loss is";
- gradient-vs-apply `grads-stored-on-variables`: "it uses the gradients + learning rate (+
  whatever state the optimizer keeps, ...) to update the variables" - "to" opens a purpose,
  not the place the gradients are kept;
- numpy-inside-tape `numpy-raises-error`: "every variable before it gets None (no path back to
  the loss) no error" - the aside's "no" was counted beside the "no" of "no error" and the two
  cancelled (asides.py).

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.phrasings import mask
from app.grading.freetext.polarity import is_affirmed
from tests.grading.core_questions import assert_linear_on, misconception_of, tells_by_rules
from tests.grading.linear_time import assert_linear

GA, GVA, NIT = "gradient-accumulation", "gradient-vs-apply", "numpy-inside-tape"
AVERAGES, STORED, RAISES = (
    "gradient-averages-over-batch",
    "grads-stored-on-variables",
    "numpy-raises-error",
)


@pytest.mark.parametrize(
    "text",
    [
        "Every micro-batch loss is already a mean over the batch, so summing them raw gives"
        " four times the real gradient.",
        "Chunk losses are already averages over the batch, so four of them added raw give 4x"
        " the gradient.",
    ],
)
def test_a_loss_said_to_be_already_a_mean_is_the_right_account(text: str) -> None:
    assert AVERAGES not in tells_by_rules(GA, text)


def test_gradients_said_to_be_already_averaged_are_still_named() -> None:
    text = "The gradients are already averaged over the batch, so summing them is all you need."
    assert AVERAGES in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "apply_gradients uses the gradients + the learning rate (+ the moments Adam keeps, like m"
        " and v) to update the variables in place.",
        "The gradients, together with whatever the optimizer has stored, are used to change the"
        " weights.",
    ],
)
def test_to_opening_a_purpose_is_no_place_the_gradients_are_kept(text: str) -> None:
    assert STORED not in tells_by_rules(GVA, text)


@pytest.mark.parametrize(
    "text",
    [
        "The gradients get stored onto the variables so apply_gradients can read them later.",
        "After tape.gradient the grads are kept on the weights until the optimizer comes.",
    ],
)
def test_gradients_said_to_be_kept_on_the_variables_are_still_named(text: str) -> None:
    assert STORED in tells_by_rules(GVA, text)


@pytest.mark.parametrize(
    "text",
    [
        "the early variables get None (there is no path to the loss) and there is no error.",
        "early variables get None (nothing connects them to the loss) no error, training stalls.",
    ],
)
def test_a_denial_inside_an_aside_does_not_undo_the_statements_own(text: str) -> None:
    assert RAISES not in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    "text",
    [
        "Calling .numpy() on a watched tensor throws (there is no way around it) a TypeError.",
        "The tape gets (with no warning beforehand) an error as soon as numpy touches it.",
    ],
)
def test_a_statement_around_an_aside_with_a_denial_is_affirmed(text: str) -> None:
    assert RAISES in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    ("text", "affirmed"),
    [
        ("you get (not) an error", False),  # a denial alone in brackets is the statement's
        ("apply_gradients (not tape.gradient) updates the weights", False),  # the match's start
        ("tape.gradient (not apply_gradients) updates the weights", True),
    ],
)
def test_only_an_aside_the_match_does_not_start_in_is_set_apart(text: str, affirmed: bool) -> None:
    masked = mask(text)
    start = masked.index("tape.gradient") if "updates" in text else masked.index("get")
    end = masked.index("weights") + 7 if "updates" in text else masked.index("error") + 5
    assert is_affirmed(masked, start, end) is affirmed


def test_round48_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = [
        *(p for p in misconception_of(GA, AVERAGES).any if "loss(es|'s)?" in p),
        *(p for p in misconception_of(GVA, STORED).any if "to(?! (update" in p),
    ]
    assert len(patterns) == 2
    assert_linear_on(
        patterns,
        [
            "gradients are stored to update " * 1300,
            "grads already loss is mean batch " * 1200,
        ],
    )


@pytest.mark.parametrize("unit", ["(no path) ", "get (no x) error (not y) "])
def test_a_sentence_full_of_asides_is_read_in_linear_time(unit: str) -> None:
    """Asides are found once per sentence and each cue finds its own by bisection: a match's
    polarity over 40,000 characters of asides in linear time."""
    text = "you get " + (unit * (40_000 // len(unit) + 1))[:40_000] + " an error"
    assert_linear(lambda text: is_affirmed(masked := mask(text), 4, len(masked)), text)
