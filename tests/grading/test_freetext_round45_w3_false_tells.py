"""Round 45 of issue 14 (engineer W3): round 44's two false tells on answers labelled correct
(docs/freetext-rounds.md "Round 45: round 44's false tells (engineer W3)").

Round 44's final set drew two tells on answers its labellers read as right, each from one
phrasing whose words had another reading in the sentence:
- gradient-accumulation `apply-every-micro-batch`: "divide by 4 or your effective learning rate
  is 4x" - the verb's own divisor comes first (the sum is divided), and the learning rate is the
  consequence of not dividing, not what is divided;
- gradient-vs-apply `apply-ignores-optimizer-rule`: "Adam just picks a smarter learning rate per
  step" - a smarter learning rate is Adam's adaptive one in plain words, which the phrasings
  already kept out as "adaptive".

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from tests.grading.core_questions import assert_linear_on, misconception_of, tells_by_rules

GA, GVA = "gradient-accumulation", "gradient-vs-apply"
EVERY, RULE = "apply-every-micro-batch", "apply-ignores-optimizer-rule"


@pytest.mark.parametrize(
    "text",
    [
        "Sum the four micro-batch gradients, then divide by 4 or your effective learning rate"
        " is 4x, and apply them once.",
        "Apply the accumulated sum once; scale by 1/4 first or the learning rate you get is"
        " four times too big.",
        "Divide the accumulated sum by four or else the learning rate is effectively 4x.",
    ],
)
def test_the_divisor_before_the_learning_rate_divides_something_else(text: str) -> None:
    assert EVERY not in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "Skip the accumulation: just divide the learning rate by 4 and it comes out the same.",
        "You can simply reduce your lr by four instead of accumulating anything.",
        "Scale the effective learning rate down by n and update as usual.",
    ],
)
def test_the_learning_rate_divided_is_still_named(text: str) -> None:
    assert EVERY in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "apply_gradients runs the optimizer's update; Adam just picks a smarter learning rate"
        " for each step.",
        "Only apply_gradients changes the weights, and Adam really just chooses a cleverer"
        " learning rate per step.",
    ],
)
def test_a_smarter_learning_rate_is_the_adaptive_one(text: str) -> None:
    assert RULE not in tells_by_rules(GVA, text)


@pytest.mark.parametrize(
    "text",
    [
        "The optimizers only differ in the learning rate they pick.",
        "Adam just picks a bigger learning rate than SGD, nothing more.",
        "The choice of optimizer only changes how the learning rate is scheduled.",
    ],
)
def test_optimizers_that_differ_only_in_the_learning_rate_are_still_named(text: str) -> None:
    assert RULE in tells_by_rules(GVA, text)


def round45_phrasings() -> list[str]:
    every = [p for p in misconception_of(GA, EVERY).any if r"(?![^\w\n.]+by\b)" in p]
    rule = [p for p in misconception_of(GVA, RULE).any if "(smart|clever)" in p]
    return every + rule


PUMPED = [
    "divide divide by 4 lr " * 1500,
    "divide the sum by 4 or your effective learning rate is 4x " * 500,
    "divide " * 5000 + "the learning rate by 4",
    "optimizers only differ in the smarter smarter learning rate " * 500,
    "Adam just picks a smarter cleverer learning rate " * 600,
    "smarter " * 5000 + "learning rate",
]


def test_round45_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round45_phrasings()
    assert len(patterns) == 3  # one apply-every-micro-batch, two apply-ignores-optimizer-rule
    assert_linear_on(patterns, PUMPED)
