"""Round 31 of issue 14 (engineer R2): the partial line by cause. Two rubrics placed their
partial line below where the labellers place it: training-flag gave partial credit to an answer
that names neither Dropout nor BatchNormalization and only says layers "behave differently" and
the pass "runs in inference mode" (its `consequence` now weighs 0.5 and the partial line is 0.4),
and gradient-vs-apply gave it to the optimizer's rule alone, one of its words ("Adam", "learning
rate") enough (partial line 0.062 -> 0.188). Statements written for this file, in words of their
own (docs/freetext-rounds.md "Round 31: the partial line by cause (engineer R2)"). Read by the
rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import graded_by_rules_alone


def rules_verdict(question_id: str, text: str) -> str:
    return graded_by_rules_alone(question_id, text).verdict


NOW_INCORRECT = [
    ("training-flag", "Some layers behave differently in training and inference. Without the flag the forward pass runs in inference mode, so you train a different model."),
    ("training-flag", "Without it the model just runs in inference mode."),
    ("gradient-vs-apply", "apply_gradients uses the optimizer's update rule, for example Adam's moments and the learning rate."),
    ("gradient-vs-apply", "Adam."),
]  # fmt: skip

STILL_PARTIAL = [
    ("training-flag", "Dropout behaves differently in training mode and only drops activations there."),
    ("training-flag", "BatchNorm acts differently during training: it uses the batch statistics."),
    ("training-flag", "Dropout only drops activations in training mode. Without the flag the forward pass runs in inference mode."),
    ("gradient-vs-apply", "tape.gradient computes the gradients of the loss and returns them."),
    ("gradient-vs-apply", "apply_gradients updates the weights with the optimizer's learning rate."),
]  # fmt: skip

STILL_CORRECT = [
    ("training-flag", "Dropout and BatchNorm behave differently in training and inference; training=True selects training behaviour (drop activations, use batch statistics and update the moving averages). Without it you'd train the model in inference mode."),
    ("gradient-vs-apply", "tape.gradient only computes the gradients and returns them; it changes no variable. apply_gradients then updates the weights in place with the optimizer's rule."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "text"), NOW_INCORRECT)
def test_the_switch_or_the_rule_alone_earns_no_partial(question_id: str, text: str) -> None:
    assert rules_verdict(question_id, text) == "incorrect"


@pytest.mark.parametrize(("question_id", "text"), STILL_PARTIAL)
def test_one_core_idea_stays_partial(question_id: str, text: str) -> None:
    assert rules_verdict(question_id, text) == "partial"


@pytest.mark.parametrize(("question_id", "text"), STILL_CORRECT)
def test_complete_answers_stay_correct(question_id: str, text: str) -> None:
    assert rules_verdict(question_id, text) == "correct"
