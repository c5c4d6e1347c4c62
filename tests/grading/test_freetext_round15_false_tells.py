"""Round 15 (issue 14, engineer T): a tell read across a joint into a clause of its own, or
in a sentence that describes another framework.

The statements in freetext_statements_r15.py were written before any round-15 change; the
tune half was read while fixing, the held half was run at the round's start and end only
(the held half is this round's honest reading). Misses are strict xfails. Rules alone, as
the round measured them (docs/freetext-rounds.md "Round 15: false tells (engineer T)").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r15 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# True statements that still name a tell at the round's end (the last two: held half, run at
# the start and the end only, left unread). "Forget the reset and the next cycle adds onto the old
# sums, ..." left it in round 30 (a forgotten reset is tape-accumulates only when it is the tape's or
# the gradients'; docs/freetext-rounds.md "Round 30: rubric content from round 29's set (engineer C10)").
FALSE_TELLS = {
    "The optimizer has state, the tape has none left after gradient() — and neither of them holds last step's gradients.",
    # round 17 (T): "for a model without BatchNorm ..." limits the claim to such models
    # (conditions.in_scope_of_lack), so the third is read right now
}
# Wrong statements whose tell no phrasing reaches (rubric content, not this round).
UNNAMED = {
    # round 22 (C2): "apply_gradients resets the gradients to zero once it has used them" is named
    # now (optimizer-clears-grads: "once it has applied / used them"), so it left this set
    "The model has to be compiled before tape.gradient can return anything but None.",
    "All the layers, before and after the NumPy code, get None gradients.",
    "Call tape.reset() after the first gradient and the default tape will give you the second one.",
    "variables and trainable_variables always contain the same variables.",
    "Keras raises an error if you call the model without training= in a custom loop.",
    "GradientTape can only compute first derivatives, second derivatives need finite differences.",
    "If any gradient is None, apply_gradients raises an error.",
    # round 53 (C53): "persistent=True costs no extra memory, so there's no reason to delete the
    # tape." is named again (persistent-is-free's guard excludes only a deletion the sentence
    # affirms), so it left this set (a strict xfail from round 52's merge to round 53)
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
    left="a false tell left by round 15 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # after "," (or "->", "=>", a dash) a determiner phrase and a copula open a statement
        (
            "no-zero-grad",
            "A new tape each step records a new forward pass, the old tape is gone, and its gradients were only ever local variables in your loop.",
            "tape-holds-gradients",
            False,
        ),
        (
            "why-none-gradients",
            "Unlikely — trainable variables are watched automatically, the missing piece is that the loss line isn't inside the block.",
            "watch-loss-fixes-none",
            False,
        ),
        # a pronoun there goes on with the subject before it
        (
            "gradient-vs-apply",
            "tape.gradient computes the gradients, it is what updates the weights.",
            "gradient-updates-weights",
            True,
        ),
        # a clause after "," that repeats the noun its clause opened on is parallel
        (
            "numpy-inside-tape",
            "Layers after it train, layers before it get None grads and freeze.",
            "downstream-loses-gradients",
            False,
        ),
        (
            "numpy-inside-tape",
            "Layers after it get None grads and freeze.",
            "downstream-loses-gradients",
            True,
        ),
        # a sentence between one about PyTorch and the turn back to TensorFlow is PyTorch's
        (
            "no-zero-grad",
            "In PyTorch, loss.backward() accumulates into each parameter's .grad. That's why you have to zero it every step. In TF, gradients aren't stored on the variables at all.",
            "needs-zero-grad",
            False,
        ),
        # without the turn back, the sentence after stays TensorFlow's
        (
            "no-zero-grad",
            "In PyTorch, loss.backward() accumulates into each parameter's .grad. That's why you have to zero it every step.",
            "needs-zero-grad",
            True,
        ),
        # "like PyTorch" compares: the sentences after it are TensorFlow's
        (
            "no-zero-grad",
            "Like in PyTorch, loss.backward() accumulates. You have to zero the gradients every step. In TF it's the same.",
            "needs-zero-grad",
            True,
        ),
    ],
)
def test_round15_mechanisms(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named
