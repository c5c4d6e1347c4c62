"""Round 36 of issue 14 (engineer M8): matcher causes left by round 35 (docs/freetext-rounds.md
"Round 36: matcher causes left by round 35 (engineer M8)").

1. A comma-less consequence read after a condition that is not the clause's first word ("...
   and if you never clear them they ..."), after a when-clause, after a premise of absence
   ("without tape.reset() the gradients ..."), and after a particle that closes the
   condition's verb ("zero them out the gradients ..."): the condition's denial denies its
   verb, not the consequence (conditions.consequence_start).
2. The openers' look-aheads read the words that open the match (before, they stopped at the
   match's start), and a match that takes the condition's object ("without it the tape ...",
   read from "it") is read from the consequence's words.
3. An answer guard `!!(...)`: a claim not read in an answer that states the guard, affirmed,
   anywhere (answer_guards.py).

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings, parse_claim
from app.grading.freetext.conditions import consequence_start
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import mask
from app.packs.rubric import check_affirmative
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

WRONG = [
    # 1. an if-clause after "and", a when-clause, a particle, a premise of absence
    ("no-zero-grad", "tape-accumulates", "The buffers are plain variables and if you never clear them they keep adding up across steps."),
    ("no-zero-grad", "tape-accumulates", "When you don't wipe the buffers they keep piling up across steps."),
    ("no-zero-grad", "tape-accumulates", "If you don't zero them out the gradients keep accumulating across steps."),
    # 2. the match takes the condition's object: "it" is training=True, the claim is the tape's
    ("training-flag", "training-flag-enables-gradients", "Without it the tape doesn't see the layer ops."),
    # guards: read before this round too
    ("no-zero-grad", "tape-accumulates", "Without tape.reset() the gradients would pile up across steps."),
    ("no-zero-grad", "tape-accumulates", "If you don't clear it the old gradients get added to the new ones."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "When you call tape.gradient the gradients do not accumulate across steps."),
    ("no-zero-grad", "Without any reset the gradients never accumulate across steps."),
    ("no-zero-grad", "And if you never reset it the tape still gives fresh gradients every step."),
    ("no-zero-grad", "When you don't call zero_grad nothing piles up, because every tape.gradient call returns new tensors."),
]  # fmt: skip

test_grade_freetext_round36_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round36_tell = names_the_tell(WRONG, tells=tells_by_rules)


def test_a_premise_of_absence_denies_its_object_not_the_consequence() -> None:
    # "without zero_grad" denies zero_grad; the piling up is stated, so it credits neither
    # the reset's being unneeded nor fresh gradients
    concepts = concepts_by_rules("no-zero-grad", "Without zero_grad the gradients would pile up.")
    assert not {"not-needed", "fresh-gradients"} & set(concepts)


def test_a_consequence_after_a_joined_condition_keeps_its_own_denial() -> None:
    text = "And if you never reset it the tape still gives fresh gradients every step."
    assert "fresh-gradients" in concepts_by_rules("no-zero-grad", text)


@pytest.mark.parametrize(
    ("sentence", "word", "opens"),
    [
        (
            "if you don't reset it the tape keeps them",
            "the tape",
            "the tape",
        ),  # look-ahead at the match
        ("if you don't zero them out the sums grow", "sums", "the sums"),
        ("when you don't reset the buffers they keep adding", "they", "they"),
        ("so and if you never clear them they keep adding", "they", "they"),
        (
            "without it the tape doesn't see the ops",
            "it the tape",
            "it the tape",
        ),  # runs into the match
        # guards: no condition, or the match inside the condition
        ("the tape is yours and you don't reset it they keep adding", "they", None),
        ("if you don't reset the tape it keeps them", "reset", None),
    ],
)
def test_consequence_start(sentence: str, word: str, opens: str | None) -> None:
    masked = mask(sentence)
    found = consequence_start(masked, masked.index(word))
    assert found == (-1 if opens is None else masked.index(opens))


GUARDED = r"(summed|sum|total) & (gradients?|grads?) & (big|full|large) batch & !!(divid\w*|averag\w*|mean)"


@pytest.mark.parametrize(
    ("answer", "read"),
    [
        ("The summed gradients equal the big batch gradient.", True),
        (
            "The summed gradients equal the big batch gradient. Then divide by four before applying.",
            False,
        ),
        (
            "The summed gradients equal the big batch gradient.\n\n```python\ng = g / 4  # average\n```",
            False,
        ),
        # a denied guard states the belief: it guards nothing
        ("The summed gradients equal the big batch gradient, no division needed.", True),
        ("The summed gradients equal the big batch gradient, without averaging anything.", True),
    ],
)
def test_an_answer_guard_keeps_a_claim_out_of_an_answer_that_states_it(
    answer: str, read: bool
) -> None:
    assert bool(find_phrasings(normalise(answer).units, [GUARDED], across=True)) is read


def test_an_answer_guard_is_no_excluded_role_and_no_content() -> None:
    claim = parse_claim(GUARDED)
    assert (len(claim.roles), len(claim.excluded), claim.guards) == (
        3,
        0,
        (r"(divid\w*|averag\w*|mean)",),
    )
    # a guard's words are not the claim's own: "!!(not ...)" would be no negation either
    assert check_affirmative([GUARDED + r" & !!(not averaged)"])


HOSTILE = {
    "joined conditions": ("and if you never clear them they keep adding up " * 220)[:10_000],
    "absence": ("without tape.reset() the gradients would pile up " * 220)[:10_000],
    "particles": ("if you don't zero them out the gradients keep growing " * 200)[:10_000],
    "guard": ("the summed gradients equal the big batch gradient no division " * 170)[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for qid in ("no-zero-grad", "gradient-accumulation", "training-flag"):
        assert_grades_in_linear_time(qid, HOSTILE[name])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_consequence_start_is_linear(name: str) -> None:
    """One search over the clause up to the match: a match near the end of a text that is one
    clause costs its length (a match every few words in such a clause costs the square; the
    grader's cut and budget bound that, test_new_shapes_grade_in_linear_time)."""

    def read(text: str) -> None:
        masked = mask(text)
        for start in range(max(0, len(masked) - 500), len(masked), 50):
            consequence_start(masked, start)

    assert_linear(read, HOSTILE[name], what=name)


def test_an_answer_guard_is_linear() -> None:
    assert_linear(
        lambda text: find_phrasings(normalise(text).units, [GUARDED], across=True), HOSTILE["guard"]
    )
