"""Round 28 (issue 14): salads with one glue template between their terms ("the aaa of the
aab of ...", "lr and zip, pairs and adam, ...", "tape ka gradient ki ...") earn nothing and
are told they list terms (glue_templates.py); real answers keep their credit. Every answer
here was written for these tests, not copied from the labelled sets; docs/freetext-rounds.md
("Round 28: salads with glue words (engineer F)") gives the figures."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import itertools
import string

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.glue_templates import template_share
from app.grading.freetext.grader import KEYWORD_LIST_MESSAGE
from app.grading.freetext.normalise import normalise
from app.grading.freetext.signals import FUNCTION_WORDS, is_keyword_list, without_padding
from tests.grading.core_questions import question

# Rubric words of gradient-vs-apply (each credits a concept on its own in a claim).
KEYWORDS = [
    "lr",
    "zip",
    "pairs",
    "adam",
    "momentum",
    "optimizer",
    "weights",
    "tape.gradient",
    "apply_gradients",
    "clipping",
    "iterations",
]


def _nonsense() -> itertools.chain[str]:
    """Every three-letter lowercase word, with the rubric's words first."""
    three = ("".join(t) for t in itertools.product(string.ascii_lowercase, repeat=3))
    return itertools.chain(KEYWORDS, three)


def _long(template: str, length: int = 10_000) -> str:
    words, text = _nonsense(), ""
    while len(text) < length:
        text += template.format(next(words), next(words))
    return text[:length]


LONG_SALADS = {
    "the X of": _long("the {} of the {} of "),
    "X and Y,": _long("{} and {}, "),
    "X ka Y ka": _long("{} ka {} ka "),
    "X ka Y ki": _long("{} ka {} ki "),
    "the X of, commas": _long("the {} of the {}, "),
    "X of the Y with": _long("{} of the {} with "),
    "glue rotating over four words": " ".join(
        f"the {w} {g}"
        for w, g in zip(KEYWORDS * 400, ["of", "in", "with", "on"] * 1100, strict=True)
    )[:10_000],
}
SHORT_SALADS = {
    "the X of": "The lr of the zip of the pairs of the adam of the momentum of the weights.",
    "the X of, two sentences": "The lr of the zip of the pairs of the adam. The momentum of the clipping of the iterations of the weights.",
    "X and Y,": "lr and zip, pairs and adam, momentum and clipping, iterations and weights, tape and gradient.",
    "X ka Y ki": "lr ka zip ki pairs ka adam ki momentum ka clipping ki iterations ka weights.",
    "a X with a Y": "a lr with a zip with a pairs with a adam with a momentum with a clipping.",
    "glue rotating": "the lr of the zip in the pairs of the adam in the momentum of the clipping in the iterations of the weights.",
}
SALADS = {f"long {k}": v for k, v in LONG_SALADS.items()} | {
    f"short {k}": v for k, v in SHORT_SALADS.items()
}


@pytest.mark.parametrize("name", list(SALADS))
def test_a_glue_template_salad_is_read_as_a_list_of_terms(name: str) -> None:
    assert is_keyword_list(normalise(SALADS[name]))


@pytest.mark.parametrize("name", list(SALADS))
def test_a_glue_template_salad_earns_nothing_and_is_told_why(name: str) -> None:
    result = grade_freetext(question("gradient-vs-apply"), SALADS[name])
    assert result.verdict == "incorrect" and result.details["keyword_list"], result.details
    assert KEYWORD_LIST_MESSAGE in [f.message for f in result.feedback]


HALF_RIGHT = (
    "tape.gradient only computes the gradients and returns them; it does not change the weights."
)


def test_a_template_appended_to_a_sentence_earns_nothing() -> None:
    padded = HALF_RIGHT.rstrip(".") + " and " + SHORT_SALADS["the X of"]
    plain = grade_freetext(question("gradient-vs-apply"), HALF_RIGHT, second_opinion=False)
    result = grade_freetext(question("gradient-vs-apply"), padded, second_opinion=False)
    assert "apply-rule" not in result.details["concepts_found"]
    assert result.details["concepts_found"] == plain.details["concepts_found"]


def test_the_template_is_cut_out_of_its_sentence() -> None:
    assert "momentum" not in without_padding(
        "It returns gradients, the lr of the zip of the pairs of the adam of the momentum of the weights."
    )


# Real sentences that repeat a little glue: the frame of "the X the X the X" or "the X of
# the X of the X" occurs in prose, never across most of an answer.
PROSE = [
    "tape.gradient computes the gradient of the loss with respect to the weights of the model and returns it; apply_gradients then applies the optimizer's rule.",
    "Compute the loss, record the ops, take the gradient, apply the update: the optimizer owns the step counter and the learning rate.",
    "The sum of the gradients of the losses of the micro-batches is what you apply, divided by the number of steps.",
    "apply_gradients takes (gradient, variable) pairs, usually zip(grads, model.trainable_variables), and the optimizer applies momentum and the lr.",
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_is_no_template(text: str) -> None:
    assert template_share(text, FUNCTION_WORDS) < 0.5
    assert not is_keyword_list(normalise(text))


def test_a_correct_answer_with_repeated_glue_stays_correct() -> None:
    answer = (
        "tape.gradient only computes the gradients of the loss with respect to the variables and returns "
        "them; it changes no weights. optimizer.apply_gradients takes (gradient, variable) pairs, usually "
        "zip(grads, vars), and updates the variables in place with the optimizer's update rule "
        "(learning rate, momentum), incrementing the step counter."
    )
    result = grade_freetext(question("gradient-vs-apply"), answer, second_opinion=False)
    assert result.verdict == "correct", result.details


def test_one_phrase_repeated_is_no_template() -> None:
    """It packs one term (the budget tests pump "the tape " 400 times after a real answer)."""
    assert template_share("the tape " * 40, FUNCTION_WORDS) == 0.0
    assert template_share("the tape of the loss of " * 20, FUNCTION_WORDS) > 0.9
