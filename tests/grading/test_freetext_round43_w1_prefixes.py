"""Round 43 of issue 14 (engineer W1): three excluded roles that kept a longer word out by their
open end (docs/freetext-rounds.md "Round 43: the other framework's "which" clause, and three
prefix accidents (engineer W1)").

Round 42 (M14) closed an excluded role's end (claims.EXCLUDED_END) and listed three roles of the
core rubrics whose word is a prefix of a word the same rubric uses elsewhere
(scripts/labelling/excluded_prefixes.py): numpy-inside-tape `numpy-is-recorded`'s "rest"
(restore), persistent-tape `persistent-is-free`'s "del" (delete), why-none-gradients
`must-watch-variables`' "auto" and "tensors?" (autodiff, TensorFlow). Each was an accident; each
role now says itself where it ends, so it reads the same whatever the end claims.py gives it,
and the learner's own delete ("freed once you delete it", right) is kept out by name.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest
import regex

from app.grading.freetext.answer_guards import is_guard
from app.grading.freetext.claims import claim_parts
from tests.grading.core_questions import misconception_of, tells_by_rules

# (question, tag, the claim's opening, a word its excluded role means, the longer word it no
# longer keeps out)
WATCH = "watch\\w* & (variables?|"
ROLES = [
    ("numpy-inside-tape", "numpy-is-recorded", "(gradients?|grads?) & still &", "rest", "restore"),
    ("persistent-tape", "persistent-is-free", "(garbage[- ]?collect", "del", "delete"),
    ("why-none-gradients", "must-watch-variables", WATCH, "auto", "autodiff"),
    ("why-none-gradients", "must-watch-variables", WATCH, "tensors", "tensorflow"),
    ("why-none-gradients", "must-watch-variables", WATCH, "auto-watched", ""),
]


def _excluded_as_written(question_id: str, tag: str, opening: str) -> list[str]:
    """The claim's excluded roles as the YAML writes them, with no end added."""
    (claim,) = [p for p in misconception_of(question_id, tag).any if p.startswith(opening)]
    # round 54: an answer requirement `!+(...)` is no excluded role
    return [role[1:] for role in claim_parts(claim)[1] if not is_guard(role)]


@pytest.mark.parametrize(("question_id", "tag", "opening", "meant", "longer"), ROLES)
def test_the_role_as_written_ends_where_it_means_to(
    question_id: str, tag: str, opening: str, meant: str, longer: str
) -> None:
    roles = _excluded_as_written(question_id, tag, opening)
    word = regex.compile(r"\b(?:{})".format("|".join(roles)), regex.IGNORECASE)
    assert word.match(meant)
    if longer:
        assert not word.match(longer)


@pytest.mark.parametrize(
    ("question_id", "text", "tag"),
    [
        (
            "numpy-inside-tape",
            "Wrapping it in tf.constant restores the link, so the gradients are still computed.",
            "numpy-is-recorded",
        ),
        (
            "persistent-tape",
            "Python's garbage collector deletes it for you, so a persistent tape costs nothing.",
            "persistent-is-free",
        ),
        (
            "why-none-gradients",
            "TensorFlow's autodiff needs you to watch the weights explicitly.",
            "must-watch-variables",
        ),
        (
            "why-none-gradients",
            "In TensorFlow you need to watch the variables, or their gradients are None.",
            "must-watch-variables",
        ),
    ],
)
def test_the_belief_beside_the_longer_word_is_named(question_id: str, text: str, tag: str) -> None:
    assert tag in tells_by_rules(question_id, text)


@pytest.mark.parametrize(
    ("question_id", "text", "tag"),
    [
        (
            "numpy-inside-tape",
            "The gradients are still computed for the rest of the network.",
            "numpy-is-recorded",
        ),
        (
            "persistent-tape",
            "Python frees the tape's memory once you delete the last reference to it.",
            "persistent-is-free",
        ),
        (
            "persistent-tape",
            "The garbage collector cleans it up when you delete the tape.",
            "persistent-is-free",
        ),
        (
            "persistent-tape",
            "The garbage collector frees it only after del tape.",
            "persistent-is-free",
        ),
        (
            "why-none-gradients",
            "You must watch plain tensors; variables are auto-watched.",
            "must-watch-variables",
        ),
    ],
)
def test_what_the_role_means_to_keep_out_stays_out(question_id: str, text: str, tag: str) -> None:
    assert tag not in tells_by_rules(question_id, text)
