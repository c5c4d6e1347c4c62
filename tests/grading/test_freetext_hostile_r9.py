"""Hostile answers (issue 14, round 9): benchmarks/freetext_hostile.py's battery graded on
every core question, words in random order (signals.is_word_salad), and tells hidden
behind lookalike letters or bidi controls (normalise.clean). Instructions to the grader:
test_freetext_injections_r9.py."""

from __future__ import annotations

import random
import re
from types import ModuleType

import pytest

from app.grading.freetext import grade_freetext, stated_misconceptions
from app.grading.freetext.evaluation import core_labelled
from app.grading.freetext.normalise import clean, normalise
from app.grading.freetext.signals import is_keyword_list, is_word_salad
from tests.grading.benchmark_scripts import load_benchmark
from tests.grading.core_questions import free_text_ids, question

CORE_IDS = free_text_ids()


def _benchmark() -> ModuleType:
    return load_benchmark("freetext_hostile.py", "freetext_hostile")


HOSTILE = _benchmark()
# Shapes once left graded correct (a LEFT set of strict xfails): round 9's random words of
# higher-order-derivatives' model answer (read since round 10: doubled words, negation pairs);
# round 37 left the benchmark's 60-word keyword shuffle (words of the model answer in random
# order, one sentence) graded correct on three questions; round
# 38 reads it by its word order (signals.is_out_of_order), and the set and its test are gone.


@pytest.mark.parametrize("question_id", CORE_IDS)
def test_no_hostile_shape_is_graded_correct(question_id: str) -> None:
    q = question(question_id)
    shapes = HOSTILE.shapes(q)
    correct = [
        name
        for name, text in shapes.items()
        if name not in HOSTILE.TRUE_ANSWER and grade_freetext(q, text).verdict == "correct"
    ]
    assert correct == []


def _salad(question_id: str, seed: int, articles: bool = True) -> str:
    model = question(question_id).rubric.model_answer
    vocab = [
        w
        for w in re.findall(r"[A-Za-z_][\w.]*", model)
        if articles or w.lower() not in ("the", "a", "an")
    ]
    rng = random.Random(seed)
    return " ".join(rng.choice(vocab) for _ in range(900))[:5_000]


@pytest.mark.parametrize("question_id", CORE_IDS)
def test_model_answer_words_in_random_order_are_a_keyword_list(question_id: str) -> None:
    normalised = normalise(_salad(question_id, seed=9))
    assert is_word_salad(normalised) and is_keyword_list(normalised)
    result = grade_freetext(question(question_id), _salad(question_id, seed=9))
    assert result.verdict == "incorrect" and result.details["keyword_list"]


@pytest.mark.parametrize(
    "text",
    [
        "the, tape, is, not, a, gradient, of, the, loss, and, the, with, block, the, is, to",
        "The. Tape. Is. The. Gradient. Of. A. Loss. To. The. Of. In. The. And. A. Is.",
    ],
)
def test_function_words_out_of_place_in_lists_and_sentences_are_salad(text: str) -> None:
    assert is_word_salad(normalise(text * 3))


def test_no_labelled_answer_is_word_salad() -> None:
    core = core_labelled()
    assert [a for a in core.answers if is_word_salad(normalise(a.answer))] == []


def test_a_topic_word_repeated_twice_is_padding_not_salad() -> None:
    text = "You don't need zero_grad. " + " ".join(
        w for w in ["tape", "grad", "list", "tensor", "variable"] for _ in (0, 1)
    )
    assert not is_word_salad(normalise(text))


TELL = "tape.gradient updates the weights."


@pytest.mark.parametrize(
    "disguised",
    [
        TELL.replace("a", "\u0430").replace("e", "\u0435"),  # Cyrillic а, е inside Latin words
        TELL.replace("o", "\u03bf").replace("p", "\u0440"),  # Greek ο, Cyrillic р
        re.sub(
            r"\w+", lambda m: f"\u202a\u2066{m.group()}\u2069\u202c", TELL
        ),  # bidi embeddings, isolates
        "\u202e" + TELL + "\u202c",  # right-to-left override
        TELL.replace("dat", "d\u2063a\u2064t"),  # invisible separator, invisible plus
    ],
)
def test_a_tell_behind_lookalikes_or_bidi_controls_is_named(disguised: str) -> None:
    q = question("gradient-vs-apply")
    assert stated_misconceptions(TELL, q.rubric.misconceptions)  # the plain tell is one
    assert stated_misconceptions(disguised, q.rubric.misconceptions)


@pytest.mark.parametrize("word", ["правильно", "λ", "naïve", "Ωmega", "café"])
def test_words_in_one_script_keep_their_letters(word: str) -> None:
    assert clean(f"It is {word}.")[0] == f"It is {word}."
