"""Round 18 of issue 14: the two weakest questions, gradient-vs-apply and no-zero-grad.

gradient-vs-apply's largest causes on the tune side were two beliefs the phrasings missed in
common wordings: `gradient-updates-weights` ("both touch the weights", "backprop is the step
that adjusts the weights", "the weights get nudged during backprop") and
`grads-stored-on-variables` (the gradients attached / stashed / staged / saved onto each
variable, stored "so the optimizer can pick them up"), and a correct line that called an
answer correct while it said nothing of what tape.gradient does. Wrong statements in
candidates' voices, true statements that share their words (denials, "both are needed",
what the gradient says about the weights), and the verdicts the line and the caps give
(docs/freetext-rounds.md "Round 18: the two weakest questions (engineer Q)"). The `_HELD`
lists were written after the phrasings and run once, unchanged, at the end.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

GVA = "gradient-vs-apply"
NZG = "no-zero-grad"

WRONG = [
    # gradient-updates-weights: "both" as the subject of changing the weights
    (GVA, "gradient-updates-weights", "So technically both touch the weights, but the main change happens in tape.gradient."),
    (GVA, "gradient-updates-weights", "Both of them change the weights."),
    (GVA, "gradient-updates-weights", "Both sort of do."),
    (GVA, "gradient-updates-weights", "So I suppose both of them are involved in changing the weights."),
    # backprop / the backward pass as the agent that moves the weights
    (GVA, "gradient-updates-weights", "tape.gradient performs backpropagation, which is the step that adjusts the weights to reduce the loss."),
    (GVA, "gradient-updates-weights", "So the weights are changed during backprop, and the optimizer refines that change."),
    (GVA, "gradient-updates-weights", "The weights change in gradient(); the optimizer only decides how big the step is."),
    (GVA, "gradient-updates-weights", "Most of the updating happens in the tape."),
    (GVA, "gradient-updates-weights", "tape.gradient actually performs the descent step: it computes the gradient and subtracts it from the weights."),
    (GVA, "gradient-updates-weights", "tape.gradient computes gradient and substract it from the weights, apply_gradients then apply the learning rate on top."),
    (GVA, "gradient-updates-weights", "tape.gradient computes the gradient and does a plain gradient descent update with a default learning rate."),
    # grads-stored-on-variables: storing verbs with the variables as the place
    (GVA, "grads-stored-on-variables", "tape.gradient is the backward: it computes the gradients and attaches them to the variables, kind of like filling .grad."),
    (GVA, "grads-stored-on-variables", "tape.gradient does the backprop through whatever was recorded and attaches the result to each variable, like the .grad field in torch."),
    (GVA, "grads-stored-on-variables", "tape.gradient computes the gradients and stages them on the variables, a bit like PyTorch populating .grad."),
    (GVA, "grads-stored-on-variables", "tape.gradient does the backprop and stores the gradients so the optimizer can pick them up."),
    (GVA, "grads-stored-on-variables", "i think tape.gradient computes the grads and saves them onto each variable"),
    (GVA, "grads-stored-on-variables", "the gradient call does leave state behind on the variables, which is why you shouldn't call it twice in one step."),
]  # fmt: skip

CORRECT = [
    # "both" with a true predicate, or "but only apply_gradients" after it (round 6's
    # `(both|each) ~ change ~ weights` named the first)
    (GVA, "Both calls are needed, but only apply_gradients changes the weights."),
    (GVA, "Both take the same list of variables."),
    (GVA, "Both are part of one training step; the weights change in apply_gradients."),
    (GVA, "Each of them has one job: the first computes, the second updates the weights."),
    # what backprop says about the weights, and denials
    (GVA, "Backprop computes how each weight should change; the optimizer applies the change."),
    (GVA, "The backward pass tells you in which direction the weights should move, apply_gradients moves them."),
    (GVA, "Backpropagation does not update the weights, it only computes the gradients."),
    (GVA, "People think backprop updates the weights, but it only computes gradients."),
    (GVA, "The weights do not change during backprop."),
    (GVA, "After tape.gradient the weights are still the same; they change in apply_gradients."),
    (GVA, "tape.gradient computes the gradients and apply_gradients subtracts them from the weights."),
    (GVA, "tape.gradient returns the gradients; the optimizer applies them to the weights."),
    # the gradients stored nowhere, and what the optimizer does keep next to each variable
    (GVA, "Unlike PyTorch, there is no .grad on the variables: tape.gradient returns the gradients as new tensors."),
    (GVA, "In PyTorch, backward() fills each parameter's .grad; in TensorFlow tape.gradient returns them instead."),
    (GVA, "tape.gradient returns the gradients; nothing is stored on the variables, there is no .grad like in PyTorch."),
    (GVA, "tape.gradient returns one gradient per variable, in the same order as the variables."),
    (GVA, "apply_gradients stores its Adam moments in slot variables next to each weight."),
    (GVA, "The optimizer keeps momentum for each variable."),
    # a denial before ";" and a clause with "it" after it (a held statement named the tell
    # here at its first run: the claim's roles ran into the second clause)
    (GVA, "tape.gradient doesn't store anything on the variables; it returns the gradients."),
    (GVA, "tape.gradient does not attach the gradients to the variables; it returns them."),
    (GVA, "Backprop doesn't change the weights; it returns the gradients."),
]  # fmt: skip

# Held: written after the phrasings, run once at the end, not changed after.
WRONG_HELD = [
    (GVA, "gradient-updates-weights", "Honestly both calls modify the weights, the tape just does most of it."),
    (GVA, "gradient-updates-weights", "The weights get updated during the backward pass, apply_gradients only adds momentum."),
    (GVA, "grads-stored-on-variables", "The backward pass writes the gradients into the variables and the optimizer reads them from there."),
    (GVA, "grads-stored-on-variables", "tape.gradient saves the gradients onto the weights so that apply_gradients knows where to find them."),
]  # fmt: skip
CORRECT_HELD = [
    (GVA, "Both calls take the variables, but they do different jobs: tape.gradient reads, apply_gradients writes."),
    (GVA, "The weights are only updated once apply_gradients runs, never during the backward pass."),
    (GVA, "tape.gradient stores nothing on the variables; it hands the gradients back to you."),
    (GVA, "Backpropagation tells you how much each weight should move."),
]  # fmt: skip

# The gradients attached to each variable "the same idea as .grad in PyTorch": the sentence
# names PyTorch outside a "like", so the reader attributes the statement to PyTorch and names
# no tell (a comparison, not a statement about PyTorch: engineer R's area).
KNOWN_UNNAMED = [
    (GVA, "grads-stored-on-variables", "It computes the partial derivatives and attaches them to each variable, the same idea as `.grad` in PyTorch, and it also returns them so you can log or clip them."),
]  # fmt: skip

# Named since round 40 (engineer C26's gradient-vs-apply phrasing: the gradient call said to store
# the result on the variables), although PyTorch is named beside it.
NAMED_SINCE_ROUND40 = [
    (GVA, "grads-stored-on-variables", "tape.gradient() computes dL/dw for every variable you pass and stores the result on the variable (same idea as .grad in PyTorch), then returns them as a list."),
]  # fmt: skip


# A true statement named before this round too: round 6's `tape\.gradient ~ applies ~ variables`
# ran over ", then apply_gradients" (only "and then" opens a new statement, round 17). Since round
# 21 (engineer C) that gap stops at the optimizer's call, so it names nothing.
READ_SINCE_ROUND21 = [
    (GVA, "tape.gradient computes the gradients, then apply_gradients applies them to the variables."),
]  # fmt: skip


test_tells_by_rules_names_a_round18_tell = names_the_tell(WRONG + WRONG_HELD, tells=tells_by_rules)
test_tells_by_rules_round18_true_statements_name_nothing = names_nothing(
    CORRECT + CORRECT_HELD, tells=tells_by_rules
)
test_tells_by_rules_round18_known_unnamed = names_the_tell(
    KNOWN_UNNAMED,
    tells=tells_by_rules,
    xfail="said beside PyTorch: read as a statement about PyTorch",
)
test_tells_by_rules_round18_named_since_round40 = names_the_tell(
    NAMED_SINCE_ROUND40, tells=tells_by_rules
)
test_tells_by_rules_round18_gap_over_then_names_nothing = names_nothing(
    READ_SINCE_ROUND21, tells=tells_by_rules
)


def _rules(question_id: str, answer: str) -> str:
    result = grade_freetext(
        question(question_id), answer, second_opinion=False, neighbours=False, tell_caps=False
    )
    return result.verdict


@pytest.mark.parametrize(
    "answer",
    [
        "apply_gradients updates the weights; you zip the gradients with the variables first.",
        "apply_gradients changes the weights using the learning rate.",
    ],
)
def test_grade_freetext_apply_alone_with_a_side_point_is_partial(answer: str) -> None:
    assert _rules(GVA, answer) == "partial"


@pytest.mark.parametrize(
    "answer",
    [
        "tape.gradient computes the gradients and returns them; apply_gradients updates the weights.",
        "tape.gradient only computes the gradients, it changes nothing. apply_gradients takes the (grad, var) pairs and updates the weights with the learning rate.",
    ],
)
def test_grade_freetext_both_calls_described_is_correct(answer: str) -> None:
    assert _rules(GVA, answer) == "correct"


def test_grade_freetext_tape_holds_gradients_alone_caps_at_partial() -> None:
    answer = (
        "You don't call it: TensorFlow has no zero_grad. tape.gradient returns the gradients, "
        "and the tape holds the computed gradients until it is destroyed at the end of the step."
    )
    result = grade_freetext(
        question(NZG), answer, second_opinion=False, neighbours=False, tell_caps=False
    )
    assert result.misconceptions == ["tape-holds-gradients"]
    assert result.verdict == "partial"


def test_grade_freetext_gradient_applies_learning_rate_caps_at_incorrect() -> None:
    answer = (
        "tape.gradient returns the gradients already multiplied by the learning rate, and "
        "apply_gradients updates the weights with them."
    )
    result = grade_freetext(
        question(GVA), answer, second_opinion=False, neighbours=False, tell_caps=False
    )
    assert "gradient-applies-learning-rate" in result.misconceptions
    assert result.verdict == "incorrect"


@pytest.mark.parametrize(
    ("answer", "concept"),
    [
        ("tape.gradient goes backwards through everything the tape recorded.", "gradient-computes"),
        ("tape.gradient(loss, vars) computes ∂loss/∂vars.", "gradient-computes"),
        ("tape.gradient hands you d(loss)/d(w) for each variable.", "gradient-computes"),
        ("tape.gradient is the part that works out the derivatives.", "gradient-computes"),
        ("The gradient call is just a calculation.", "gradient-no-update"),
        ("tape.gradient is only a measurement.", "gradient-no-update"),
        ("It doesn't touch the model at all.", "gradient-no-update"),
        ("The model doesn't change at all at that point.", "gradient-no-update"),
    ],
)
def test_grade_freetext_credits_round18_wordings(answer: str, concept: str) -> None:
    result = grade_freetext(question(GVA), answer, second_opinion=False, neighbours=False)
    assert concept in result.details["concepts_found"]


@pytest.mark.parametrize(
    ("answer", "concept"),
    [
        (
            "tape.gradient does not go backwards through anything; it replays the forward pass.",
            "gradient-computes",
        ),
        (
            "The gradient call is not just a calculation: it also updates the weights.",
            "gradient-no-update",
        ),
        ("tape.gradient changes the model's weights.", "gradient-no-update"),
        ("The model changes at that point, because the weights are updated.", "gradient-no-update"),
    ],
)
def test_grade_freetext_round18_wordings_denied_credit_nothing(answer: str, concept: str) -> None:
    result = grade_freetext(question(GVA), answer, second_opinion=False, neighbours=False)
    assert concept not in result.details["concepts_found"]


@pytest.mark.parametrize(
    ("tag", "answer"),
    [
        (
            "tape-reset-is-zero-grad",
            "When the tape is persistent, call `tape.reset()` at the start of each step, which is the TensorFlow analogue of `zero_grad()`.",
        ),
        (
            "tape-reset-is-zero-grad",
            "Call tape.reset() at the top of the loop, which is basically TensorFlow's version of zero_grad.",
        ),
        (
            "tape-reset-is-zero-grad",
            "```python\ntape = tf.GradientTape()\nfor x, y in dataset:\n    tape.reset()  # equivalent of optimizer.zero_grad()\n    with tape:\n        loss = f(x)\n```",
        ),
    ],
)
def test_tells_by_rules_names_tape_reset_as_zero_grad(tag: str, answer: str) -> None:
    assert tag in tells_by_rules(NZG, answer)


@pytest.mark.parametrize(
    "answer",
    [
        "There is no zero_grad. tape.reset() exists, but it only clears the recording, it is not the equivalent of zero_grad.",
        "tape.reset() is nothing like zero_grad: it throws away the recording, and there are no gradients to clear.",
        "Don't reach for tape.reset() to get the same effect as zero_grad; there's nothing to clear.",
    ],
)
def test_tells_by_rules_tape_reset_denied_names_nothing(answer: str) -> None:
    assert tells_by_rules(NZG, answer) == []
