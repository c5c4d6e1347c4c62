"""Round 13 of issue 14 (the verdict line): an answer whose every credited concept is read
only in the words of the tell it states says the misconception and nothing of its own, so
it is incorrect, not partial (the tell's `partial` cap no longer leaves it partial credit).
A concept credited in a clause or sentence of its own keeps the answer partial, and an
answer with no tell is untouched.
"""

# ruff: noqa: E501 - tables of answers read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.fitting import Line, evidence_of, line_verdict
from tests.grading.core_questions import question

ONLY_THE_TELL = [
    ("tf-function-speedup", "tf.function speeds things up because it compiles your function with XLA.", "tf-function-is-xla"),
    ("tf-function-speedup", "tf.function makes training faster because it compiles the step into a graph that runs on the GPU instead of the CPU.", "tf-function-uses-gpu"),
    ("trainable-vs-all-variables", "model.variables also has the non-trainable variables, which are the hyperparameters like the learning rate and the number of epochs.", "non-trainable-are-hyperparameters"),
    ("gradient-accumulation", "Summing the four micro-batch gradients and applying the sum every 4 steps gives exactly the same update as one big batch of 256.", "summed-gradients-equal-big-batch"),
]  # fmt: skip

# Round 28 (engineer B): beside no required concept, a tell whose labelled answers without one
# are a sure incorrect is capped incorrect (tell_caps `without_required_core`): the first
# example without "small models gain the most" (required) is now incorrect, below; with it, partial.
CREDIT_OF_ITS_OWN = [
    ("tf-function-speedup", "tf.function traces the Python function into a graph, so the per-op Python overhead goes away, which is why small models with many tiny ops gain the most. It also compiles everything with XLA.", "tf-function-is-xla"),
    ("gradient-accumulation", "Keep tf.Variable accumulators of zeros and add each micro-batch's gradients into them. Summing the four gradients and applying the sum every 4 steps gives exactly the same update as one big batch of 256.", "summed-gradients-equal-big-batch"),
]  # fmt: skip


@pytest.mark.parametrize(("qid", "text", "tag"), ONLY_THE_TELL)
def test_credit_only_in_the_tells_words_is_incorrect(qid: str, text: str, tag: str) -> None:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    assert result.misconceptions == [tag]
    assert result.details["concepts_found"]  # the credit is still listed, as partly covered
    assert result.details["credit_is_the_tell"] is True
    assert result.verdict == "incorrect"
    assert any(f.message.startswith("Partly covered:") for f in result.feedback)


@pytest.mark.parametrize(("qid", "text", "tag"), CREDIT_OF_ITS_OWN)
def test_a_concept_credited_beside_the_tell_keeps_partial(qid: str, text: str, tag: str) -> None:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    assert result.misconceptions == [tag]
    assert result.details["credit_is_the_tell"] is False
    assert result.verdict == "partial"


# Round 35's retrain to round 41's: 5 of 7 answers stating tf-function-is-xla without the required
# core labelled incorrect, no sure share (a strict xfail then). Round 42's retrain after the merge:
# 6 of 8, sure again (tell_caps.json, without_required_core).
def test_concepts_of_their_own_without_the_required_one_follow_the_tells_precedent() -> None:
    text = "tf.function traces the Python function into a graph, so the per-op Python overhead goes away. It also compiles everything with XLA."
    result = grade_freetext(
        question("tf-function-speedup"), text, second_opinion=False, neighbours=False
    )
    assert result.misconceptions == ["tf-function-is-xla"]
    assert result.details["credit_is_the_tell"] is False
    assert result.verdict == "incorrect"


UNTOLD = "model.variables includes non-trainable variables such as BatchNorm's moving mean and variance, which the optimizer must not update, so you pass trainable_variables."


def test_an_answer_without_a_tell_is_untouched() -> None:
    result = grade_freetext(question("trainable-vs-all-variables"), UNTOLD, second_opinion=False)
    assert result.details["credit_is_the_tell"] is False
    assert result.verdict == "correct"


# Round 20's start (round 19's set in tune) lowered this one-sentence answer to partial (a
# strict xfail then); the second opinion retrained on round 21's rubrics (C) keeps it correct.
def test_the_second_opinion_keeps_an_answer_without_a_tell_correct() -> None:
    result = grade_freetext(question("trainable-vs-all-variables"), UNTOLD)
    assert result.verdict == "correct"


@pytest.mark.parametrize(("qid", "text", "tag"), ONLY_THE_TELL + CREDIT_OF_ITS_OWN)
def test_the_fitted_line_reads_the_same_verdict(qid: str, text: str, tag: str) -> None:
    """The evidence behind a result (what fitted lines and the second opinion read) gives
    the grader's own verdict under the rubric's line."""
    q = question(qid)
    result = grade_freetext(q, text, second_opinion=False, neighbours=False)
    evidence = evidence_of(q.rubric, result)
    assert line_verdict(q.rubric, evidence, Line.of(q.rubric)) == result.verdict
