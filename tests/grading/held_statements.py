"""Tests built from the rounds' tables of written statements (rounds 10-18).

Each round of issue 14 wrote wrong statements (a question, the tell they state, the text)
and true statements (a question, the text) before changing the grader, and kept the ones
still read wrong as strict xfails with their cause. Every round's file asked the same two
things of its tables, in its own words; this module builds those tests so a round's file
holds its tables, its reasons and its own checks only. A built test keeps the argument
names and the order of the table's fields (`fields`), so its ids are the table's values as
before; the module-level name a round's file gives it is the test's name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question, tells_by_rules

Tells = Callable[[str, str], list[str]]

__all__ = [
    "names_nothing",
    "names_the_tell",
    "statement_battery",
    "tells_by_rules",
    "tells_graded",
]
UNREACHED = "a tell no phrasing reaches (rubric content)"


def tells_graded(question_id: str, text: str) -> list[str]:
    """The misconceptions grading names with its defaults (second opinion, neighbours, caps)."""
    return list(grade_freetext(question(question_id), text).misconceptions)


def names_the_tell(
    cases: Iterable[Any],
    *,
    fields: str = "question_id tag answer",
    tells: Tells = tells_graded,
    xfail: str | None = None,
) -> Callable[..., None]:
    """A test that each wrong statement names its tag; `xfail`: the reason it still does not
    (a strict xfail, so a fix shows)."""

    def check(case: Mapping[str, str]) -> None:
        qid, tag, text = read_case(case)
        assert tag in tells(qid, text)

    return _built(fields, list(cases), check, xfail)


def names_nothing(
    cases: Iterable[Any],
    *,
    fields: str = "question_id answer",
    tells: Tells = tells_graded,
    xfail: str | None = None,
) -> Callable[..., None]:
    """A test that each true statement names no tell; `xfail`: the reason one still does."""

    def check(case: Mapping[str, str]) -> None:
        qid, _, text = read_case(case)
        assert tells(qid, text) == []

    return _built(fields, list(cases), check, xfail)


def statement_battery(
    true: Sequence[tuple[str, str]],
    wrong: Sequence[tuple[str, str, str]],
    *,
    false_tells: Collection[str],
    unnamed: Collection[str],
    left: str,
) -> tuple[Callable[..., None], ...]:
    """The four tests of a round's statement corpus (freetext_statements_rNN.py, read by the
    rules alone): true statements name no tell, those in `false_tells` still do (xfail,
    `left` says why), wrong statements name their tag, those in `unnamed` still do not."""
    return (
        names_nothing(_texts(true, false_tells, False), fields="qid text", tells=tells_by_rules),
        names_nothing(
            _texts(true, false_tells, True), fields="qid text", tells=tells_by_rules, xfail=left
        ),
        names_the_tell(_texts(wrong, unnamed, False), fields="qid text tag", tells=tells_by_rules),
        names_the_tell(
            _texts(wrong, unnamed, True),
            fields="qid text tag",
            tells=tells_by_rules,
            xfail=UNREACHED,
        ),
    )


def _texts(cases: Sequence[tuple[str, ...]], texts: Collection[str], inside: bool) -> list[Any]:
    """The cases whose statement (second field) is among `texts` (or is not), in order."""
    return [c for c in cases if (c[1] in texts) is inside]


def read_case(case: Mapping[str, str]) -> tuple[str, str, str]:
    """(question id, tag or "", statement) of a case, whichever names its table used."""
    qid = case.get("question_id", case.get("qid", ""))
    return qid, case.get("tag", ""), case.get("answer", case.get("text", ""))


def _built(
    fields: str, cases: list[Any], check: Callable[[Mapping[str, str]], None], xfail: str | None
) -> Callable[..., None]:
    names = tuple(fields.split())

    def test(**case: str) -> None:
        check(case)

    # pytest reads a test's arguments from its signature: give it the table's field names.
    parameter = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter(n, parameter, annotation=str) for n in names])
    setattr(test, "__signature__", signature)  # noqa: B010 - functions declare no such field
    built = pytest.mark.parametrize(names, cases)(test)
    return pytest.mark.xfail(strict=True, reason=xfail)(built) if xfail else built
