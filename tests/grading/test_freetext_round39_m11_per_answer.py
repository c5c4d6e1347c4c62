"""An answer's readings are found by identity, not by hashing every unit (round 39).

`matching.layout_of`, `matching.whole_text`, `claims.whole_prose`, `joins.pronoun_joins` and
`carried_topics.carried_foreign` were `lru_cache`s keyed by the answer's tuple of units,
asked for on every phrasing list searched: each lookup hashed every unit again (~35,000
unit hashes per answer of benchmarks/freetext_hostile.py's "every rubric phrasing"). The
last few answers are found by identity now (per_answer.py), the cache behind it as before.
"""

from __future__ import annotations

import pytest

from app.grading.freetext import carried_topics, claims, joins, matching
from app.grading.freetext.normalise import Unit, normalise

_ANSWER = "The tape records the forward pass. It then returns fresh gradients. " * 20


@pytest.mark.parametrize(
    "read",
    [
        matching.layout_of,
        matching.whole_text,
        claims.whole_prose,
        joins.pronoun_joins,
        carried_topics.carried_foreign,
    ],
)
def test_an_answer_read_again_hashes_no_unit(read: object, monkeypatch: pytest.MonkeyPatch) -> None:
    units = normalise(_ANSWER).units
    first = read(units)  # type: ignore[operator]
    hashed: list[Unit] = []
    original = Unit.__hash__

    def counted(unit: Unit) -> int:
        hashed.append(unit)
        return original(unit)

    monkeypatch.setattr(Unit, "__hash__", counted)
    assert read(units) is first  # type: ignore[operator]
    assert hashed == []


def test_an_equal_answer_in_another_tuple_reads_the_same() -> None:
    units = normalise(_ANSWER).units
    assert matching.layout_of(tuple(units)) == matching.layout_of(units)
    assert matching.layout_of(normalise(_ANSWER).units) is matching.layout_of(units)


def test_a_few_answers_are_kept_by_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tell's search alternates between the answer and its sentences joined across "it"."""
    answer = normalise(_ANSWER).units
    joined = ((joins.pronoun_joins(answer)[0][0]),)
    first, second = matching.layout_of(answer), matching.layout_of(joined)
    monkeypatch.setattr(Unit, "__hash__", lambda unit: pytest.fail("hashed"))
    assert matching.layout_of(answer) is first
    assert matching.layout_of(joined) is second
    assert matching.layout_of(answer) is first
