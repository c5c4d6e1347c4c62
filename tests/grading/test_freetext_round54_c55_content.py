"""Round 54 of issue 14 (engineer C55): an answer requirement, and rubric content of C55's questions.

Item 1: `persistent-is-free` ("a persistent tape costs nothing and never needs deleting") was named
on answers that never make the tape persistent: "the tape is cleaned up automatically", "nothing
special is needed afterwards" are true of a default tape (round 53, engineer C53: 64 of 79 such
namings over tune never said "persistent"). A claim's part written `!+(...)` is an answer
requirement (answer_guards.py): the claim is read only in an answer that speaks of it somewhere,
affirmed or denied; the clean-up and no-cost phrasings of the tag carry `!+(persistent)`
(docs/freetext-rounds.md "Round 54: ... (engineer C55)"). Statements written for this file, in
words of their own; read by the rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings, parse_claim
from app.grading.freetext.normalise import normalise
from app.packs.rubric import check_affirmative, check_patterns
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    assert_linear_on,
    misconception_of,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

REQUIRED = r"(tape|it) & (freed|cleaned up) & automatically & !+((?<!non-)persistent)"


@pytest.mark.parametrize(
    ("answer", "read"),
    [
        ("The tape is freed automatically.", False),
        ("Make the tape persistent. The tape is freed automatically.", True),
        ("The tape is freed automatically. Then use persistent=True for the second loss.", True),
        (
            "```python\nwith tf.GradientTape(persistent=True) as tape:\n    y = f(x)\n```\nThe tape is freed automatically.",
            True,
        ),
        # a requirement spoken of under a denial admits the claim: the denial may presuppose it
        ("You don't need to delete a persistent tape. The tape is freed automatically.", True),
        # its own words say which mentions do not count
        ("Use a non-persistent tape. The tape is freed automatically.", False),
    ],
)
def test_an_answer_requirement_admits_a_claim_only_where_the_answer_states_it(
    answer: str, read: bool
) -> None:
    assert bool(find_phrasings(normalise(answer).units, [REQUIRED], across=True)) is read


def test_an_answer_requirement_is_no_role_and_no_excluded_role() -> None:
    claim = parse_claim(REQUIRED + r" & !!(del\w*)")
    assert (len(claim.roles), len(claim.excluded)) == (3, 0)
    assert (claim.guards, claim.required) == (("((?<!non-)persistent)", r"(del\w*)"), (True, False))


@pytest.mark.parametrize(
    ("answer", "read"),
    [
        ("Make the tape persistent. The tape is freed automatically.", True),
        ("Make the tape persistent, then del it. The tape is freed automatically.", False),
        ("The tape is freed automatically, del it anyway.", False),
    ],
)
def test_a_requirement_and_a_guard_together(answer: str, read: bool) -> None:
    both = REQUIRED + r" & !!(\bdel\b)"
    assert bool(find_phrasings(normalise(answer).units, [both], across=True)) is read


def test_a_requirement_with_a_one_role_phrasing_reads_it_in_prose() -> None:
    ordered = r"(freed|cleaned up) ~ automatically & !+(persistent)"
    assert not find_phrasings(normalise("It is freed automatically.").units, [ordered])
    assert find_phrasings(
        normalise("Use persistent=True; it is freed automatically.").units, [ordered]
    )


@pytest.mark.parametrize(
    ("pattern", "complaint"),
    [
        (r"tape & freed & !+(persistent[)", "invalid answer requirement"),
        (r"tape & freed & !+(persistent)?", "empty answer"),
    ],
)
def test_an_answer_requirement_is_validated(pattern: str, complaint: str) -> None:
    for check in (check_affirmative, check_patterns):
        with pytest.raises(ValueError, match=complaint):
            check([pattern])


def test_a_valid_answer_requirement_loads() -> None:
    assert check_affirmative([REQUIRED]) == [REQUIRED]
    assert check_patterns([REQUIRED]) == [REQUIRED]


# Item 1, content: the belief said where the answer makes the tape persistent is named; the same
# words in an answer whose tape is a default one (their own fix a list target, two tapes, moving
# the call) name nothing (each named on this round's start, 2b712567).
PT = "persistent-tape"
FREE = "persistent-is-free"

STILL_NAMED = [
    (PT, FREE, "Use tf.GradientTape(persistent=True) for both losses. The tape is cleaned up automatically when the with block ends, nothing special to do."),
    (PT, FREE, "Pass persistent=True. Afterwards nothing special is needed, Python's garbage collector takes care of it."),
    (PT, FREE, "Make it persistent; there's no downside to that, and it goes away on its own."),
]  # fmt: skip

test_round54_persistent_is_free_named_beside_a_persistent_tape = names_the_tell(
    STILL_NAMED, tells=tells_by_rules
)

DEFAULT_TAPE = [
    (PT, "Pass both losses as a list: tape.gradient([loss1, loss2], vars). The tape is cleaned up automatically, nothing special to do."),
    (PT, "Open two tapes, one per loss. Afterwards nothing special is needed, Python's garbage collector takes care of it."),
    (PT, "Compute both gradients inside one call with a list target; the tape goes away on its own afterwards."),
    (PT, "A default tape is freed automatically after the first call, so call gradient once with both losses and there's no cost to clean up."),
    (PT, "Use two non-persistent tapes, one per loss; each is garbage collected automatically."),
]  # fmt: skip

test_round54_persistent_is_free_not_named_without_a_persistent_tape = names_nothing(
    DEFAULT_TAPE, tells=tells_by_rules
)


def test_round54_requirements_stay_linear_on_pumped_text() -> None:
    free = misconception_of(PT, FREE)
    required = [p for p in (*free.any, *free.negated) if "!+(" in p]
    assert len(required) >= 9  # round 55 (C57) adds three cost phrasings with the requirement
    assert_linear_on(
        required,
        [
            "non-persistent persistent tape freed automatically nothing special " * 200,
            "non-" * 2500,
        ],
    )
    pumped = ("you don't need a persistent tape, the tape is freed automatically " * 150)[:10_000]
    assert_linear(
        lambda text: find_phrasings(normalise(text).units, [REQUIRED], across=True), pumped
    )
    assert_grades_in_linear_time(PT, pumped)
