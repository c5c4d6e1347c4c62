"""Short keyword shuffles read by their word order (round 38, engineer S1): signals.is_out_of_order
and word_order.py. Round 37 left 60 words of a model answer in random order graded correct."""

from __future__ import annotations

import random
import re

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.evaluation import core_labelled
from app.grading.freetext.normalise import normalise
from app.grading.freetext.signals import is_keyword_list, is_out_of_order, without_padding
from app.grading.freetext.word_order import order_score, tokens
from tests.grading.benchmark_scripts import load_benchmark
from tests.grading.core_questions import free_text_ids, question

HOSTILE = load_benchmark("freetext_hostile.py", "freetext_hostile")
ROUND_37_LEFT = ["gradient-accumulation", "no-zero-grad", "tf-function-speedup"]


def _prose(text: str) -> list[str]:
    return [u.text for u in normalise(text).units if not u.is_code]


def _shuffle(question_id: str, seed: int, length: int = 60) -> str:
    vocab = re.findall(r"[A-Za-z_][\w.]*", question(question_id).rubric.model_answer)
    return " ".join(random.Random(seed).sample(vocab, length)) + "."


@pytest.mark.parametrize("question_id", free_text_ids())
def test_the_hostile_60_word_shuffle_is_not_graded_correct(question_id: str) -> None:
    """Round 37 left it graded correct on three questions. Its words carry the model answer's
    full stops, so some draws are cut into sentences too short to judge alone (partial then)."""
    q = question(question_id)
    text = HOSTILE.shapes(q)["60-word keyword shuffle"]
    assert grade_freetext(q, text).verdict != "correct"


# Shuffles of the model answer itself (its full stops kept, so some draws fall into short
# sentences): left by the lead at the merge, tf-function-speedup's still graded correct in 5 of 10
# draws (seeds 0-9; scores near zero, well above the line for 60 words), gradient-accumulation's
# and no-zero-grad's in 0 and 1 of 10. Round 39 (engineer S2): the long-run reading takes
# tf-function-speedup's to 3 of 10 (seeds 0, 2, 9); seeds 0 and 2 are left: their long runs
# (35 and 54 pairs) score +0.04 and -0.07, above the line - this model answer's words are mostly
# nouns, and two nouns in a row are English to a table of word classes whatever the nouns are.
STILL_CORRECT = {("tf-function-speedup", 0), ("tf-function-speedup", 2)}


@pytest.mark.parametrize(
    ("question_id", "seed"),
    [
        pytest.param(
            q,
            seed,
            marks=[pytest.mark.xfail(strict=True, reason="rounds 38-39: still correct")]
            if (q, seed) in STILL_CORRECT
            else [],
        )
        for q in ROUND_37_LEFT
        for seed in (0, 1, 2)
    ],
)
def test_a_60_word_shuffle_of_the_model_answer_is_not_graded_correct(
    question_id: str, seed: int
) -> None:
    assert grade_freetext(question(question_id), _shuffle(question_id, seed)).verdict != "correct"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_shuffle_sentence_inside_an_answer_is_cut_as_padding(seed: int) -> None:
    shuffle = _shuffle("gradient-accumulation", seed)
    assert not is_keyword_list(normalise(shuffle[:40]))  # too short alone to judge
    assert without_padding(shuffle).strip(" .") == ""


def test_function_words_listed_between_commas_are_out_of_order() -> None:
    assert is_out_of_order(["tape, the, gradient, of, loss, is, variables, to, apply, a, step"])
    assert not is_out_of_order(["the tape, the variables, the loss and the optimizer, in order"])


@pytest.mark.parametrize("question_id", [*ROUND_37_LEFT, "why-none-gradients"])
def test_model_answers_read_in_order(question_id: str) -> None:
    model = question(question_id).rubric.model_answer
    score, pairs = order_score([tokens(c) for c in _prose(model)])
    assert pairs >= 20 and score > 0.3  # real prose sits well above zero
    assert not is_out_of_order(_prose(model))


def _with_odd_pairs(text: str, odd: str) -> str:
    words = text.split()
    for at in (len(words) // 4, len(words) // 2, 3 * len(words) // 4):
        words.insert(at, odd)
    return " ".join(words)


@pytest.mark.parametrize("question_id", ROUND_37_LEFT)
def test_a_correct_answer_with_a_few_odd_pairs_stays_correct(question_id: str) -> None:
    q = question(question_id)
    assert grade_freetext(q, _with_odd_pairs(q.rubric.model_answer, "the of")).verdict == "correct"
    # Nine odd pairs are word salad (is_word_salad, round 9), but no pair weighs more than
    # word_order.PAIR_FLOOR in the order's mean: a few typos never make a real answer a shuffle.
    assert not is_out_of_order(_prose(_with_odd_pairs(q.rubric.model_answer, "the the of and")))


def test_no_tune_answer_is_out_of_order() -> None:
    """Non-native, hurried, lowercase, bullet-note and spoken answers are all in tune."""
    flagged = [a.source for a in core_labelled().tune_answers if is_out_of_order(_prose(a.answer))]
    assert flagged == []


def test_a_run_of_one_mark_is_one_mark() -> None:
    """The hostile battery's true answer inside 1,200 brackets reads as the answer."""
    model = question("gradient-accumulation").rubric.model_answer
    assert not is_out_of_order(_prose("(" * 1_200 + model + ")" * 1_200))
