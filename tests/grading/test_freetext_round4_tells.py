"""Round 4 of issue 14: the misconceptions the round-3 final set's labellers named that no
rubric had (each checked false on TF 2.21 / Keras 3.15). Each fires on a wording written
for this test (not copied from the labelled sets) and stays silent on the same subject
stated correctly."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question
from tests.grading.held_statements import names_nothing, names_the_tell

NEW_TELLS = [
    ("persistent-tape", "tape-close-method", "Use persistent=True, take both gradients, then call tape.close() to give the memory back."),
    ("persistent-tape", "persistent-slow-or-leaky", "Persistent tapes always leak memory, so I'd rather run the forward pass again under a second tape."),
    ("higher-order-derivatives", "tape-close-method", "Make the tape persistent, take both gradients, then tape.close() it."),
    ("gradient-accumulation", "tape-close-method", "If you use a persistent tape, call tape.close() after each micro-batch to free it."),
    ("gradient-accumulation", "apply-clips-by-default", "No need to worry about the summed gradients being big, apply_gradients clips them by default."),
    ("higher-order-derivatives", "jacobian-gives-second-derivative", "Just call tape.jacobian(y, x) and you get the second derivative."),
    ("higher-order-derivatives", "watched-constant-no-second-order", "For the second derivative x has to be a tf.Variable, a watched constant can't do it."),
    ("why-none-gradients", "non-scalar-loss-gives-none", "A per-example loss vector makes tape.gradient give None."),
    ("gradient-vs-apply", "apply-clips-by-default", "apply_gradients also clips the gradients to a global norm by default."),
    ("gradient-vs-apply", "apply-builds-deferred-op", "apply_gradients returns a train_op, and the weights change when you sess.run it."),
    ("gradient-accumulation", "accumulation-matches-batchnorm", "It's equivalent to batch 256 in every way, BatchNorm also sees the same statistics as the big batch."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Summing the four micro-batch gradients gives exactly the gradient of the 256 batch."),
    ("trainable-vs-all-variables", "non-trainable-are-hyperparameters", "The non-trainable ones are things like the layer sizes and other hyperparameters."),
    ("why-none-gradients", "non-scalar-loss-gives-none", "Forget reduce_mean and tape.gradient can't differentiate a vector, so it hands back None."),
    ("why-none-gradients", "none-means-zero-signal", "The gradients are None because the loss is constant."),
    ("gradient-accumulation", "apply-every-micro-batch", "Apply after each micro-batch with lr/4, it's the same as one step on 256."),
    ("trainable-vs-all-variables", "variables-are-user-created", "model.variables only has the tf.Variables you created yourself, the Keras weights are in trainable_variables."),
]  # fmt: skip

CORRECT = [
    ("persistent-tape", "There is no tape.close(); delete the persistent tape with del tape when you are done."),
    ("persistent-tape", "The with block closes, but a persistent tape keeps its buffers until you del it."),
    ("persistent-tape", "A persistent tape holds memory until you delete it; recomputing the forward pass would cost more."),
    ("persistent-tape", "A persistent tape leaks memory if you forget to del it."),
    ("higher-order-derivatives", "Call outer.jacobian(dy_dx, x) and you get the full matrix of second derivatives."),
    ("higher-order-derivatives", "The outer tape's jacobian of dy_dx gives the second derivatives."),
    ("higher-order-derivatives", "A watched constant works too, as long as both tapes watch it."),
    ("why-none-gradients", "A per-example loss vector is fine, tape.gradient sums it; None means the loss is disconnected."),
    ("why-none-gradients", "tape.gradient can differentiate a vector loss: it sums it."),
    ("why-none-gradients", "The model ran before the tape, so for the tape the logits are like a constant and the weights get None."),
    ("gradient-accumulation", "Apply once after the four micro-batches; the weights don't move in between, so it's the same as one step on 256."),
    ("gradient-accumulation", "apply_gradients clips only if you set clipnorm on the optimizer."),
    ("higher-order-derivatives", "There is no tape.close(); nested tapes are released when the with blocks end."),
    ("gradient-vs-apply", "apply_gradients applies any clipping you configured on the optimizer, e.g. clipnorm."),
    ("gradient-vs-apply", "apply_gradients assigns the new values to the variables immediately."),
    ("gradient-accumulation", "The weight update is the same as batch 256, but BatchNorm still uses the 64-example statistics."),
    ("gradient-accumulation", "Summing the four gradients and dividing by 4 gives the gradient of the 256 batch."),
    ("trainable-vs-all-variables", "Non-trainable variables are like BatchNorm's moving mean and variance."),
    ("trainable-vs-all-variables", "model.variables holds all the layer variables, trainable_variables only those the optimizer updates."),
]  # fmt: skip


test_grade_freetext_names_a_round4_tell = names_the_tell(NEW_TELLS)
test_grade_freetext_round4_tells_spare_correct_statements = names_nothing(CORRECT)


CONTRASTS = [
    # A word ruled out by a bare "not" after a comma or bracket fills no role of a claim.
    ("why-none-gradients", "When there is no path the gradient is None (not zero).", []),
    ("why-none-gradients", "The gradient is None for a disconnected variable, not 0, so you can tell.", []),
    # The same words stated as the belief still name the tell.
    ("why-none-gradients", "A None gradient just means the gradient is zero.", ["none-means-zero-signal"]),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "answer", "tags"), CONTRASTS)
def test_grade_freetext_reads_a_contrasted_word_as_ruled_out(
    question_id: str, answer: str, tags: list[str]
) -> None:
    assert grade_freetext(question(question_id), answer).misconceptions == tags


def test_grade_freetext_joins_a_consequence_clause_to_its_cause() -> None:
    # "... and you get X": what you get is what the clause before gives.
    answer = "Call tape.jacobian(y, x) once and you get the second derivative."
    found = grade_freetext(question("higher-order-derivatives"), answer).misconceptions
    assert "jacobian-gives-second-derivative" in found
