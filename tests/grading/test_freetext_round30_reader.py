"""Round 30 of issue 14 (engineer M2): retractions, spoken framework names and claims across
sentences (round 29's "left" parts, docs/freetext-rounds.md "Round 30: retractions, spoken names
and claims across sentences (engineer M2)").

1. A retraction withdraws the claim it follows across a sentence of hesitation ("X. Hmm.
   Actually no, Y"), across an empty stretch after ";" ("X; actually no, scratch that; Y"), and
   in more words ("wait, that's backwards", "hmm, I had it the wrong way round").
2. Dictated names and API dots ("pie torch", "tense or flow", "care us", "tape dot gradient",
   "into dot grad", "comma") read as written ones; a framework named after a contrast that opens
   a clause of its own ("..., but in TensorFlow tape.gradient returns ...") is that clause's
   topic, not the statement's before it.
3. A comparison with more words before "in" ("..., the way they keep piling up in .grad in
   PyTorch") compares, it does not scope.
4. A sentence with its subject dropped ("The optimizer. Clears the gradients after applying
   them.") is read with the sentence before, as one opening on "It" is.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import clean
from app.grading.freetext.retraction import withdraw
from app.grading.freetext.subjects import dropped_subject
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # 2. a contrast that fronts the next clause's framework; a dictated API dot
    ("no-zero-grad", "tape-accumulates", "The tape accumulates gradients across steps, but in JAX every grad call starts fresh."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape dot gradient updates the weights directly."),
    # 4. a sentence with its subject dropped, read with the sentence before
    ("no-zero-grad", "optimizer-clears-grads", "The optimizer. Clears the gradients after applying them."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient computes the gradients. Also updates the weights."),
    ("gradient-vs-apply", "apply-returns-new-weights", "apply_gradients. Returns the new weights."),
    # 3. a comparison with more than three words before "in"
    ("no-zero-grad", "tape-accumulates", "The tape sums gradients across steps, the way they keep piling up in .grad in PyTorch."),
    ("no-zero-grad", "tape-accumulates", "The tape keeps adding the gradients up between steps, the same way they accumulate into .grad in PyTorch."),
]  # fmt: skip

CORRECT = [
    # 1. retractions
    ("gradient-vs-apply", "tape.gradient updates the weights. Hmm. Actually no, it only returns the gradients."),
    ("gradient-vs-apply", "tape.gradient updates the weights. Let me think. No wait, it only returns the gradients."),
    ("gradient-vs-apply", "tape.gradient updates the weights. Wait, that's backwards: apply_gradients updates them."),
    ("gradient-vs-apply", "tape.gradient updates the weights; no wait; it only returns the gradients."),
    ("gradient-vs-apply", "apply_gradients returns the new weights. Hmm, I had it the wrong way round: it updates the variables in place."),
    ("no-zero-grad", "You have to call zero_grad before each step; actually no, scratch that; every tape.gradient call returns fresh gradients."),
    # 2. a contrast that fronts the next clause's framework (the last, dictated, a guard)
    ("no-zero-grad", "In PyTorch gradients add up in .grad, so you have to zero them every step, but in TensorFlow every tape.gradient call returns new tensors."),
    ("no-zero-grad", "With torch the gradients accumulate across steps so you need zero_grad, whereas in TensorFlow each call starts fresh."),
    ("no-zero-grad", "With pi torch you must zero them each step, whereas in tense or flow every call to tape.gradient starts from nothing."),
    # guards: a dictated API dot and "assign add" are the imperative's, a plural noun opening a
    # sentence is its subject
    ("gradient-accumulation", "For each micro batch compute the loss inside a tape, get tape dot gradient and do assign add into the accumulator variables."),
    ("gradient-vs-apply", "tape.gradient returns the gradients. Changes to the weights happen in apply_gradients."),
    ("gradient-vs-apply", "tape.gradient returns the gradients. Updates are applied by apply_gradients to the weights."),
    # guards: a later mention that closes its clause still scopes the statement
    ("no-zero-grad", "Gradients accumulate across steps, but only in PyTorch."),
    ("no-zero-grad", "Gradients accumulate across steps, at least in PyTorch."),
]  # fmt: skip


test_grade_freetext_names_a_round30_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round30_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


@pytest.mark.parametrize(
    ("question_id", "text", "concept"),
    [
        ("no-zero-grad", "pie torch accumulates into dot grad but care us gives fresh gradients on each call.", "fresh-gradients"),
        ("no-zero-grad", "in pie torch gradients pile up into dot grad on each parameter so you have to clear them every step but in tensorflow tape dot gradient hands back new tensors each call.", "fresh-gradients"),
        ("gradient-vs-apply", "tape dot gradient returns the gradients comma it does not update the weights.", "gradient-no-update"),
    ],
)  # fmt: skip
def test_a_dictated_tensorflow_statement_credits_its_concept(
    question_id: str, text: str, concept: str
) -> None:
    assert concept in concepts_by_rules(question_id, text)


@pytest.mark.parametrize(
    ("spoken", "written"),
    [
        ("in pie torch you call it", "in pytorch you call it"),
        ("Pie-Torch and tense or flow", "pytorch and tensorflow"),
        ("care us wraps it", "keras wraps it"),
        ("tee eff dot function", "tf.function"),
        ("loss dot backward then optimizer dot step", "loss.backward then optimizer.step"),
        ("stored into dot grad", "stored into .grad"),
        ("it returns them comma not state", "it returns them, not state"),
        ("then do assign add into them", "then do assign_add into them"),
    ],
)
def test_dictated_names_read_as_written(spoken: str, written: str) -> None:
    assert clean(spoken)[0].lower() == written.lower()


@pytest.mark.parametrize(
    "text",
    [
        "a dot product of two vectors",
        "the comma-separated list",
        "the tensor dot product",
        "take care using it",
    ],
)
def test_words_that_only_sound_dictated_are_kept(text: str) -> None:
    assert clean(text)[0] == text


@pytest.mark.parametrize(
    ("sentences", "withdrawn"),
    [
        (["tape.gradient updates the weights.", "Hmm.", "Actually no, it returns them."], ["", "", "it returns them."]),
        (["A is true.", "Hold on.", "Let me think.", "No wait, B is."], ["", "", "", "B is."]),
        (["A is true; actually no, scratch that; B is."], ["B is."]),
        (["A is true; C holds; no wait; B is."], ["A is true; B is."]),
    ],
)  # fmt: skip
def test_a_retraction_reaches_the_claim_past_hesitation(
    sentences: list[str], withdrawn: list[str]
) -> None:
    assert withdraw(sentences) == withdrawn


@pytest.mark.parametrize(
    "sentences",
    [
        # three hesitations: too far back to know what is withdrawn
        ["A is true.", "Hmm.", "Wait.", "Um.", "Actually no, B is."],
        # a sentence with a claim between stops the reach
        ["A is true.", "C holds.", "Actually no, B is."],
        # "no" as a determiner after a hesitation is no marker
        ["A is true.", "Hmm.", "No zero_grad is needed."],
    ],
)
def test_a_retraction_does_not_reach_past_a_claim(sentences: list[str]) -> None:
    out = withdraw(sentences)
    assert out[0] == "A is true."


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("Clears the gradients after applying them.", True),
        ("Also updates the weights.", True),
        ("Returns the new weights.", True),
        ("Updates are applied by the optimizer.", False),
        ("Changes to the weights happen later.", False),
        ("Weights change only in apply_gradients.", False),
        ("Layers after the conversion are fine.", False),
        ("Update the weights yourself.", False),
        ("It updates the weights.", False),
    ],
)
def test_a_sentence_with_its_subject_dropped(sentence: str, dropped: bool) -> None:
    assert dropped_subject(sentence) is dropped


HOSTILE = {
    "dropped subjects": "Updates the weights. " * 480,
    "hesitations": "Hmm. " * 2_000,
    "hesitation then marker": ("X is true. Hmm. Wait. Actually no, " * 300)[:10_000],
    "empty stretches after semicolons": ("tape updates it; no wait; " * 400)[:10_000],
    "comparisons before a mention": (
        "it adds up, the way they keep piling up in .grad in PyTorch, " * 170
    )[:10_000],
    "contrast before a mention": ("it adds up, but in pie torch tape dot gradient comma " * 200)[
        :10_000
    ],
    "a long identifier after a mention": "gradients pile up, but in PyTorch" + "." * 9_960 + "x",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for question_id in ("no-zero-grad", "gradient-vs-apply"):
        assert_grades_in_linear_time(question_id, HOSTILE[name])
