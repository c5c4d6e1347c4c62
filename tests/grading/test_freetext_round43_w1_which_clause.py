"""Round 43 of issue 14 (engineer W1): the other framework's "which" clause
(docs/freetext-rounds.md "Round 43: the other framework's "which" clause, and three prefix
accidents (engineer W1)").

Round 42's lead mended a false tell - round 13's true "It's passed per call, unlike PyTorch's
model.train(), which flips a mode that sticks" named `training-flag-is-persistent-mode` - by
excluding "unlike", "pytorch", "torch" and "model.train()" from one training-flag phrasing. The
general place is matching.py, which already read "unlike PyTorch, where ..." as PyTorch's
(WHERE_CLAUSE): a "which", "whose" or "that" clause after another framework's name or API is
that framework's too, and a main clause after it, in a sentence the comparison opens, is
TensorFlow's again. The phrasing-level exclusion is gone, so a wrong answer that contrasts with
PyTorch and still states the sticky mode about Keras is named.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import time

import pytest

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.matching import framework_mentions
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import concepts_by_rules, misconception_of, tells_by_rules

STICKY = r"\b(mode|flag)\b (\w+ ){0,2}?sticks"


def _sticky_hits(text: str) -> list[tuple[str, bool]]:
    """(matched words, read as another framework's) of a generic "mode that sticks" phrasing."""
    return [(h.snippet, h.foreign) for h in find_phrasings(normalise(text).units, [STICKY])]


@pytest.mark.parametrize(
    "text",
    [
        "It's passed per call, unlike PyTorch's model.train(), which flips a mode that sticks.",
        "It's passed per call, unlike PyTorch's model.train() which flips a mode that sticks.",
        "It's passed per call, unlike PyTorch's model.train() that flips a mode that sticks.",
        "It's passed per call, unlike torch's nn.Module, whose train() sets a mode that sticks.",
        "It's passed per call, unlike PyTorch model.train(), which sets a mode that sticks.",
        "It's passed per call, unlike torch.nn.Module.train(), which sets a mode that sticks.",
        "It's passed per call, unlike PyTorch's .train() method, which sets a mode that sticks.",
    ],
)
def test_a_relative_clause_after_a_compared_frameworks_api_is_that_frameworks(text: str) -> None:
    assert _sticky_hits(text) == [("mode that sticks", True)]


@pytest.mark.parametrize(
    "text",
    [
        # the main clause after the relative clause turns back to TensorFlow (or Keras)
        "Unlike PyTorch's model.train(), which you undo with eval(), the training flag sticks.",
        "Like PyTorch's model.train(), which you undo with eval(), the training flag sticks.",
        "Unlike PyTorch, where you undo it with eval(), the training flag sticks.",
        # no relative clause: the comparison is TensorFlow's statement
        "Unlike PyTorch, in Keras the training flag sticks.",
        "Unlike PyTorch you call it once and the mode sticks.",
        # a pronoun or an article is no API word: the clause is the Keras mode's
        "Unlike PyTorch's approach the mode that sticks is set by the flag.",
    ],
)
def test_tensorflows_own_clause_beside_the_comparison_stays_its_own(text: str) -> None:
    assert _sticky_hits(text)
    assert not any(foreign for _, foreign in _sticky_hits(text))


def test_a_framework_named_without_a_comparison_is_read_as_before() -> None:
    text = "In PyTorch, model.train() flips a mode that sticks."
    assert _sticky_hits(text) == [("mode that sticks", True)]
    assert framework_mentions("Unlike PyTorch, that flag is per call.") == ((7, False),)


def _sticky_mode_phrasings() -> list[str]:
    return list(misconception_of("training-flag", "training-flag-is-persistent-mode").any)


def test_the_training_flag_phrasing_no_longer_excludes_pytorch_itself() -> None:
    assert not [p for p in _sticky_mode_phrasings() if "unlike|pytorch" in p]


@pytest.mark.parametrize(
    "text",
    [
        "It's passed per call, unlike PyTorch's model.train(), which flips a mode that sticks.",
        "Pass training=True per call, unlike torch's model.train() that sets a mode that sticks.",
        "It's passed per call, unlike PyTorch, where model.train() flips a mode that sticks.",
    ],
)
def test_the_true_contrast_names_no_sticky_mode(text: str) -> None:
    assert "training-flag-is-persistent-mode" not in tells_by_rules("training-flag", text)


@pytest.mark.parametrize(
    "text",
    [
        # wrong answers that contrast with PyTorch and still state the sticky mode about Keras
        "Unlike PyTorch, in Keras the training flag sticks.",
        "Unlike in Keras fit, here training=True is a mode that sticks.",
        "Unlike PyTorch's model.train(), which you undo with eval(), the training flag sticks.",
        "Unlike PyTorch's model.train(), which you undo with eval(), in Keras the flag sticks.",
        "Like PyTorch's model.train(), which flips a mode that sticks, the training flag sticks.",
        "Once you pass training=True the mode sticks.",
    ],
)
def test_the_sticky_mode_stated_about_keras_stays_named(text: str) -> None:
    assert "training-flag-is-persistent-mode" in tells_by_rules("training-flag", text)


def test_a_main_clause_after_a_where_clause_credits_tensorflows_concept() -> None:
    text = "Unlike PyTorch, where gradients accumulate, the tape returns new gradients each call."
    assert "fresh-gradients" in concepts_by_rules("no-zero-grad", text)
    wrong = "Unlike PyTorch, where gradients accumulate, you must zero the gradients every step."
    assert "needs-zero-grad" in tells_by_rules("no-zero-grad", wrong)


@pytest.mark.parametrize(
    "unit",
    ["like torch that ", "unlike torch's a.b() which ", "torch's torch's ", "unlike torch, where "],
)
def test_a_pumped_sentence_of_compared_mentions_is_read_in_linear_time(unit: str) -> None:
    """Each mention's relative clause is one bounded match; the main clause is looked for once
    per sentence. 40,000 characters read in well under a quarter of a second of CPU (~0.04 s)."""
    text = (unit * (40_000 // len(unit) + 1))[:40_000] + " the mode sticks."
    started = time.thread_time()
    framework_mentions(text)
    assert time.thread_time() - started < 0.25
