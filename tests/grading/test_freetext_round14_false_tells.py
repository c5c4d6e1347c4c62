"""Round 14 (issue 14, engineer T): a tell read across ";" or past its own denial.

The statements in freetext_statements_r14.py were written before any round-14 change; the
tune half was read while fixing, the held half was run at the round's start and end only
(the held half is this round's honest reading). Misses are strict xfails. Rules alone, as
the round measured them (docs/freetext-rounds.md "Round 14: false tells (engineer T)").
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.freetext_statements_r14 import true_statements, wrong_statements
from tests.grading.held_statements import statement_battery

# True statements that still name a tell at the round's end (held half, run at the start
# and the end only: left unread).
# "... big convolution-heavy models gain little." left this set in round 27: big-models-gain-most's
# conv-heavy phrasing no longer reads a gain said to be little (docs/freetext-rounds.md "Round 27:
# rubric content from round 26's set (engineer C7)"). "If you forget to reset the accumulators after the
# update, ..." left it in round 30: a forgotten reset is tape-accumulates only when it is the tape's
# or the gradients' (docs/freetext-rounds.md "Round 30: rubric content from round 29's set (engineer C10)").
FALSE_TELLS: set[str] = set()
# Wrong statements whose tell no phrasing reaches (rubric content, not this round).
UNNAMED = {
    # "A GradientTape only does first derivatives, so for a second derivative you need finite
    # differences." is named since round 43 (engineer C33: GradientTape said to give first derivatives only).
    # "Without training=True the model doesn't learn anything at all." is named since round 16 (engineer C).
    "Every layer of the model, before and after the NumPy step, ends up with None gradients.",
    "The two lists are always identical, so it doesn't matter which one you pass.",
    "If you leave training= out in a custom loop, Keras raises an error.",
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
    _no_false_tell_left,  # round 30: FALSE_TELLS is empty, so not collected (an empty test skips)
    test_a_misconception_is_named,
    test_an_unreached_misconception_is_named,
) = statement_battery(
    TRUE,
    WRONG,
    false_tells=FALSE_TELLS,
    unnamed=UNNAMED,
    left="a false tell left by round 14 (docs/freetext-rounds.md)",
)


@pytest.mark.parametrize(
    ("qid", "text", "tag", "named"),
    [
        # after ";" a clause with its own subject and a copula is a statement of its own
        (
            "persistent-tape",
            "Alternatively, open two tapes over the same forward pass, one per loss; each tape is used once, so neither has to be persistent.",
            "persistent-spans-steps",
            False,
        ),
        (
            "tf-function-speedup",
            "The speedup is largest for small models with many cheap ops; it is small for big models.",
            "big-models-gain-most",
            False,
        ),
        (
            "numpy-inside-tape",
            "The tape records TensorFlow ops only; the numpy maths is opaque to it, so the earlier weights get None.",
            "numpy-is-recorded",
            False,
        ),
        # one statement across ";" still names its tell
        (
            "persistent-tape",
            "Create one persistent tape once outside the loop and reuse it for all the training steps.",
            "persistent-spans-steps",
            True,
        ),
        (
            "tf-function-speedup",
            "The speedup is largest for big models.",
            "big-models-gain-most",
            True,
        ),
        # a clause after ";" that goes on with a verb keeps the subject before it
        (
            "gradient-vs-apply",
            "tape.gradient returns a list of tensors; it changes the variables and the optimizer.",
            "gradient-updates-weights",
            True,
        ),
        # "neither X nor Y" denies X when the match stops before "nor"
        (
            "gradient-vs-apply",
            "tape.gradient returns a list of tensors; it changes neither the variables nor the optimizer.",
            "gradient-updates-weights",
            False,
        ),
        # a reported claim denied in the next clause
        (
            "tf-function-speedup",
            "People often say 'tf.function makes it run on the GPU'; it doesn't - eager already runs on the GPU.",
            "tf-function-uses-gpu",
            False,
        ),
        (
            "tf-function-speedup",
            "People often say 'tf.function makes it run on the GPU'; it does, that is where the speedup comes from.",
            "tf-function-uses-gpu",
            True,
        ),
        # a thing said not to be part of the API
        (
            "no-zero-grad",
            "optimizer.zero_grad() isn't part of the TF API, and the gradients don't pile up.",
            "needs-zero-grad",
            False,
        ),
        (
            "no-zero-grad",
            "Call optimizer.zero_grad() at the start of every step, as in PyTorch.",
            "needs-zero-grad",
            True,
        ),
    ],
)
def test_round14_mechanisms(qid: str, text: str, tag: str, named: bool) -> None:
    assert (tag in _tells(qid, text)) is named


def test_round12s_known_false_tell_across_a_semicolon_is_gone() -> None:
    # round 12's KNOWN_NAMED (test_freetext_round12_content.py) until (A) above
    text = "Only tf.Variables keep values between tf.function calls; the gradient tensors are recomputed every call."
    assert _tells("no-zero-grad", text) == []
