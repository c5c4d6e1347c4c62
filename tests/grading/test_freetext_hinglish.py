"""Round 27 of issue 14, engineer H: code-switched Hindi-English (Hinglish) answers read as
the statements they are (hinglish.py): Hindi's function words are sentence glue where
Hindi grammar puts them, a verb-final clause is read in English order ("tape operations
record karta hai"), and a negation after the verb denies it ("weights update nahi karta").
A salad padded with Hindi glue ("hai ka ki ko") stays a salad, and English sentences are
read exactly as before. Every sentence here was written for these tests, not copied from
the labelled sets; docs/freetext-rounds.md ("Round 27: code-switched answers (engineer H)")
gives the figures."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.config import REPO_ROOT
from app.grading.freetext import grade_freetext
from app.grading.freetext.evaluation import load_persona_answers
from app.grading.freetext.grader import affirms
from app.grading.freetext.hinglish import english_order, glue_flags
from app.grading.freetext.normalise import normalise
from app.grading.freetext.signals import (
    FUNCTION_WORDS,
    is_keyword_list,
    is_padding,
    is_word_salad,
    without_padding,
)
from tests.grading.core_questions import question

# Code-switched prose: statements, not lists of terms.
HINGLISH_PROSE = [
    "tape.gradient sirf gradients calculate karta hai aur unki list return karta hai, variables ko chhoota bhi nahi.",
    "Har step pe naya tape banta hai, isliye purane gradients kahin jama nahi hote, zero_grad ki zaroorat nahi hai.",
    "Inner tape ka gradient outer tape ke andar hi lena padta hai, warna outer tape ko woh ops pata nahi hote.",
    "Loss ko micro-batches ki ginti se divide karo aur chaar steps ke baad ek hi baar apply_gradients karo.",
]
# Salads: the topic's terms with Hindi glue stuffed in; they state nothing.
SALADS = [
    "tape.gradient apply_gradients weights update gradients optimizer variables loss hai ka ki ko",
    "tape.gradient, apply_gradients, weights, update, gradients, optimizer, variables, hai, ka, ki, ko",
    "hai ka ki ko tape.gradient apply_gradients weights update gradients optimizer variables loss",
    "tape ka ki ko se gradient ke ka ko weights ki se ko update ka ki se optimizer ko ka se variables",
]


@pytest.mark.parametrize("text", HINGLISH_PROSE)
def test_code_switched_prose_is_not_a_keyword_list(text: str) -> None:
    assert not is_keyword_list(normalise(text))
    assert without_padding(text) == text


@pytest.mark.parametrize("text", SALADS)
def test_a_salad_padded_with_hindi_glue_stays_a_salad(text: str) -> None:
    normalised = normalise(text)
    assert is_keyword_list(normalised) or is_word_salad(normalised)


def test_hindi_glue_out_of_place_is_no_glue() -> None:
    words = ["loss", "gradient", "weights", "hai", "ka", "ki", "ko"]
    assert sum(glue_flags(words, FUNCTION_WORDS)) <= 1
    words = ["weights", "ko", "update", "nahi", "karta", "hai"]
    assert glue_flags(words, FUNCTION_WORDS) == [False, True, False, True, True, True]


@pytest.mark.parametrize("word", ["hai", "hain", "karta", "jayega", "ko", "nahi"])
def test_a_hindi_word_repeated_is_no_structure(word: str) -> None:
    assert is_padding(" ".join([word] * 8))


def test_a_tail_of_terms_after_hinglish_prose_is_still_padding() -> None:
    assert is_padding("optimizer variables weights update tape.gradient hai ka ki ko zip")
    text = (
        "apply_gradients hi weights update karta hai: "
        "tape record gradient optimizer variables loss weights zip list hai ka ki"
    )
    assert "zip list" not in without_padding(text)


@pytest.mark.parametrize(
    ("sentence", "twin"),
    [
        ("apply_gradients hi weights update karta hai.", "apply_gradients only update weights."),
        ("tape.gradient weights update nahi karta", "tape.gradient not update weights"),
        ("Variables ko chhoota bhi nahi.", "Variables chhoota not."),
        ("model ke weights ko update karta hai", "update weights of model"),
        ("agar x constant hai toh gradient None hota hai", "if x is constant so gradient is None"),
        ("variables sirf optimizer se change hote hain", "variables change by only optimizer"),
        ("tape persistent nahi hai", "tape is not persistent"),
        ("Simple hai na.", "Simple hai na."),
    ],
)
def test_a_verb_final_clause_reads_in_english_order(sentence: str, twin: str) -> None:
    assert english_order(sentence) == twin


@pytest.mark.parametrize(
    "sentence",
    [
        "The tape records operations and returns gradients.",
        "Do not call the gradient twice on a non-persistent tape; it raises.",
        "Hi, the mat of weights is updated by apply_gradients, not by the tape.",
        "So to me the main point is that the tape is a recorder.",
    ],
)
def test_english_sentences_keep_their_twin(sentence: str) -> None:
    assert english_order(sentence) == sentence


@pytest.mark.parametrize(
    ("text", "pattern", "affirmed"),
    [
        ("tape.gradient weights update nahi karta", r"tape\.gradient & updat\w* & weights?", False),
        ("tape.gradient weights ko update nahi karta hai", r"tape\.gradient ~ updat\w*", False),
        (
            "apply_gradients weights update karta hai",
            r"apply_gradients & updat\w* & weights?",
            True,
        ),
        (
            "apply_gradients hi weights ko update karta hai",
            r"apply_gradients ~ updat\w* ~ weights?",
            True,
        ),
        ("ye loop reset na kare toh grads add hote rahenge", r"\breset\b", False),
        ("Simple hai na, reset karo", r"\breset\b", True),
    ],
)
def test_negation_after_the_verb_denies_it(text: str, pattern: str, affirmed: bool) -> None:
    assert affirms(text, pattern) is affirmed


def _tags(q: str, answer: str) -> tuple[str, set[str], list[str]]:
    result = grade_freetext(question(q), answer, second_opinion=False)
    return result.verdict, set(result.details["concepts_found"]), list(result.misconceptions)


def test_a_correct_code_switched_answer_is_correct() -> None:
    verdict, found, tells = _tags(
        "gradient-vs-apply",
        "tape.gradient sirf gradients calculate karta hai aur ek list return karta hai, weights ko "
        "touch nahi karta. apply_gradients hi optimizer ka rule lagata hai aur variables ko update karta hai.",
    )
    assert verdict == "correct" and not tells
    assert {"gradient-no-update", "apply-updates"} <= found


def test_a_code_switched_misconception_is_named() -> None:
    _, _, tells = _tags(
        "gradient-vs-apply",
        "Mere hisaab se tape.gradient hi weights update karta hai, apply_gradients bas optimizer ki state sync karta hai.",
    )
    assert "gradient-updates-weights" in tells


def test_a_code_switched_denial_names_no_misconception() -> None:
    _verdict, found, tells = _tags(
        "gradient-vs-apply",
        "tape.gradient weights update nahi karta, woh sirf gradients nikalta hai. Variables sirf "
        "apply_gradients se update hote hain, optimizer ka rule laga ke.",
    )
    assert "gradient-updates-weights" not in tells
    assert "gradient-no-update" in found


def test_a_hindi_padded_salad_earns_nothing() -> None:
    verdict, found, _tells = _tags("gradient-vs-apply", SALADS[0])
    assert verdict == "incorrect" and not found


# The labelled reading: round 26's hinglish-code-switcher (in `tune` and `read` since round
# 27) was read as lists of terms in 52 of its 60 answers, exact 27 / 60 by the rules alone.
def test_the_labelled_hinglish_answers_are_read_as_statements() -> None:
    path = REPO_ROOT / "tests/grading/freetext_labelled/personas/hinglish-code-switcher.yaml"
    answers, _ = load_persona_answers(path)
    results = [
        (a, grade_freetext(question(a.question_id), a.answer, second_opinion=False))
        for a in answers
    ]
    lists = sum(bool(r.details["keyword_list"]) for _, r in results)
    exact = sum(r.verdict == a.verdict for a, r in results)
    assert len(results) == 60
    assert lists <= 5
    assert exact >= 36
