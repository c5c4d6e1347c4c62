"""Round 32 of issue 14 (engineer M4): matcher causes left by round 31 (docs/freetext-rounds.md
"Round 32: the matcher causes left by round 31 (engineer M4)").

1. A space where a negation's apostrophe was ("can t", "don t", "isn t") is the contraction;
   a variable `t` after "can" ("can t.numpy()", "can t = ...") stays a word.
2. A sentence that names no framework or TensorFlow API before a contrast fronting
   TensorFlow's own clause ("You must zero the gradients every step, whereas in TensorFlow
   ...") opens on the other framework's habit, not on a claim about TensorFlow.
3. A denial in an if-clause that no comma closes ("if you don't reset them the old gradients
   get added") denies the condition, not the consequence that opens after the condition's
   object; the denied action in it is affirmed as needed, as with a comma.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.matching import framework_mentions
from app.grading.freetext.normalise import clean
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("you can t do that", "you can't do that"),
        ("TF don t. It isn t, so it WON T", "TF don't. It isn't, so it WON'T"),
        ("it doesn t and they aren t", "it doesn't and they aren't"),
        # guards: a variable `t`, words that start with "t", more than one space
        ("we can t.numpy() it", "we can t.numpy() it"),
        ("then you can t = x * 2", "then you can t = x * 2"),
        ("can tape record it? don tell", "can tape record it? don tell"),
        ("can   t", "can   t"),
    ],
)
def test_a_space_for_the_apostrophe(written: str, read: str) -> None:
    assert clean(written)[0] == read


CORRECT = [
    # 1. a space for the apostrophe
    ("no-zero-grad", "TF doesn t accumulate anything across steps; each call to tape.gradient returns fresh tensors."),
    ("gradient-vs-apply", "tape.gradient doesn t touch the variables, apply_gradients is what changes them."),
    # 2. the other framework's habit before a contrast with TensorFlow
    ("no-zero-grad", "You must zero the gradients every step, whereas in TensorFlow each call returns fresh gradients."),
    ("no-zero-grad", "Gradients keep piling up until you clear them by hand, but with TF every gradient call hands back new tensors."),
]  # fmt: skip

WRONG = [
    # 2. guards: TensorFlow's own API before the contrast keeps the claim TensorFlow's
    ("no-zero-grad", "tape-accumulates", "The tape accumulates gradients across steps, whereas in TF 1 you had sessions."),
    # 3. a claim in the consequence of a comma-less condition with a denial
    ("no-zero-grad", "tape-accumulates", "If you don't call zero_grad() the tape accumulates gradients across steps."),
    ("no-zero-grad", "tape-accumulates", "If you don't reset them then the tape accumulates gradients across steps."),
    ("gradient-vs-apply", "gradient-updates-weights", "If you don't call apply_gradients the tape.gradient call updates the weights anyway."),
]  # fmt: skip

test_grade_freetext_round32_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round32_tell = names_the_tell(WRONG, tells=tells_by_rules)


@pytest.mark.parametrize(
    "sentence",
    [
        "You compute and apply the gradients yourself, whereas with Keras fit does it for you.",
        "Gradients are traced once, but in tf.function the Python code runs only then.",
    ],
)
def test_a_contrast_with_keras_or_tf_function_sets_no_other_framework(sentence: str) -> None:
    assert not any(foreign for _, foreign in framework_mentions(sentence))


def test_a_denial_in_the_consequence_still_denies() -> None:
    text = "If you call it the tape doesn't accumulate gradients across steps."
    assert "tape-accumulates" not in tells_by_rules("no-zero-grad", text)


@pytest.mark.parametrize(
    "text",
    [
        "Sum the gradients into accumulators over four micro-batches and apply once; if you don't reset them the old gradients get added onto the new ones.",
        "Add each micro-batch's gradients into accumulators and apply them every fourth step; if you don't zero them then the sums keep growing.",
    ],
)
def test_a_denied_action_in_a_comma_less_condition_is_needed(text: str) -> None:
    assert "reset" in concepts_by_rules("gradient-accumulation", text)


HOSTILE = {
    "spaced apostrophes": ("you can t and it isn t " * 440)[:10_000],
    "contrasts fronting TensorFlow": ("you must zero them, whereas in TensorFlow " * 240)[:10_000],
    "comma-less conditions": ("if you don't reset them the sums grow then " * 240)[:10_000],
    "dotted tokens in a condition": ("if you don't call " + "a." * 4_990 + "b the")[:10_000],
    "calls in a condition": ("if you don't call " + "f() " * 2_490 + "the")[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for question_id in ("no-zero-grad", "gradient-accumulation"):
        assert_grades_in_linear_time(question_id, HOSTILE[name])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_clean_and_mask_in_linear_time(name: str) -> None:
    assert_linear(lambda text: (clean(text), mask(text)), HOSTILE[name], what=name)
