"""Round 24 of issue 14 (engineer C4, rubric content): round 23's final set, now tuned on,
read one answer at a time. Gradients said to be written into the variables, cleared off them
or added to the variable's own gradient (grads-stored-on-variables on the questions that
lacked those words), "the biggest wins" on big models (big-models-gain-most), and three true
statements the rules read as tells: NumPy operations said not to be recorded, the biggest gain
said to be on small models, and `.grad` inside an update rule. Sarcasm is read as a claim:
an ironic "Sure, because <the belief>" after a correct answer names the belief (strict
xfails, not fixed this round). Statements written for this
file, in words of their own (docs/freetext-rounds.md "Round 24: rubric content (engineer
C4)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # grads-stored-on-variables: written into the variables, cleared off them, the variable's own gradient adding up
    ("persistent-tape", "grads-stored-on-variables", "The first gradient call has already written the gradients into the variables, so a second one is refused."),
    ("gradient-accumulation", "grads-stored-on-variables", "Each tape.gradient call adds onto the variable's existing gradient, so four calls then one apply is enough."),
    ("gradient-accumulation", "grads-stored-on-variables", "Between applies the variable's gradient keeps accumulating on its own."),
    ("no-zero-grad", "grads-stored-on-variables", "apply_gradients uses the gradients and then wipes them off the weights, so nothing is left for the next step."),
    # big-models-gain-most: "wins"
    ("tf-function-speedup", "big-models-gain-most", "Tracing removes Python dispatch, and the largest wins come with big models that have many layers."),
]  # fmt: skip

CORRECT = [
    # guards: the same words in true statements
    ("numpy-inside-tape", "The tape only differentiates what it recorded, and NumPy operations are not recorded, so the chain breaks at h."),
    ("tf-function-speedup", "A graph skips the per-op Python dispatch. Biggest gain is for small models made of many cheap ops; big models spend their time in kernels anyway."),
    ("gradient-vs-apply", "tape.gradient returns new tensors and changes nothing; apply_gradients changes the weights, like w.data -= lr * w.grad in a hand-written loop, with the optimizer's own rule."),
    ("gradient-accumulation", "Make zero tf.Variables shaped like each weight, write each micro-batch's gradients into those accumulators with assign_add, apply the sum every fourth step and reset them."),
    ("persistent-tape", "Create it with persistent=True and call gradient twice; neither call writes anything into the variables, each returns fresh tensors. Then del the tape."),
]  # fmt: skip


test_grade_freetext_names_a_round24_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round24_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)

IRONIC = "an ironic assertion ('Sure, because <belief>') is read as a claim (polarity, not fixed)"
SARCASM = [
    ("numpy-inside-tape", "The earlier layers stop learning because the tape never sees the NumPy call. Right, because the tape obviously records NumPy too."),
    ("no-zero-grad", "Nothing to call: tape.gradient returns fresh tensors each step. Yeah, because TensorFlow totally keeps the gradients on the variables like PyTorch."),
    ("tf-function-speedup", "It removes per-op Python overhead, so small models gain most. Sure, because big models famously gain the most from skipping a few Python calls."),
]  # fmt: skip


@pytest.mark.xfail(strict=True, reason=IRONIC)
@pytest.mark.parametrize(("question_id", "text"), SARCASM)
def test_ironic_assertion_after_a_correct_answer_names_nothing(question_id: str, text: str) -> None:
    assert tells_by_rules(question_id, text) == []
