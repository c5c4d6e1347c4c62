"""Text beyond ASCII is ruled out as ASCII text is, and an answer's readings are found by
identity (round 39).

Benchmarks/freetext_hostile.py's "lookalike letters" (the model answer in Cyrillic letters
that look Latin) cost up to ~100 ms of CPU per question more than the same answer in ASCII:
`required_text.may_match` ruled nothing out in a text beyond ASCII, so round 38's unit filter
(`matching.units_that_may_hold`, `claims.find_claim_hits`) searched every such unit for each
phrasing. A case-insensitive search matches an ASCII literal to four characters beyond ASCII
only (dotless and dotted I, the long s, the Kelvin sign): read as their letters, and every
other character as itself, the text is tested as an ASCII one is. Which hits are found is
unchanged (rules alone over tune: no answer moved).
"""

from __future__ import annotations

import random
import re

import pytest
import regex

from app.grading.freetext import claims, matching
from app.grading.freetext.matching import find_hits
from app.grading.freetext.normalise import Unit, normalise
from app.grading.freetext.phrasings import compile_phrasing
from app.grading.freetext.required_text import lowered, may_match
from app.packs.rubric import PHRASING_FLAGS
from benchmarks.freetext_hostile import disguised
from tests.grading import core_questions

_BEYOND_ASCII = "".join(chr(c) for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000)


@pytest.mark.parametrize(
    "engine, flags",
    [(regex, PHRASING_FLAGS), (regex, regex.IGNORECASE | regex.V1), (re, re.IGNORECASE)],
)
def test_every_character_a_search_matches_to_an_ascii_literal_is_read_as_it(
    engine: object, flags: int
) -> None:
    """Every code point beyond ASCII, against every printable ASCII character."""
    for ascii_char in map(chr, range(32, 127)):
        pattern = engine.compile(engine.escape(ascii_char), flags)  # type: ignore[attr-defined]
        for found in pattern.findall(_BEYOND_ASCII):
            assert lowered(found) == ascii_char.lower(), (hex(ord(found)), ascii_char)


def test_a_text_beyond_ascii_keeps_its_length_and_its_other_characters() -> None:
    text = "The TAPE сору \u0130\u0131\u017f\u212a Straße"
    assert lowered(text) == "the tape сору iisk straße"
    assert len(lowered(text)) == len(text)


@pytest.mark.parametrize(
    "text, may_hold",
    [
        ("Тhе tаре сору is nоt а gradient", True),  # the Latin word as written
        ("Тhе tаре сору is nоt а grаdiеnt", False),  # every letter of it Cyrillic
        ("the GRAD\u0130ENT", True),  # dotted I: a search of "i" finds it
        ("the grad\u0131ent", True),  # dotless i: a search of "I" would find it
        ("Straße", False),
    ],
)
def test_a_text_beyond_ascii_is_ruled_out_only_where_no_search_finds_the_string(
    text: str, may_hold: bool
) -> None:
    phrasing = compile_phrasing("gradient")
    assert may_match(phrasing.required, text, 0, len(text)) is may_hold
    assert may_hold or phrasing.compiled.search(text) is None


# "сору" in Cyrillic letters (a word wholly in them stays as written, normalise.py): every
# unit is beyond ASCII
_LOOKALIKE = "Nothing accumulates across steps, сору."
_NAMED = "The tape records the forward pass, сору."


def _read_by(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[Unit]:
    read: list[Unit] = []
    original = getattr(module, name)

    def counted(unit: Unit, *args: object) -> list[matching.Hit]:
        read.append(unit)
        return original(unit, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(module, name, counted)
    return read


def test_find_hits_reads_only_the_units_beyond_ascii_that_may_hold_a_phrasing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """100 sentences beyond ASCII, one naming the forward pass: one unit read, not 100."""
    units = normalise(" ".join([_LOOKALIKE] * 99 + [_NAMED])).units
    assert all(not u.text.isascii() for u in units)
    read = _read_by(monkeypatch, matching, "unit_hits")
    hits = find_hits(units, [r"tape ~ records? ~ forward pass"])
    assert [h.sentence for h in hits] == [_NAMED]
    assert len(read) == 1


def test_a_claim_is_read_only_in_the_units_beyond_ascii_that_may_hold_its_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    units = normalise(" ".join([_LOOKALIKE] * 99 + [_NAMED])).units
    read = _read_by(monkeypatch, claims, "unit_claims")
    hits = claims.find_claim_hits(units, claims.parse_claim("tape & records? & forward"))
    assert [h.sentence for h in hits] == [_NAMED]
    assert len(read) == 1


def test_the_hits_in_lookalike_letters_are_those_every_unit_read_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A question's every ordered phrasing over its model answer in lookalike letters: the
    units filtered as above give the hits that searching every unit gives."""
    question = core_questions.question(random.Random(39).choice(core_questions.free_text_ids()))
    text = " ".join([disguised(question.rubric.model_answer, "lookalikes")] * 3)
    units = normalise(text).units
    plain = [
        p
        for item in (*question.rubric.concepts, *question.rubric.misconceptions)
        for p in (*item.any, *item.negated)
        if not claims.is_claim(p)
    ]
    filtered = find_hits(units, plain)
    monkeypatch.setattr(matching, "units_that_may_hold", lambda u, *_: list(range(len(u))))
    assert find_hits(units, plain) == filtered
    assert filtered  # the model answer's own phrasings are still found
