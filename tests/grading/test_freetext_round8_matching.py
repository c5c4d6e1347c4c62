"""Round 8 of issue 14: a claim read across a pronoun object, roles that end at a word
edge, and the record/track lexicon group (claims.py, lexicon.py). Each rule also has the
case it must leave alone."""

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.lexicon import GROUPS
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import question

RECORDS_NUMPY = "(tape|it) & (records?|tracks?) & numpy"


def _affirmed(text: str, pattern: str) -> list[bool]:
    return [h.affirmed for h in find_phrasings(normalise(text).units, [pattern])]


def test_clause_with_pronoun_object_takes_role_from_clause_before() -> None:
    text = "TF converts the numpy result back, and the tape can still track it."
    assert _affirmed(text, RECORDS_NUMPY) == [True]


@pytest.mark.parametrize(
    "text",
    [
        # a contrast parts the clauses
        "TF converts the numpy result back, but the tape cannot track it.",
        # the clause before denies something: its words are no antecedent to assert
        "It is not numpy that matters, the tape will track it anyway.",
    ],
)
def test_pronoun_object_does_not_join_across_contrast_or_denial(text: str) -> None:
    assert _affirmed(text, RECORDS_NUMPY) == []


def test_role_alternative_backtracks_to_a_whole_word() -> None:
    # the widened role (records?|...|record\w*) first matches "record" inside "recorded"
    assert _affirmed("The tape recorded the numpy calls.", RECORDS_NUMPY) == [True]


def test_record_and_track_are_one_lexicon_group_in_grading() -> None:
    assert GROUPS[0] == ("record", "track")  # round 15 adds the keep group; round 16: lemmas
    assert _affirmed("The tape tracks the numpy calls.", "tape ~ records? ~ numpy") == [True]
    assert _affirmed("The tape keeps the numpy calls.", "tape ~ records? ~ numpy") == []


@pytest.mark.parametrize(
    ("qid", "text", "tags"),
    [
        (
            "no-zero-grad",
            "TensorFlow handles that for you: apply_gradients wipes them once it has used them.",
            ["optimizer-clears-grads"],
        ),
        (
            "no-zero-grad",
            "TensorFlow handles that for you, but apply_gradients never wipes them.",
            [],
        ),
        (
            "no-zero-grad",
            "tape.gradient returns fresh gradients every step, and nothing needs to reset them.",
            [],
        ),
        (
            "numpy-inside-tape",
            "The numpy call leaves TensorFlow, so the tape cannot record it: the gradient is None.",
            [],
        ),
    ],
)
def test_core_rubrics_read_pronoun_objects(qid: str, text: str, tags: list[str]) -> None:
    result = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    assert result.misconceptions == tags


@pytest.mark.parametrize(
    ("text", "foreign"),
    [
        ("In PyTorch, you reset the gradients every step.", True),  # the topic, before
        ("You reset the gradients every step, at least in PyTorch.", True),  # scoped after
        ("You reset the gradients yourself, so PyTorch users feel at home.", False),
        ("TF resets the gradients for you, unlike PyTorch.", False),  # a comparison
    ],
)
def test_framework_named_later_sets_no_topic_unless_it_scopes(text: str, foreign: bool) -> None:
    hits = find_phrasings(normalise(text).units, ["resets? ~ (the )?gradients"])
    assert [h.foreign for h in hits] == [foreign]
