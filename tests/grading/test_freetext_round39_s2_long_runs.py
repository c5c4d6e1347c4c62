"""Keyword shuffles read by their long runs, and padding graded on what the cut leaves (round 39,
engineer S2): word_order.long_run_score, signals.is_out_of_order and is_keyword_list. Round 38
left 44 of benchmarks/freetext_shuffles.py's 960 shuffles graded correct by the rules."""

from __future__ import annotations

import re

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.evaluation import core_labelled
from app.grading.freetext.normalise import normalise
from app.grading.freetext.signals import (
    LONG_RUN_FLOOR,
    LONG_RUN_SPREAD,
    LONG_RUN_WORDS,
    MIN_LONG_RUN_PAIRS,
    MIN_PADDING_WORDS,
    SEGMENT_BREAK,
    is_keyword_list,
    is_out_of_order,
)
from app.grading.freetext.word_order import long_run_score, tokens
from tests.grading.core_questions import free_text_ids, question

# Shuffles the rules graded correct at the round's start (benchmarks/freetext_shuffles.py --seeds 3,
# as drawn at 71e243a; question, vocabulary, length, shape, seed), written out so that new rubric
# phrasings cannot redraw them.
LEFT_BY_ROUND_38 = {
    ("gradient-accumulation", "phrasings", 60, "plain", 0): (
        "average gradient step them gradient num_a to average scalaone a gradient accumulat next "
        "four add that assign buffer gradient gradient_accumulation_steps tf.zeros_like a "
        "gradient cumulative accum step of variable list grad the in gradient variable "
        "gradient_accumulation_steps averagingaacross zip start gradient per "
        "gradient_accumulation_steps true clear total end It per of iteration quarter is at add "
        "microbatch assign_add lists gradient once accumulate reset."
    ),
    ("tf-function-speedup", "model answer", 60, "plain", 0): (
        "Python by is gain spent then tf.function a eager graph many is graph step so step traces "
        "Python time made the executes small where that is and In operations overhead in the can "
        "op overhead fusing Python multiplications largest the or the large ops models disappears "
        "graph per and for every TensorFlow one. dominates so operation of models dispatches "
        "pruning."
    ),
    ("tf-function-speedup", "model answer", 60, "sentences", 1): (
        "Big graph graph In disappears the multiplications. By the models is TensorFlow for gain "
        "ops The the matrix step the one. compiled in mode of large whole Python then small "
        "operation traces where so gain made dominates optimise per Python of op once largest the "
        "or many small step time that spent tf.function Python for is the into eager steps."
    ),
    ("trainable-vs-all-variables", "phrasings", 60, "sentences", 2): (
        "Gradient true trainable false the layer update true freezed are optimizer alone moving "
        "nontrainable apply_gradients in update is in via that variable update It with leave "
        "variable is trainable is ones trainable_variables updating is It learned should is order "
        "learned It running by updat must updated is It descent bn what that It how only be that "
        "gradient. Not true."
    ),
    ("why-none-gradients", "model answer", 120, "plain", 1): (
        "Almost records the None is closed. the or context tape.gradient has the output there "
        "compute tape.gradient disconnected block them. the loss to call is model returns the "
        "variables for loss from so back forward only with loss and and of to with computed after "
        "recording open each the fix tape the its trainable whole always the pass the path is "
        "executed both it. recorded the while then is loss The inside is tf.GradientTape "
        "operations from The no after block computed context the block open tape.gradient or "
        "executed tape tape.gradient so The returns is recorded for its from disconnected the "
        "back while operations the the closed. forward variables always None trainable both "
        "tf.GradientTape only inside pass Almost loss there to loss."
    ),
}
# A shuffle whose long sentence the padding cut takes, leaving two pieces too short to read: a
# first version of the cut (what is left read at any length) raised it from incorrect to partial.
SHORT_LEFTOVERS = (
    "decay increments on any optimizer each it assigns some the variable. the gradients values. a "
    "optimizer.apply_gradients respect for variable rule any and tape.gradient some weight loss "
    "any not walks from of Adam an clipping same each no moments any update the all gradient any "
    "from."
)
RIGHT = "The loss is computed outside the tape block. Move the loss inside the block."


def _prose(text: str) -> list[str]:
    return [u.text for u in normalise(text).units if not u.is_code]


