"""Round 30 of issue 14 (engineer R): correct answers under-credited. On the tune personas the
rules graded 145 answers labelled correct as partial and 18 as incorrect; most lacked one
`required` concept whose wording the phrasings missed (the forward pass run outside the tape
said with "the model" as subject or shown in code, the weights said to change "only at"
apply_gradients, the optimizer "applying" the gradients to the weights, `del` placed by "then",
the frozen BatchNorm state "not learned via grads", the outer tape that "logs" the backward pass,
everything before `.numpy()` "becomes frozen"). New phrasings in `concepts` blocks only, and
guards: the same words in a denial, in a wrong statement, or in a keyword list credit nothing.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 30:
correct answers under-credited (engineer R)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import concepts_by_rules

CREDITED = [
    ("why-none-gradients", "loss-outside-block", "Most of the time the network is called outside the tape."),
    ("why-none-gradients", "loss-outside-block", "The fwd pass was done outside the with block, so nothing was recorded."),
    ("why-none-gradients", "loss-outside-block", "You probably ran the model before opening the tape."),
    ("why-none-gradients", "loss-outside-block", "They compute the logits first and then open the tape just for the loss."),
    ("why-none-gradients", "loss-outside-block", "The predictions are computed above the block, in a helper."),
    ("why-none-gradients", "loss-outside-block", "Here the tape only recorded the loss computation, nothing of the network."),
    ("why-none-gradients", "loss-outside-block", "The tape never saw the model call, just the loss."),
    ("why-none-gradients", "loss-outside-block", "```python\nout = my_model(batch)\nwith tf.GradientTape() as tape:\n    loss = loss_fn(labels, out)\n```"),
    ("gradient-vs-apply", "apply-updates", "The variables change only at apply_gradients."),
    ("gradient-vs-apply", "apply-updates", "The optimizer applies the gradients to the variables."),
    ("gradient-vs-apply", "apply-updates", "The latter takes the gradients to adjust the parameters."),
    ("gradient-vs-apply", "apply-updates", "apply_gradients does an in-place assign on every var."),
    ("gradient-vs-apply", "apply-updates", "apply_gradients steps. That is the only call where the weights change."),
    ("gradient-vs-apply", "apply-updates", "apply_gradients takes the pairs; this is the method that modifies the variables."),
    ("trainable-vs-all-variables", "includes-non-trainable", "The trainable list leaves out the batch norm statistics."),
    ("trainable-vs-all-variables", "includes-non-trainable", "A BN layer's running mean and variance are variables as well."),
    ("trainable-vs-all-variables", "includes-non-trainable", "Non trainable vars like those would be in there too."),
    ("trainable-vs-all-variables", "optimizer-must-not-update", "The moving averages aren't learned via grads at all."),
    ("trainable-vs-all-variables", "optimizer-must-not-update", "They're things you don't want gradient descent on."),
    ("numpy-inside-tape", "chain-broken", "Anything computed before .numpy() basically becomes frozen."),
    ("numpy-inside-tape", "chain-broken", "The gradients for the layers upstream of h are lost."),
    ("numpy-inside-tape", "chain-broken", "The earlier layers won't receive any gradients."),
    ("numpy-inside-tape", "chain-broken", "The part of the model before that gets no gradients."),
    ("persistent-tape", "delete-tape", "Use persistent=True, take both gradients, then delete the tape."),
    ("persistent-tape", "delete-tape", "Then delete that tape."),
    ("higher-order-derivatives", "outer-records-inner", "The outer tape logs the ops that produce the first derivative."),
    ("higher-order-derivatives", "outer-records-inner", "The inner grad is logged by the outer tape."),
    ("higher-order-derivatives", "outer-records-inner", "That first derivative is itself a computation on the outer tape."),
    ("higher-order-derivatives", "outer-records-inner", "The ops which compute dy_dx are captured by t2."),
    ("no-zero-grad", "fresh-gradients", "TF treats each gradient as the result of a function call."),
]  # fmt: skip

NOT_CREDITED = [
    ("why-none-gradients", "loss-outside-block", "The model is not called outside the tape."),
    ("why-none-gradients", "loss-outside-block", "Make sure the model is called inside the tape."),
    ("why-none-gradients", "loss-outside-block", "```python\nwith tf.GradientTape() as tape:\n    out = my_model(batch)\n    loss = loss_fn(labels, out)\n```"),
    ("why-none-gradients", "loss-outside-block", "outside, tape, model, called, with, block, loss, None"),
    ("gradient-vs-apply", "apply-updates", "apply_gradients does not apply them to the weights."),
    ("gradient-vs-apply", "apply-updates", "tape.gradient is the one that changes the weights."),
    ("gradient-vs-apply", "apply-updates", "Backprop is the only place the weights change."),
    ("gradient-vs-apply", "apply-updates", "weights variables change update apply_gradients optimizer"),
    ("trainable-vs-all-variables", "optimizer-must-not-update", "You want gradient descent on the BN moving statistics."),
    ("numpy-inside-tape", "chain-broken", "Anything before the numpy call is not frozen, it trains fine."),
    ("persistent-tape", "delete-tape", "Delete the tape after the first gradient call and make a new one."),
    ("persistent-tape", "delete-tape", "Then delete the tape before the second call."),
    ("higher-order-derivatives", "outer-records-inner", "The outer tape's logits are the first derivative."),
    ("no-zero-grad", "fresh-gradients", "The gradients are stored on the variables, so zero them."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "concept", "text"), CREDITED)
def test_concept_credited_in_new_wording(question_id: str, concept: str, text: str) -> None:
    assert concept in concepts_by_rules(question_id, text)


@pytest.mark.parametrize(("question_id", "concept", "text"), NOT_CREDITED)
def test_concept_not_credited_when_denied_wrong_or_listed(
    question_id: str, concept: str, text: str
) -> None:
    assert concept not in concepts_by_rules(question_id, text)
