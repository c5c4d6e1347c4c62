"""A tell read to its first hit that counts, and no further (round 40, engineer M12;
claims.first_hit, grader._hit_for).

A tell is named by the first of its hits that counts, yet every phrasing of it was read - in
every sentence, and again in every pronoun join - before the first was taken; an answer that
states many tells (benchmarks/freetext_hostile.py's "every rubric phrasing written out")
paid for all their phrasings. `first_hit` reads the hits in `find_phrasings`' order, one
phrasing at a time, and stops at the first one kept: the same hit."""

from __future__ import annotations

import random

import pytest

from app.grading.freetext import claims
from app.grading.freetext.matching import Hit
from app.grading.freetext.normalise import Unit, normalise
from benchmarks.freetext_hostile import example_of, shapes
from tests.grading.core_questions import free_text_ids, question


def _affirmed(hit: Hit) -> bool:
    return hit.affirmed and not (hit.conditional or hit.foreign or hit.partial_word)


def _denied(hit: Hit) -> bool:
    return not hit.affirmed and not (hit.conditional or hit.foreign)


def _texts(question_id: str) -> list[str]:
    q = question(question_id)
    hostile = shapes(q)
    return [
        q.rubric.model_answer,
        hostile["every rubric phrasing"],
        hostile["every concept phrasing"],
        hostile["deeply negated"],
    ]


@pytest.mark.parametrize("question_id", free_text_ids())
def test_the_first_hit_kept_is_the_first_of_all_hits_kept(question_id: str) -> None:
    for text in _texts(question_id):
        units = normalise(text).units
        for tell in question(question_id).rubric.misconceptions:
            for patterns, keep in ((list(tell.any), _affirmed), (list(tell.negated), _denied)):
                every = claims.find_phrasings(units, patterns, across=True)
                first = next((h for h in every if keep(h)), None)
                assert claims.first_hit(units, patterns, keep, across=True) == first, tell.tag


def test_a_tell_stated_by_its_first_phrasing_reads_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[list[str]] = []
    find_hits = claims.find_hits

    def counting(units: tuple[Unit, ...], patterns: list[str]) -> list[Hit]:
        read.append(patterns)
        return find_hits(units, patterns)

    monkeypatch.setattr(claims, "find_hits", counting)
    checked = 0
    for question_id in free_text_ids():
        for tell in question(question_id).rubric.misconceptions:
            first = tell.any[0] if tell.any else ""
            if len(tell.any) < 2 or claims.is_claim(first):
                continue
            units = normalise(example_of(first, random.Random(0)) + ".").units
            if claims.first_hit(units, [first], _affirmed, across=True) is None:
                continue  # the written example is read otherwise (denied, a question ...)
            read.clear()
            assert claims.first_hit(units, list(tell.any), _affirmed, across=True) is not None
            assert read == [[first]], tell.tag
            checked += 1
    assert checked >= 20
