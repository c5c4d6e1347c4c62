"""Round 13 (issue 14, engineer T): a tell read inside a qualification or someone's error.

The statements in freetext_statements_r13.py were written before any round-13 change; the
tune half was read while fixing, the held half was run at the round's start and end only.
Their misses are strict xfails here: the held ones are the round's honest reading, the
wrong ones no phrasing reaches are rubric content. Rules alone, as the round measured them
(docs/freetext-rounds.md "Round 13: false tells (engineer T)").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r13 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# True statements that still name a tell at the round's end (held half: the honest reading;
# tune half: causes read and left, docs/freetext-rounds.md). Round 14 (engineer T) removed
# three: a clause with its own subject after ";", "; it doesn't", "neither X nor Y". Round 30
# (engineer C10) removed "The encoder gets None for all its weights, while the decoder, after the
# numpy call, trains normally." (numpy-kills-all-gradients spares an upstream part named) and
# "Calling outer.gradient on the first derivative works only when ..." (nesting-order-reversed does
# not read "first" of "the first derivative").
FALSE_TELLS = {
    "Possible causes, in order of likelihood: the loss computed outside the with block, a NumPy call in the middle, or variables created as constants. In this code it is the first one.",
    "tape.gradient only reads; the update of each weight is apply_gradients' job, which assigns the new value in place.",
    "Big models gain least, small ones most, because the fixed cost per op is a bigger share of a small op.",
}
# Wrong statements whose tell no phrasing reaches (rubric content, not this round).
UNNAMED = {
    "TF needs no zero_grad because tf.function graphs are rebuilt every step.",
    "The gradients are None because apply_gradients hasn't run yet in the first step.",
    "Every variable, including the layers after the numpy call, gets None.",
    "BatchNorm ignores the training flag.",
    "The layers after the numpy conversion lose their gradients while the earlier ones still train.",
    "Summing the four mean-loss gradients gives exactly the batch-256 gradient.",
}
TRUE = true_statements(held=False) + true_statements(held=True)
WRONG = wrong_statements(held=False) + wrong_statements(held=True)


def test_the_corpus_has_its_size() -> None:
    assert (len(TRUE), len(WRONG)) == (91, 50)
    assert {text for _, text in TRUE} >= FALSE_TELLS
    assert {text for _, text, _ in WRONG} >= UNNAMED


(
    test_a_true_statement_names_no_tell,
    test_a_left_false_tell_names_no_tell,
    test_a_misconception_is_named,
    test_an_unreached_misconception_is_named,
) = statement_battery(
    TRUE,
    WRONG,
    false_tells=FALSE_TELLS,
    unnamed=UNNAMED,
    left="a false tell left by round 13 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # a quantifier after a preposition is its object, not the tell's subject
        (
            "gradient-vs-apply",
            "For each (g, v) pair it runs the optimizer's update rule and assigns the result into the variable in place.",
            "gradient-updates-weights",
            False,
        ),
        (
            "gradient-vs-apply",
            "Each gradient call updates the variables.",
            "gradient-updates-weights",
            True,
        ),
        (
            "gradient-vs-apply",
            "For each step, tape.gradient updates the weights.",
            "gradient-updates-weights",
            True,
        ),
        # a pronoun after a preposition may still stand for the subject
        (
            "trainable-vs-all-variables",
            "Um, I think model.variables has the optimizer stuff in it too, like the momentum slots and the iteration counter.",
            "variables-include-optimizer-slots",
            True,
        ),
        # what other people get wrong
        (
            "higher-order-derivatives",
            "the thing ppl mess up is calling the inner gradient after the outer block already closed, then the outer tape never saw it and u get None.",
            "gradient-outside-outer-tape",
            False,
        ),
        (
            "higher-order-derivatives",
            "You can call the inner gradient after the outer block has closed, and outer.gradient still works.",
            "gradient-outside-outer-tape",
            True,
        ),
        # a match that runs into a bracketed qualification
        (
            "gradient-accumulation",
            "Because nothing is applied until the end, all four forward passes see the same weights, which is what makes it equivalent to one batch of 256 (apart from BN batch statistics).",
            "accumulation-matches-batchnorm",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "The tape doesn't auto-watch non-trainable variables, so asking for their gradient gives None, and apply_gradients then has to skip them (warning, or an error if every gradient is None).",
            "none-gradient-crashes-apply",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "apply_gradients raises an error when a gradient is None.",
            "none-gradient-crashes-apply",
            True,
        ),
        # an aside that lists examples is the statement's content
        (
            "trainable-vs-all-variables",
            "model.variables also holds the optimizer's vars (Adam m/v, momentum, iterations).",
            "variables-include-optimizer-slots",
            True,
        ),
    ],
)
def test_where_a_tell_is_read(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named


def test_someone_elses_error_still_credits_the_diagnosis() -> None:
    text = "The classic mistake is computing the loss outside the tape, so nothing connects it to the weights and every gradient is None."
    result = grade_freetext(
        question("why-none-gradients"), text, second_opinion=False, neighbours=False
    )
    assert list(result.misconceptions) == []
    assert "loss-outside-block" in result.details["concepts_found"]
