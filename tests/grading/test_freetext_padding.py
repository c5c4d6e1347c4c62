"""Issue 14, padding: a half-right answer with a tail of topic words appended must stay
partial. A clause-free stretch of prose with almost no sentence structure (no grammatical
glue, no inflected verb) is a run of terms (signals.is_padding): it earns no concept and
names no tell, whatever its shape; terse real statements keep their credit. Answers are
written for these tests, not copied from the labelled sets."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.signals import is_padding, without_padding
from tests.grading.core_questions import question

HALF_RIGHT = (
    "You don't need zero_grad in TensorFlow. In a training loop you just compute the loss "
    "under the tape and then move on to the next batch."
)
# Words a learned model weighs highly for this question (the padding benchmark's kind).
TOPIC_WORDS = "tape.gradient grad return nothing gradient list tensor accumulate variable"
PADDED = [
    f"{HALF_RIGHT} {TOPIC_WORDS}",  # a bare word list
    HALF_RIGHT + " " + ", ".join(TOPIC_WORDS.split()) + ".",  # a comma list
    HALF_RIGHT + " " + " ".join(w for w in TOPIC_WORDS.split() for _ in (0, 1)),  # repeated
    HALF_RIGHT + " Key terms: " + ", ".join(TOPIC_WORDS.split()) + ".",  # a pasted glossary
    HALF_RIGHT.rstrip(".") + " " + TOPIC_WORDS,  # glued to the last sentence, no full stop
    HALF_RIGHT + " Glossary: " + TOPIC_WORDS + " tape.gradient gradient gradient.",
]


def test_the_half_right_answer_is_partial_on_its_own() -> None:
    assert (
        grade_freetext(question("no-zero-grad"), HALF_RIGHT, second_opinion=False).verdict
        == "partial"
    )


@pytest.mark.parametrize("answer", PADDED)
def test_a_padded_half_right_answer_stays_partial(answer: str) -> None:
    result = grade_freetext(question("no-zero-grad"), answer, second_opinion=False)
    assert result.verdict == "partial", result.details


# Terse, list-like or code-first answers that are right: a short list after a clause, a
# bracketed list, notes with inflected verbs, arrows and colons keep their credit.
TERSE_CORRECT = [
    (
        "no-zero-grad",
        "Not needed. tape.gradient returns new gradient tensors each call; nothing accumulates on the variables, so nothing to reset.",
    ),
    (
        "no-zero-grad",
        "No. Each step records a new tape, tape.gradient returns fresh tensors, nothing accumulated anywhere.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient only computes the gradients and touches no weights. optimizer.apply_gradients applies the update rule to the variables.",
    ),
    # hurried typing: no capitals, no full stops, abbreviations
    (
        "no-zero-grad",
        "no need, tape.gradient gives back brand new grads every call nothing accumulates so nothing to zero",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient computes grads only, doesnt change weights. apply_gradients does the actual update w/ optimizer rule",
    ),
    (
        "persistent-tape",
        "normal tape frees resources after first gradient() call. persistent=True lets u call it multiple times eg GAN 2 losses, then del tape",
    ),
    (
        "persistent-tape",
        "Non-persistent tape: one gradient call, then resources released. persistent=True keeps it for several calls (two losses, GAN); del the tape afterwards to free memory.",
    ),
]


@pytest.mark.parametrize(("question_id", "answer"), TERSE_CORRECT)
def test_terse_correct_answers_stay_correct(question_id: str, answer: str) -> None:
    result = grade_freetext(question(question_id), answer, second_opinion=False)
    assert result.verdict == "correct", result.details


@pytest.mark.parametrize(
    ("segment", "padding"),
    [
        ("optimizer rule record respect chain update pass list", True),
        ("tape, loss, gradient, variables, optimizer, update", True),
        ("gradient gradient gradient tape tape tape", True),
        ("tape.gradient just returns values, no state touched", False),  # inflected verbs
        ("outer opens first, inner opens inside it", False),  # glue and verbs
        ("small MLPs, RNN cells", False),  # too short to judge
    ],
)
def test_is_padding_reads_sentence_structure(segment: str, padding: bool) -> None:
    assert is_padding(segment) is padding


def test_without_padding_keeps_the_claim_and_its_clause_marks() -> None:
    text = "Gains are largest for cheap ops (small MLPs, RNN cells): tape record chain update pass list overhead."
    assert without_padding(text) == "Gains are largest for cheap ops (small MLPs, RNN cells): ."
    glued = "It returns a value, the tape record chain update pass list overhead variable."
    assert without_padding(glued) == "It returns a value, the ."
    plain = "tape.gradient(loss, vars) returns the gradients."
    assert without_padding(plain) is plain  # untouched when nothing is padding


def test_padding_names_no_tell() -> None:
    answer = "Sum the gradients over four micro batches with tf.Variable accumulators and apply them once. TensorFlow accumulate gradients automatically tape.gradient apply_gradients fourth batch."
    result = grade_freetext(question("gradient-accumulation"), answer, second_opinion=False)
    assert result.misconceptions == []
    stated = "TensorFlow accumulates the gradients automatically between tape.gradient calls."
    assert grade_freetext(
        question("gradient-accumulation"), stated, second_opinion=False
    ).misconceptions == ["tape-accumulates"]
