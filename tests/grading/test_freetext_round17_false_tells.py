"""Round 17 (issue 14, engineer T): a named step after "and then", an action said to have no
effect, an imperative's object that runs over "and" into a bare verb, and a claim of sameness
limited to models that lack a component.

The statements in freetext_statements_r17.py were written before any round-17 change; the
tune half was read while fixing, the held half was run at the round's start and end only
(the held half is this round's honest reading). Misses are strict xfails. Rules alone, as
the round measured them (docs/freetext-rounds.md "Round 17: false tells (engineer T)").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r17 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# True statements that still name a tell at the round's end (the held half's, run at the
# start and the end only, left unread).
FALSE_TELLS: set[str] = {
    "The model.variables contains also the non-trainable variables, like the moving averages of BatchNorm, which receive None as gradient.",
}
# Wrong statements whose tell no phrasing reaches (rubric content, not this round): the tune
# half's one, then the held half's three.
UNNAMED: set[str] = {
    "The loss can be computed anywhere, the tape remembers the model's forward pass, so the None must come from something else.",
    "The gradients stay attached to each variable after the call, so the next step adds onto them.",
    "The gradients are None because the optimizer has not applied any step yet.",
    "The error comes from the weights having changed between the two calls.",
}
TRUE = true_statements(held=False) + true_statements(held=True)
WRONG = wrong_statements(held=False) + wrong_statements(held=True)


def test_the_corpus_has_its_size() -> None:
    assert (len(TRUE), len(WRONG)) == (90, 40)
    assert (len(true_statements(held=True)), len(wrong_statements(held=True))) == (40, 20)
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
    left="a false tell left by round 17 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # (S) "and then" + a named step with a verb of its own starts a new statement
        (
            "gradient-vs-apply",
            "tape.gradient returns the gradients, and then apply_gradients updates the weights.",
            "gradient-updates-weights",
            False,
        ),
        (
            "gradient-vs-apply",
            "tape.gradient returns the gradients and then the optimizer updates the weights.",
            "gradient-updates-weights",
            False,
        ),
        # a verb after "and then" with no subject goes on with tape.gradient
        (
            "gradient-vs-apply",
            "tape.gradient computes the gradients and then updates the weights.",
            "gradient-updates-weights",
            True,
        ),
        # the tell stated before "and then" is still stated
        (
            "gradient-vs-apply",
            "tape.gradient updates the weights, and then apply_gradients adds momentum.",
            "gradient-updates-weights",
            True,
        ),
        # a named step with no verb after "and then" is the object of the verb before it
        (
            "higher-order-derivatives",
            "Use one tape with persistent=True, call g = tape.gradient(y, x) and then tape.gradient(g, x) for the second derivative.",
            "gradient-twice-same-tape",
            True,
        ),
        # ", then" (a consequence, not "and then") keeps one statement
        (
            "gradient-accumulation",
            "Put batch_size=64 in model.fit and steps_per_execution=4, then keras will accumulate the gradient of 4 steps and update one time.",
            "steps-per-execution-accumulates",
            True,
        ),
        # (E) an action said to have no effect is denied
        (
            "why-none-gradients",
            "Watching the loss after the fact records nothing, the forward pass is already gone.",
            "watch-loss-fixes-none",
            False,
        ),
        (
            "why-none-gradients",
            "Calling tape.watch(loss) does nothing here.",
            "watch-loss-fixes-none",
            False,
        ),
        (
            "why-none-gradients",
            "tape.watch(loss) is useless once the loss is computed.",
            "watch-loss-fixes-none",
            False,
        ),
        (
            "why-none-gradients",
            "Watching the loss fixes the None gradients.",
            "watch-loss-fixes-none",
            True,
        ),
        (
            "why-none-gradients",
            "Calling tape.watch(loss) does nothing wrong and fixes the None gradients.",
            "watch-loss-fixes-none",
            True,
        ),
        # "makes no difference" is the harmlessness tell itself, not a verdict on it
        (
            "trainable-vs-all-variables",
            "Passing model.variables makes no difference.",
            "variables-are-the-same",
            True,
        ),
        # (I) an imperative's object that runs over "and" into a bare verb is no subject
        (
            "gradient-accumulation",
            "Use a new tape per micro-batch and accumulate the gradients in variables.",
            "tape-accumulates",
            False,
        ),
        (
            "gradient-accumulation",
            "Use one tape; the tape accumulates the gradients across the micro-batches.",
            "tape-accumulates",
            True,
        ),
        (
            "gradient-accumulation",
            "The tape adds up the gradients from the four micro-batches automatically.",
            "tape-accumulates",
            True,
        ),
        # (L) sameness limited to models that lack a component
        (
            "trainable-vs-all-variables",
            "If the model has no BatchNorm and no frozen layers, both lists are the same.",
            "variables-are-the-same",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "For a model without BatchNorm the two lists are the same.",
            "variables-are-the-same",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "If the model has BatchNorm, both lists are the same.",
            "variables-are-the-same",
            True,
        ),
        (
            "trainable-vs-all-variables",
            "The two lists are the same even if the model has no BatchNorm.",
            "variables-are-the-same",
            True,
        ),
        # a mechanism is no claim of sameness: the scope does not limit it
        (
            "training-flag",
            "For models without Dropout, training=True is what makes the tape record gradients.",
            "training-flag-enables-gradients",
            True,
        ),
        # (M) after ";" a determiner phrase with a modal is a subject of its own
        # (dotnet-enterprise-dev, round 16's final set)
        (
            "why-none-gradients",
            "The fix is to move both the model call and the loss computation inside the block; the gradient call itself can sit after the block.",
            "loss-outside-is-fine",
            False,
        ),
        (
            "why-none-gradients",
            "You compute the model inside; the loss can be computed after the block.",
            "loss-outside-is-fine",
            True,
        ),
        (
            "why-none-gradients",
            "The loss can be computed after the block; the tape still has the forward pass.",
            "loss-outside-is-fine",
            True,
        ),
        # (U) rubric: unfreezing is the flag's doing, not any "unfreeze"
        # (computer-vision-engineer, round 16's final set)
        (
            "training-flag",
            "People still usually call the base model with training=False explicitly, so it stays in inference mode after they unfreeze it later.",
            "training-flag-is-optimizer-mode",
            False,
        ),
        (
            "training-flag",
            "training=True unfreezes the layers so the optimizer can update them.",
            "training-flag-is-optimizer-mode",
            True,
        ),
        (
            "training-flag",
            "The weights get unfrozen by training=True.",
            "training-flag-is-optimizer-mode",
            True,
        ),
        # (W) rubric: "warnings/errors for the Nones" names the warning apply_gradients gives
        # (computer-vision-engineer, round 16's final set)
        (
            "trainable-vs-all-variables",
            "Passing those to apply_gradients would either give you warnings/errors for the Nones, or quietly update the frozen backbone.",
            "none-gradient-crashes-apply",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "apply_gradients raises an error for the None gradients.",
            "none-gradient-crashes-apply",
            True,
        ),
        (
            "trainable-vs-all-variables",
            "apply_gradients would give you errors for the Nones.",
            "none-gradient-crashes-apply",
            True,
        ),
    ],
)
def test_round17_mechanisms(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named
