"""Round 44 of issue 14 (engineer W2): the end of another framework's relative clause is a
boundary no match crosses (docs/freetext-rounds.md "Round 44: round 43's false tells and the
relative clause's end (engineer W2)").

Round 43 (W1) read "Unlike torch's optimizer, which needs zero_grad every step, the tape ..." as
PyTorch's up to the relative clause's comma and TensorFlow's after it. A phrasing's match that
started inside the relative clause and ran over that comma ("needs zero_grad every step, the
tape returns new gradients") still took the main clause's topic, TensorFlow's, and named
`needs-zero-grad` on a right answer; a claim's roles did the same where the main clause took
a pronoun's antecedent from the relative clause. Now a match that starts inside the clause is
searched again from the main clause's start (statements.py), and the main clause takes no role
from the clause before it (claims.py). What the main clause says on its own is read as before.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import time

import pytest

from app.grading.freetext.matching import described_clause
from app.grading.freetext.phrasings import compile_phrasing, mask
from app.grading.freetext.statements import statement_matches
from tests.grading.core_questions import tells_by_rules

NEEDS_ZERO_GRAD = r"(need|must)\w* ~ zero_grad ~ (gradients?|grads?)"


def test_the_relative_clause_runs_from_the_name_to_the_main_clause() -> None:
    text = "Unlike torch's optimizer, which needs zero_grad every step, the tape returns new ones."
    assert described_clause(text) == (len("Unlike torch"), text.index(", the tape") + 1)


@pytest.mark.parametrize(
    "text",
    [
        # a match from inside the relative clause into the main clause
        "Unlike torch's optimizer, which needs zero_grad every step, the tape returns new"
        " gradients each time.",
        "Unlike PyTorch, where you must call zero_grad every step, the tape hands back new"
        " gradients on each call.",
        # a claim whose roles the main clause took from the relative clause (its pronoun)
        "Unlike PyTorch, where you zero the grads every step, the optimizer just gets them fresh"
        " from the tape.",
    ],
)
def test_a_match_from_the_other_frameworks_clause_names_no_tensorflow_tell(text: str) -> None:
    assert "needs-zero-grad" not in tells_by_rules("no-zero-grad", text)


@pytest.mark.parametrize(
    "text",
    [
        # the main clause states it on its own
        "Unlike PyTorch, where the grads are freed for you, in TensorFlow you must zero the"
        " gradients every step.",
        "Unlike torch's optimizer, which needs zero_grad, the tape also needs you to zero the"
        " gradients every step.",
        # no relative clause: the comparison is TensorFlow's statement, as before
        "Like PyTorch, you must zero the gradients every step.",
    ],
)
def test_the_main_clause_on_its_own_is_still_named(text: str) -> None:
    assert "needs-zero-grad" in tells_by_rules("no-zero-grad", text)


def test_the_search_goes_on_from_the_main_clause() -> None:
    text = (
        "Unlike torch's optimizer, which needs zero_grad every step, the tape needs zero_grad"
        " on its gradients too."
    )
    found = statement_matches(
        compile_phrasing(NEEDS_ZERO_GRAD), text, mask(text), described_clause(text)
    )
    assert [m.group() for m in found] == ["needs zero_grad on its gradients"]


@pytest.mark.parametrize(
    "text",
    [
        # a comparison that does not open the sentence: the rest is PyTorch's, as in round 43
        "The tape returns new gradients, unlike torch's optimizer, which needs zero_grad every"
        " step.",
        # a framework named with no comparison
        "In PyTorch, which needs zero_grad every step, the tape is not used.",
    ],
)
def test_no_boundary_where_no_comparison_opens_the_sentence(text: str) -> None:
    assert described_clause(text) is None


@pytest.mark.parametrize(
    "unit", ["needs zero_grad every step ", "x, ", "unlike torch, where ", "which "]
)
def test_a_pumped_relative_clause_is_read_in_linear_time(unit: str) -> None:
    """One boundary per sentence, found once (remembered); a match that crosses it sends the
    search to it once. 40,000 characters in well under a quarter of a second of CPU."""
    text = "Unlike torch's a.b(), which " + (unit * (40_000 // len(unit) + 1))[:40_000]
    text += ", the tape returns new gradients each time."
    started = time.thread_time()
    statement_matches(compile_phrasing(NEEDS_ZERO_GRAD), text, mask(text), described_clause(text))
    assert time.thread_time() - started < 0.25
