"""Round 28 (issue 14): a phrasing search that cannot find anything is not run.

required_text.py reads what every match of a phrasing contains; inside an answer's budget a
search of a text without it returns nothing at once. It must never skip a search that would
have found something (the soundness test below, over every core phrasing), must read only
what it reads with certainty, and must leave the pack-time timing check (no budget) timing
the real search.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.grading.freetext.answer_guards import guard_phrasing, is_guard
from app.grading.freetext.budget import BoundedPattern, answer_budget, compile_bounded
from app.grading.freetext.claims import CLAIM_SEPARATOR, is_claim, word_edged
from app.grading.freetext.evaluation import core_labelled
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import compile_phrasing
from app.grading.freetext.required_text import may_match, required_text


@pytest.mark.parametrize(
    ("pattern", "required"),
    [
        ("tape records", ({"tape records"},)),
        ("gradients? (are|is) None", ({"gradient"}, {"are", "is"}, {" none"})),
        (r"\b(update|apply)\w* (the )?weights", ({"update", "apply"}, {"weights"})),
        ("(a|b|cd)x", ()),  # one-letter strings rule out nearly nothing
        ("(foo|bar baz)+ qux", ({"foo", "bar baz"}, {" qux"})),
        ("(foo)? bar", ({" bar"},)),
        ("foo{2,} bar", ({"foo"}, {" bar"})),
        ("foo{0,2}bar", ({"fo"}, {"bar"})),
        ("(?<!not )watch(?=ed)", ({"watch"},)),  # lookarounds require nothing
        ("(foo|)bar", ({"bar"},)),  # an empty alternative
        ("foo|bar", ({"foo", "bar"},)),
        ("foo|[a-z]+", ()),
        (r"tape\.gradient\(", ({"tape.gradient("},)),
        ("GradientTape", ({"gradienttape"},)),
        ("caf\u00e9s", ({"caf"},)),  # a non-ASCII letter is no literal
    ],
)
def test_a_phrasing_requires_what_every_match_contains(
    pattern: str, required: tuple[set[str], ...]
) -> None:
    found = required_text(pattern)
    assert sorted(map(sorted, found)) == sorted(map(sorted, required))


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?x)tape records",  # whitespace is no literal
        r"(?i:tape) records",
        r"(?P<name>tape) records",
        r"(?>tape) records",
        r"tape\x20records",
        r"\p{L}+ records",
        r"(tape) \1",
        r"[[:alpha:]]+ records",  # a POSIX class in a set
        r"(?:tape){e<=1} records",  # regex's fuzzy matching
        r"tape) records",
        r"(tape records",
        "tape records\\",  # a trailing backslash
    ],
)
def test_a_construct_not_read_with_certainty_requires_nothing(pattern: str) -> None:
    assert required_text(pattern) == ()


def test_non_ascii_text_is_always_searched() -> None:
    # regex's case-insensitive matching folds "\u212a" (Kelvin) to "k": str.lower does not
    assert may_match((("keras",),), "\u212aeras", 0, 5)
    assert not may_match((("keras",),), "Kera", 0, 4)
    assert not may_match((("keras",),), "use Keras", 0, 6)  # outside the range
    assert may_match((("keras",),), "use Keras", 4, 9)


class _Counted:
    """A compiled pattern's stand-in that counts its searches."""

    def __init__(self, pattern: str) -> None:
        self.real = compile_bounded(pattern).compiled
        self.pattern, self.flags, self.calls = pattern, self.real.flags, 0

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.real.search(*args, **kwargs)


def test_inside_a_budget_a_search_that_cannot_match_is_not_run() -> None:
    counted = _Counted("(gradient|derivative) tape")
    bounded = BoundedPattern(counted)
    with answer_budget():
        assert bounded.search("the optimizer applies the update") is None
        assert counted.calls == 0
        assert bounded.search("the gradient tape records") is not None
        assert counted.calls == 1


def test_the_timing_check_searches_whatever_the_text() -> None:
    counted = _Counted("(gradient|derivative) tape")
    assert BoundedPattern(counted).search("aaaa") is None  # no budget: the real cost
    assert counted.calls == 1


def _core_patterns() -> list[BoundedPattern]:
    """Every expression the grader searches for the core pack, as it compiles them."""
    core = core_labelled()
    found: dict[str, BoundedPattern] = {}
    for item in core.pack.questions:
        rubric = getattr(item.question, "rubric", None)
        for entry in [*rubric.concepts, *rubric.misconceptions] if rubric else []:
            for phrasing in [*entry.any, *entry.negated]:
                roles = CLAIM_SEPARATOR.split(phrasing) if is_claim(phrasing) else [phrasing]
                for role in roles:
                    if is_guard(role):  # `!!(...)` and, since round 54, `!+(...)`
                        role = "!" + guard_phrasing(role)
                    compiled = compile_phrasing(role.lstrip("!"), not role.startswith("!"))
                    found[compiled.pattern] = compiled
                    if is_claim(phrasing):
                        edged = word_edged(compiled)
                        found[edged.pattern] = edged
    return list(found.values())


def _searched(answer: str) -> str:
    """An answer as the whole-answer search reads it: each unit and its lemma twin, a line each."""
    units = normalise(answer).units
    return "\n".join(text for u in units for text in (u.text, u.lemmas) if text)


def test_no_core_phrasing_match_is_skipped_on_tune_answers() -> None:
    core = core_labelled()
    tune = [a for a in core.answers if (a.persona or "original") in core.sides.tune]
    texts = [_searched(a.answer) for a in random.Random(28).sample(tune, 40)]
    patterns = _core_patterns()
    assert sum(bool(p.required) for p in patterns) > 0.9 * len(patterns)
    skipped = [
        (p.pattern, text)
        for text in texts
        for p in patterns
        if not may_match(p.required, text, 0, len(text)) and p.compiled.search(text)
    ]
    assert skipped == []
