"""Round 16 (issue 14, engineer T): a tell mentioned in quotation marks, a sentence inside
an aside about another framework, and a match that stops on a call's name.

The statements in freetext_statements_r16.py were written before any round-16 change; the
tune half was read while fixing, the held half was run at the round's start and end only
(the held half is this round's honest reading). Misses are strict xfails. Rules alone, as
the round measured them (docs/freetext-rounds.md "Round 16: false tells (engineer T)").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.quotations import quoted
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r16 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# True statements that still name a tell at the round's end (the tune half's, read; then the
# held half's, run at the start and the end only, left unread).
FALSE_TELLS: set[str] = {
    "For layers downstream of the conversion nothing changes, their gradients are computed as usual from the re-created tensor onward.",
    "It's not a matter of speed: the non-trainable variables get no gradients, so there's nothing sensible for apply_gradients to do with them.",
    '"Bigger models gain the most" gets it backwards: for large models the kernels dominate, small models with many cheap ops gain most.',
}
# Wrong statements whose tell no phrasing reaches (rubric content, not this round).
UNNAMED: set[str] = {
    "In TF2 the gradients are stored on each variable after tape.gradient, just like .grad in PyTorch.",
    "The layers after the .numpy() call lose their gradients, the ones before it are fine.",
    "Differentiating loss1 + loss2 once gives you each loss's gradient separately.",
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
    left="a false tell left by round 16 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("sentence", "snippet", "inside"),
    [
        (
            'People say "apply_gradients returns the new weights" - it doesn\'t.',
            "apply_gradients returns the new weights",
            True,
        ),
        (
            'tape.gradient "updates" the weights directly.',
            'tape.gradient "updates" the weights',
            False,
        ),
        ("tape.gradient updates the weights.", "tape.gradient updates the weights", False),
        # found once inside the quotes and once outside: the writer says it too
        (
            '"tape.gradient updates" - yes, tape.gradient updates the weights.',
            "tape.gradient updates",
            False,
        ),
    ],
)
def test_quoted(sentence: str, snippet: str, inside: bool) -> None:
    assert quoted(sentence, snippet) is inside


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # a claim wholly inside double quotes is mentioned, not made
        (
            "gradient-vs-apply",
            'People sometimes say "apply_gradients returns the new weights" - it doesn\'t, it assigns them in place.',
            "apply-returns-new-weights",
            False,
        ),
        # one that runs out of the quotes into the writer's words is stated
        (
            "gradient-vs-apply",
            'tape.gradient "updates" the weights directly.',
            "gradient-updates-weights",
            True,
        ),
        # a sentence inside a bracket opened by a sentence about PyTorch is PyTorch's
        (
            "no-zero-grad",
            "In TF gradients are return values, not state. (Nit: in PyTorch it's not strictly the optimizer's job either; model.zero_grad() does the same thing. optimizer.zero_grad() is a convenience.)",
            "needs-zero-grad",
            False,
        ),
        # once the bracket has closed, the next sentence is TensorFlow's again
        (
            "no-zero-grad",
            "In TF gradients are return values. (In PyTorch it's different. You call optimizer.zero_grad() there.) You must call optimizer.zero_grad() every step.",
            "needs-zero-grad",
            True,
        ),
        # the plural noun is read (round 16's call-name rule, which spared "after gradient()",
        # was taken out by the lead: it also spared "call close() on a persistent tape")
        (
            "no-zero-grad",
            "The tape holds the computed gradients until it is deleted.",
            "tape-holds-gradients",
            True,
        ),
    ],
)
def test_round16_mechanisms(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named
