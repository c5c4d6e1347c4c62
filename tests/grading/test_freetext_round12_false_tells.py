"""Round 12 (issue 14, engineer T): a tell whose words are the object of another verb.

The statements in freetext_statements_r12.py were written before any round-12 change; the
tune half was read while fixing, the held half was run at the round's start and end only
(true statements with a tell: 4 of 42 both times; wrong ones named: 16 of 20 both times).
Their misses are strict xfails here: the held ones are the round's honest reading, the
tune half's wrong ones are tells no phrasing reaches (rubric content, not this round).
Rules alone, as the round measured them (docs/freetext-rounds.md "Round 12: false tells").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r12 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# The held half's true statements that name a tell, before and after the round.
# "If you passed model.variables, the BN moving stats would get None gradients, ..." left this set
# in round 27: bn-stats-get-gradients no longer reads a gradient said to be None (docs/freetext-rounds.md
# "Round 27: rubric content from round 26's set (engineer C7)").
# "It's not about the GPU - ... so small, op-heavy models benefit most." left it in round 54:
# big-models-gain-most reads a hyphenated "X-heavy" as a heavy model only for compute words
# (docs/freetext-rounds.md "Round 54: ... (engineer C54)").
HELD_FALSE_TELLS = {
    "The gradient is None because from the tape's view the loss is a constant unrelated to the variables. It's not an error condition in TF, just 'no path'.",
    "Not a big deal for a plain Dense model, there they're the same list, but as soon as you have BatchNorm or freeze a backbone they differ, and only the trainable list should get updates.",
}
# Wrong statements whose tell no phrasing reaches (both halves, before and after).
# "You get zero gradients rather than None, ..." left this set when engineer R's reader change
# (round 12: "zero gradients" is no longer rewritten to zero_grad) let the phrasing reach it.
# "If you passed the BN moving mean, gradient descent would move it with real gradients." left
# it in round 18: bn-stats-get-gradients reads gradient descent as the agent moving the
# statistics (docs/freetext-rounds.md "Round 18: rubric content (engineer C)").
UNNAMED = {
    "Create one persistent tape before the training loop and reuse it every step.",
    "Passing model.variables is fine, it is the same list anyway.",
    "tape.gradient writes the gradients onto each variable, same as .grad in PyTorch.",
    "Inside a GradientTape Keras sets training=True automatically, so leaving it out changes nothing.",
    "Just sum the four gradients of the mean losses; that is exactly the batch-256 gradient.",
}
TRUE = true_statements(held=False) + true_statements(held=True)
WRONG = wrong_statements(held=False) + wrong_statements(held=True)


def test_the_corpus_has_its_size() -> None:
    assert (len(TRUE), len(WRONG)) == (92, 48)
    assert {text for _, text in true_statements(held=True)} >= HELD_FALSE_TELLS
    assert {text for _, text, _ in WRONG} >= UNNAMED


(
    test_a_true_statement_names_no_tell,
    test_a_held_miss_names_no_tell,
    test_a_misconception_is_named,
    test_an_unreached_misconception_is_named,
) = statement_battery(
    TRUE,
    WRONG,
    false_tells=HELD_FALSE_TELLS,
    unnamed=UNNAMED,
    left="held-out miss of round 12 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # the tell's subject is the object of another verb: the optimizer, the reader
        (
            "gradient-vs-apply",
            "The optimizer takes each (gradient, variable) pair and updates the variable in place.",
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
            "tape.gradient updates the weights.",
            "gradient-updates-weights",
            True,
        ),
        (
            "gradient-accumulation",
            "Do one tape per micro-batch, sum the gradients into accumulators, then apply once.",
            "tape-accumulates",
            False,
        ),
        (
            "gradient-accumulation",
            "The tape sums the gradients across micro-batches for you.",
            "tape-accumulates",
            True,
        ),
        # a noun phrase after a verb, in one statement or before a clause with a subject
        (
            "higher-order-derivatives",
            "Take the first derivative after the outer block has closed, then call outer.gradient on it.",
            "gradient-outside-outer-tape",
            True,
        ),
        (
            "gradient-accumulation",
            "You create the tape with persistent=True, so it keeps the gradients across the micro-batches.",
            "tape-accumulates",
            True,
        ),
        (
            "persistent-tape",
            "Pass both losses in a list to tape.gradient and it returns each loss's gradients separately.",
            "list-target-separate-grads",
            True,
        ),
        (
            "persistent-tape",
            "Open a persistent tape, compute both losses inside, then call tape.gradient once for each loss.",
            "list-target-separate-grads",
            False,
        ),
        (
            "tf-function-speedup",
            "With a graph TF can also optimise it (op fusion, constant folding) and optionally compile with XLA.",
            "tf-function-is-xla",
            False,
        ),
        # a verb that takes a statement: what follows has its own subject
        (
            "tf-function-speedup",
            "I believe it compiles the step with XLA.",
            "tf-function-is-xla",
            True,
        ),
        (
            "trainable-vs-all-variables",
            "If you passed model.variables, the optimizer would also create Adam slots for variables it should never touch.",
            "variables-include-optimizer-slots",
            False,
        ),
        (
            "trainable-vs-all-variables",
            "model.variables also includes the optimizer's slot variables.",
            "variables-include-optimizer-slots",
            True,
        ),
        # "different from" sets a word against another, like "rather than"
        (
            "why-none-gradients",
            'gradient() returns None (meaning "no path", which is different from 0).',
            "none-means-zero-signal",
            False,
        ),
        (
            "why-none-gradients",
            "None gradients mean a zero gradient, the loss is flat.",
            "none-means-zero-signal",
            True,
        ),
    ],
)
def test_a_tell_needs_its_own_subject(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named
