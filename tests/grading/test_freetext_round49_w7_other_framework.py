"""Round 49 of issue 14 (engineer W7): two shapes where the other-framework reader took a claim
about TensorFlow for one about PyTorch (docs/freetext-rounds.md "Round 49: counterfactuals and
the false tells left (engineer W7)").

- A comparison by "the opposite of", "the equivalent of", "the counterpart to" ... ("training=True
  is like opposite of torch.no_grad, it enable gradient computation"; "(the equivalent of
  pytorch's .grad)"): the framework is what TensorFlow is compared with, as after "like".
- A framework named inside a bracketed aside that closes before the match ("call tape.reset()
  (that is where zero_grad goes in pytorch), since the gradients pile up"): the aside's topic,
  not the statement's after it (asides.py); an aside may hold a call's own brackets
  ("(where optimizer.zero_grad() goes in pytorch)").

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.asides import aside_spans
from app.grading.freetext.matching import is_foreign
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

NZG, GVA, TF, GA = "no-zero-grad", "gradient-vs-apply", "training-flag", "gradient-accumulation"


@pytest.mark.parametrize(
    ("question_id", "text", "tag"),
    [
        (
            GVA,
            "tape.gradient does the backward pass and stores the result on each variable (the"
            " equivalent of pytorch's .grad), so every variable holds its own gradient.",
            "grads-stored-on-variables",
        ),
        (
            TF,
            "training=True is like the opposite of torch.no_grad, it turns on gradient"
            " computation.",
            "training-flag-enables-gradients",
        ),
    ],
)
def test_a_comparison_by_opposite_or_equivalent_is_said_of_tensorflow(
    question_id: str, text: str, tag: str
) -> None:
    assert tag in tells_by_rules(question_id, text)


@pytest.mark.parametrize(
    "text",
    [
        "Call tape.reset() at the top of each step (that is where zero_grad goes in pytorch),"
        " since the gradients pile up across steps.",
        "Reset the tape every step (pytorch people call it zero_grad), or the gradients pile up"
        " across steps.",
        # an aside holding a call's own brackets is one aside (asides.py, round 49)
        "Call tape.reset() each step (exactly where optimizer.zero_grad() goes in pytorch), since"
        " the gradients pile up across steps.",
    ],
)
def test_a_framework_in_an_aside_before_the_claim_sets_no_topic(text: str) -> None:
    assert "tape-accumulates" in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    "text",
    [
        "In PyTorch the gradients pile up in .grad, so you zero them every step.",
        "Gradients pile up in .grad (in PyTorch), so you must zero them every step.",
        "In PyTorch (unlike TF) the gradients pile up in .grad, so you zero them every step.",
        "The opposite of PyTorch: in PyTorch you must zero the gradients every step.",
    ],
)
def test_statements_about_pytorch_still_name_nothing(text: str) -> None:
    assert tells_by_rules(NZG, text) == []


def test_a_sentence_of_asides_naming_pytorch_is_read_in_linear_time() -> None:
    unit = "(zero_grad is in pytorch) "
    sentence = (unit * (40_000 // len(unit) + 1))[:40_000] + "the tape keeps the gradients"

    def read(sentence: str) -> None:
        masked = mask(sentence)
        is_foreign(sentence, masked, masked.index("the tape keeps"), len(masked))

    assert_linear(read, sentence)


@pytest.mark.parametrize(
    ("text", "asides"),
    [
        ("call it (where optimizer.zero_grad() goes) now", 1),
        ("f(x) (a g(y) b) and (c d)", 2),
        ("an unclosed (aside with f() and ( another (one here)", 1),
    ],
)
def test_an_aside_holds_a_calls_brackets(text: str, asides: int) -> None:
    assert len(aside_spans(mask(text))) == asides


def test_a_sentence_of_unclosed_asides_with_calls_is_read_in_linear_time() -> None:
    assert_linear(lambda sentence: aside_spans(mask(sentence)), ("(a f(x) " * 5000)[:40_000])
