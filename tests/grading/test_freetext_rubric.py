"""Rubric validation: the mistakes a pack author can make are caught when the pack loads."""

# ruff: noqa: E501 - a table of broken rubrics reads best one per line

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from app.packs.rubric import Rubric, expand_phrasing


def rubric(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "model_answer": "The tape records operations.",
        "concepts": [{"id": "records", "label": "the tape records ops", "any": ["records?"]}],
        "misconceptions": [
            {"tag": "no-record", "correction": "It records.", "negated": ["records?"]}
        ],
    }
    data.update(changes)
    return data


def concept(**changes: Any) -> list[dict[str, Any]]:
    return [{"id": "records", "label": "the tape records ops", "any": ["records?"], **changes}]


def test_rubric_accepts_a_valid_rubric() -> None:
    assert Rubric.model_validate(rubric()).concepts[0].id == "records"


BROKEN = [
    ("negation in any", rubric(concepts=concept(any=["does not update"])), "contains a negation"),
    ("contraction in any", rubric(concepts=concept(any=["doesn't update"])), "contains a negation"),
    ("bad regex", rubric(concepts=concept(any=["(unclosed"])), "invalid regular expression"),
    ("matches empty", rubric(concepts=concept(any=["x*"])), "matches the empty answer"),
    ("doubled backslash", rubric(concepts=concept(any=[r"tape\\.gradient"])), "doubled backslash"),
    ("no phrasing", rubric(concepts=concept(any=[])), "at least one phrasing"),
    ("duplicate concept", rubric(concepts=concept() + concept()), "duplicate concept id"),
    ("thresholds reversed", rubric(thresholds={"correct": 0.4, "partial": 0.6}), "below thresholds.correct"),
    ("unknown cap", rubric(misconceptions=[{"tag": "t", "correction": "c", "any": ["x"], "cap": 0.3}]), "cap"),
    ("unknown key", rubric(concepts=concept(phrases=["x"])), "Extra inputs"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "data", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_rubric_rejects_an_authoring_mistake(name: str, data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Rubric.model_validate(data)


def test_expand_phrasing_turns_tilde_into_a_bounded_word_gap() -> None:
    pattern = re.compile(expand_phrasing("tape ~ update"))
    assert pattern.search("tape does not update")
    assert not pattern.search("tape " + "w " * 9 + "update")
