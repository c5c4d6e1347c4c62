"""Round 41 of issue 14 (engineer C28, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): the false tells on answers labelled correct, counted by
question, tag and persona over the tune personas, then read. apply-returns-new-weights read the
call's own return ("once apply_gradients returns, the model already holds the new weights") as
apply_gradients returning the new weights: "returns" now needs its object (no comma or stop right
after it, no "once" / "when" / "after" before the call), on gradient-vs-apply and no-zero-grad alike;
gradient-updates-weights read "tape.gradient ... changes nothing" (a denial written for this file).
Then the caps: grads-stored-on-variables is capped partial on gradient-vs-apply, as the labellers'
precedent (answers labelled with it alone there: partial 60, incorrect 37). Then a belief the rules
missed on no-zero-grad: tape.reset() said to be zero_grad's counterpart, also where the answer limits
it to a persistent tape. Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 41: gradient-vs-apply, gradient-accumulation, no-zero-grad and
tf-function-speedup false tells and misconceptions (engineer C28)"). Read by the rules alone: the
learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    graded_by_rules_alone,
    phrasings_under,
    question,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["gradient-vs-apply", "gradient-accumulation", "no-zero-grad", "tf-function-speedup"]

WRONG = [
    ("no-zero-grad", "tape-reset-is-zero-grad", "With a persistent tape you reuse across steps, tape.reset() is the TensorFlow equivalent of zero_grad."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "If the tape is persistent, call tape.reset() to clear the old gradients first, like zero_grad in PyTorch."),
]  # fmt: skip

# Still named, as before: the belief the narrowed phrasing was written for.
STILL_WRONG = [
    ("gradient-vs-apply", "apply-returns-new-weights", "apply_gradients returns the new weights and you then assign them to the model."),
    ("gradient-vs-apply", "apply-returns-new-weights", "optimizer.apply_gradients(zip(grads, vars)) gives you back the updated parameters; copy them into the layers."),
    ("gradient-vs-apply", "apply-returns-new-weights", "When you call apply_gradients it returns the updated weights for you to store."),
    ("no-zero-grad", "apply-returns-new-weights", "Nothing to zero: apply_gradients returns the new weights, and you write them back into the model yourself."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient computes the gradients and updates the weights with them."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "tape.gradient returns one gradient tensor per variable and changes nothing about the model; apply_gradients is what updates the weights."),
    ("gradient-vs-apply", "tape.gradient returns one gradient tensor per variable and changes nothing. apply_gradients assigns the update into each variable in place, so once apply_gradients returns, the model already holds the new weights."),
    ("gradient-vs-apply", "tape.gradient only computes gradients. After optimizer.apply_gradients returns the model holds the updated weights, because it assigns them to the variables in place."),
    ("gradient-vs-apply", "tape.gradient gives you new gradient tensors; apply_gradients is the call with side effects. By the time apply_gradients returns, the variables carry the new values."),
    ("no-zero-grad", "Nothing accumulates: tape.gradient returns fresh gradients each step, and once apply_gradients returns, the variables already hold the new values."),
]  # fmt: skip


test_grade_freetext_names_a_round41_c28_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round41_c28_narrowed_tells_still_name = names_the_tell(
    STILL_WRONG, tells=tells_by_rules
)
test_grade_freetext_round41_c28_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def test_grads_stored_on_variables_is_capped_partial_on_gradient_vs_apply() -> None:
    rubric = question("gradient-vs-apply").rubric
    tell = next(m for m in rubric.misconceptions if m.tag == "grads-stored-on-variables")
    assert tell.cap == "partial"
    answer = (
        "tape.gradient(loss, model.trainable_variables) walks the recorded operations backwards with "
        "the chain rule and computes the gradient of the loss for each variable, and it stores them on "
        "the variables. It does not change the weights. optimizer.apply_gradients(zip(grads, vars)) "
        "then applies the optimizer's update rule, for example w -= lr * g for SGD or Adam's moments, "
        "and assigns the new values to the variables in place, so that is the call that updates the "
        "weights."
    )
    result = graded_by_rules_alone("gradient-vs-apply", answer)
    assert "grads-stored-on-variables" in result.misconceptions
    assert result.verdict == "partial"


PUMPED = [
    "word " * 2_000,
    "once apply_gradients returns " * 350,
    "apply_gradients returns the new " * 300,
    "tape.reset zero_grad persistent " * 300,
    "tape.gradient changes nothing " * 300,
    "a" * 10_000,
]


def test_round41_c28_phrasings_are_read_back() -> None:
    assert len(phrasings_under("# Round 41 (engineer C28)", QUESTIONS, first_only=True)) == 4


def test_round41_c28_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(
        phrasings_under("# Round 41 (engineer C28)", QUESTIONS, first_only=True), PUMPED
    )
