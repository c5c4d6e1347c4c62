"""Round 37 of issue 14 (engineer C21, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). The outer tape said to watch, record or track the inner tape itself
(outer-records-inner-tape-object), not what it does or computes. Two labeller tags new in round
36's set now map onto the rubric tag of the same belief (gradient-gives-full-hessian,
numpy-precision-loss-only); the other three new tags stay unmapped. Phrasings written for four
stated tags (tape-discarded-on-block-exit, batchnorm-ignores-training-flag, bn-stats-get-gradients,
non-persistent-gives-none) were dropped: together they gained on read personas only (ENGINEER.md:
not a gain). Statements of three of them stay as strict xfails, so a later round that reads the
claim shows here (older phrasings already name the fourth's statements written here). True
statements sharing their words name nothing. Statements written for this file, in words of their
own (docs/freetext-rounds.md "Round 37: ... (engineer C21)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.evaluation import core_labelled
from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

MAPPED = [
    ("higher-order-derivatives", "gradient-gives-full-hessian", "outer-gradient-gives-hessian-diagonal"),
    ("numpy-inside-tape", "numpy-precision-loss-only", "numpy-dtype-breaks-gradient"),
]  # fmt: skip

UNMAPPED = [
    ("higher-order-derivatives", "gradient-requires-stop-recording"),
    ("why-none-gradients", "gradient-requires-stop-recording"),
    ("trainable-vs-all-variables", "stop-gradient-marks-non-trainable"),
    ("why-none-gradients", "assign-in-tape-gives-none"),
]  # fmt: skip

WRONG = [
    ("higher-order-derivatives", "outer-records-inner-tape-object", "Why it works: t2 is watching t1, so it can run backprop through it a second time."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "Nesting works because the outer GradientTape records the inner one, which it then differentiates."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "Because tape2 records tape1, the order of the calls does not matter."),
]  # fmt: skip

DROPPED = [
    ("persistent-tape", "tape-discarded-on-block-exit", "No cleanup needed: the context manager gets rid of the tape for you."),
    ("why-none-gradients", "non-persistent-gives-none", "Reuse the tape and every call after the first one returns None."),
]  # fmt: skip

CORRECT = [
    ("higher-order-derivatives", "The outer tape records the inner tape's gradient computation, so dy/dx is differentiable."),
    ("higher-order-derivatives", "The outer tape records the inner tape computing dy/dx, because that call runs inside its block."),
    ("higher-order-derivatives", "t2 records what t1 does while its own block is open."),
    ("higher-order-derivatives", "The outer tape watches the inner tape.gradient call like any other op."),
    ("persistent-tape", "Leaving the with block only stops the recording; a persistent tape stays until you del it."),
    ("training-flag", "training=True turns on dropout and makes BatchNorm use the batch statistics; other layers behave the same."),
    ("trainable-vs-all-variables", "Passing model.variables would let the optimizer update the frozen weights with gradient steps."),
    ("why-none-gradients", "A second call on a default tape raises a RuntimeError rather than returning None."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "tag", "rubric_tag"), MAPPED)
def test_round37_labeller_tag_maps_to_the_rubric_tag_of_its_belief(
    question_id: str, tag: str, rubric_tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (rubric_tag,)


@pytest.mark.parametrize(("question_id", "tag"), UNMAPPED)
def test_round37_labeller_tag_without_a_rubric_belief_stays_unmapped(
    question_id: str, tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (tag,)


test_grade_freetext_names_a_round37_c21_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round37_c21_dropped_claims_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: a gain on read personas only (round 37, engineer C21)",
)
test_grade_freetext_round37_c21_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