def _long_runs_out_of_order(clauses: list[str]) -> bool:
    score, pairs = long_run_score([tokens(c) for c in clauses], LONG_RUN_WORDS)
    return pairs >= MIN_LONG_RUN_PAIRS and score < LONG_RUN_FLOOR - LONG_RUN_SPREAD / pairs**0.5


@pytest.mark.parametrize("key", list(LEFT_BY_ROUND_38), ids=lambda k: "-".join(map(str, k)))
def test_a_shuffle_left_by_round_38_is_a_keyword_list_by_its_long_runs(
    key: tuple[str, str, int, str, int],
) -> None:
    text = LEFT_BY_ROUND_38[key]
    assert _long_runs_out_of_order(_prose(text))
    assert is_keyword_list(normalise(text))
    assert grade_freetext(question(key[0]), text).verdict == "incorrect"  # learned parts too


def test_long_runs_are_only_the_runs_of_enough_words() -> None:
    short = "The tape records the forward pass. Then it returns the gradients, one per variable."
    assert long_run_score([tokens(c) for c in _prose(short)], LONG_RUN_WORDS) == (0.0, 0)
    words = "the tape records every operation on watched variables while the forward pass runs"
    one_run = f"{words} and {words}."  # 27 words without a mark: 28 pairs
    assert long_run_score([tokens(one_run)], LONG_RUN_WORDS)[1] == 28


def _odd(text: str, odd: str) -> str:
    words = text.split()
    for at in (len(words) // 4, len(words) // 2, 3 * len(words) // 4):
        words.insert(at, odd)
    return " ".join(words)


@pytest.mark.parametrize("question_id", free_text_ids())
def test_a_model_answer_as_one_long_run_reads_in_order(question_id: str) -> None:
    """Every mark taken out, the model answer is one run of 70-110 words: still English, and
    with a few odd pairs ("the of") too - a real answer is never made a shuffle by a few typos."""
    run = re.sub(r"[.,;:!?()]", " ", question(question_id).rubric.model_answer)
    assert not is_out_of_order(_prose(run))
    assert not is_out_of_order(_prose(_odd(run, "the of")))


def test_no_tune_answer_nor_padding_segment_has_long_runs_out_of_order() -> None:
    """Counts only: the whole prose and every segment the padding cut reads (is_padding)."""
    flagged = 0
    for answer in core_labelled().tune_answers:
        prose = _prose(answer.answer)
        segments = [s for p in prose for s in SEGMENT_BREAK.split(p)]
        read = [prose] + [[s] for s in segments if len(s.split()) >= MIN_PADDING_WORDS]
        flagged += any(_long_runs_out_of_order(r) for r in read)
    assert flagged == 0


def test_a_right_answer_with_a_pumped_run_is_graded_on_what_the_cut_leaves() -> None:
    """Round 38 made the whole answer a keyword list by its order; the pumped run is cut as
    padding now and the answer graded on the rest (no budget reached: nothing pumped is read)."""
    q = question("why-none-gradients")
    pumped = q.rubric.model_answer + " And the tape " + "the tape " * 400 + "ends here."
    result = grade_freetext(q, pumped)
    assert not result.details["keyword_list"] and "stopped_early" not in result.details
    assert result.verdict == grade_freetext(q, q.rubric.model_answer).verdict == "correct"


# why-none-gradients' 120-word shuffle carries the model answer's full stops: pieces too short to
# cut stay, out of order, and the whole stays a keyword list (94 of 360 such draws).
APPENDED = [k for k in LEFT_BY_ROUND_38 if k[0] != "why-none-gradients"]


@pytest.mark.parametrize("key", APPENDED, ids=lambda k: "-".join(map(str, k)))
def test_a_model_answer_with_a_shuffle_appended_is_graded_on_the_answer(
    key: tuple[str, str, int, str, int],
) -> None:
    q = question(key[0])
    result = grade_freetext(q, q.rubric.model_answer + " " + LEFT_BY_ROUND_38[key])
    assert not result.details["keyword_list"]
    assert result.verdict == "correct"


def test_a_shuffle_whose_cut_leaves_too_little_to_read_stays_a_keyword_list() -> None:
    assert is_keyword_list(normalise(SHORT_LEFTOVERS))
    assert grade_freetext(question("gradient-vs-apply"), SHORT_LEFTOVERS).verdict == "incorrect"
