"""The matcher's own patterns and loops stay linear, and read what they read before (round 38).

Round 37 found `matching.asks` quadratic (two `\\W*` runs splitting a run of brackets). An
audit of every compiled pattern in the matcher modules on strings built from each pattern's
own classes found one more such shape used the way it was timed: `matching.WHERE_CLAUSE`'s
`\\s*,?\\s*` (after "Unlike PyTorch", is a "where" clause next?). Possessive now.

Benchmarks/freetext_hostile.py's "every rubric phrasing written out" was its slowest shape:
`find_hits` searched every unit for each phrasing the whole answer held (~220,000 unit
searches per ten answers, nearly all ruled out by the strings every match holds). It now
reads only the units that hold the rarest of those strings, then tests them as every search
does, and `claims.find_claim_hits` reads only the units that may hold every role; which hits
are found is unchanged (rules alone over tune: no answer moved).
"""

from __future__ import annotations

import pytest

from app.grading.freetext import claims, matching
from app.grading.freetext.matching import find_hits
from app.grading.freetext.normalise import Unit, normalise
from app.grading.freetext.phrasings import compile_phrasing
from app.grading.freetext.required_text import may_match
from tests.grading.linear_time import assert_linear


def test_a_where_clause_is_still_read_after_a_framework() -> None:
    for text in (", where", " where", "  ,  in which", "where"):
        assert matching.WHERE_CLAUSE.match(text) is not None
    for text in (", and", " somewhere", ""):
        assert matching.WHERE_CLAUSE.match(text) is None


def test_a_run_of_spaces_is_read_in_linear_time_by_the_where_reader() -> None:
    """20,000 spaces: split between two `\\s*` every way it took ~10 CPU s; now ~0."""
    assert_linear(matching.WHERE_CLAUSE.match, " " * 20_000 + "x", fresh=False)


SENTENCES = [
    "The tape records the forward pass.",
    "Nothing accumulates across steps.",
    "Each call to tape.gradient returns fresh gradients.",
    "You never need zero_grad in TensorFlow.",
    "Is zero_grad needed?",
    "Straße and café are written here, and zero_grad is named.",
]


def _units(text: str) -> tuple[Unit, ...]:
    return normalise(text).units


@pytest.mark.parametrize("ascii_only", [True, False])
def test_the_units_read_are_those_whose_words_or_lemmas_may_hold_the_phrasing(
    ascii_only: bool,
) -> None:
    sentences = SENTENCES[:-1] if ascii_only else SENTENCES
    units = _units(" ".join(sentences * 3))
    layout = matching.layout_of(units)
    for pattern in (
        r"zero_grad",
        r"(tape|gradient) ~ (records?|returns?)",
        r"accumulat\w* ~ across",
        r"fresh ~ gradients?",
        r"forward",
    ):
        required = compile_phrasing(pattern).required
        expected = [
            i
            for i, u in enumerate(units)
            if not required
            or any(t and may_match(required, t, 0, len(t)) for t in (u.text, u.lemmas))
        ]
        assert matching.units_that_may_hold(units, layout, required) == expected


def test_find_hits_reads_only_the_units_that_may_hold_a_phrasing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """100 sentences, one naming the forward pass: one unit read for the phrasing, not 100."""
    units = _units(" ".join(["Nothing accumulates across steps."] * 99 + SENTENCES[:1]))
    read: list[Unit] = []
    original_unit_hits = matching.unit_hits

    def counted(unit: Unit, *args: object) -> list[matching.Hit]:
        read.append(unit)
        return original_unit_hits(unit, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(matching, "unit_hits", counted)
    hits = find_hits(units, [r"tape ~ records? ~ forward pass"])
    assert [h.sentence for h in hits] == [SENTENCES[0]]
    assert len(read) == 1


def test_a_direct_question_is_read_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    matching.asks_text.cache_clear()
    unit = Unit("Do you really need zero_grad before each step?", is_code=False)
    assert matching.asks(unit)
    assert matching.asks(unit)
    assert matching.asks_text.cache_info().hits >= 1
    assert not matching.asks(Unit(unit.text, is_code=True))


def test_a_claim_is_read_only_in_the_units_that_may_hold_its_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same for a claim's roles (claims.find_claim_hits): one unit read, not 100."""
    units = _units(" ".join(["Nothing accumulates across steps."] * 99 + SENTENCES[:1]))
    read: list[Unit] = []
    original_unit_claims = claims.unit_claims

    def counted(unit: Unit, *args: object) -> list[matching.Hit]:
        read.append(unit)
        return original_unit_claims(unit, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(claims, "unit_claims", counted)
    hits = claims.find_claim_hits(units, claims.parse_claim("tape & records? & forward"))
    assert [h.sentence for h in hits] == [SENTENCES[0]]
    assert len(read) == 1
