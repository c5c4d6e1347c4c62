"""GIFT import on hostile text (issue 12, finding 3): linear time, same answers.

`"::{" * 800` took 5-10 s in the old regex cascade (cost ~N^3) and froze the server; at the
size limit it would not finish at all. Each case here is the full limit; the timeout only
guards against a hang (figures: benchmarks/gift_import.py).
"""

from __future__ import annotations

import pytest

from app.services.instructor.gift import MAX_CHOICES, MAX_IMPORT_CHARS, MAX_QUESTIONS, import_gift

HOSTILE = {
    "colons-braces": "::{",
    "open-braces": "{",
    "title-colons": "::a",
    "escapes": "\\",
    "hashes": "{=a#",
    "marks": "{~=",
    "percent": "{~%1",
    "hash-runs": "{~a####",
    "spaces-newline": "\n ",
    "braces": "{}",
    "one-answer-per-brace": "{~a}",
    "feedback-hashes": "{~a#b#}",
    "tiny-questions": "{~=a}\n\n",
    "slug-clash": "x{=a~b}\n\n",
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("unit", HOSTILE.values(), ids=HOSTILE.keys())
def test_import_of_hostile_text_at_the_limit_finishes(unit: str) -> None:
    text = (unit * (MAX_IMPORT_CHARS // len(unit) + 1))[:MAX_IMPORT_CHARS]
    imported, skipped = import_gift(text)
    assert len(imported) + len(skipped) <= MAX_QUESTIONS + 1


SHAPED = [
    ("{~a", "#", "}"),
    ("{~a", "\\#", "}"),
    ("{~", "%", "}"),
    ("::", "\\:", ""),
    ("{=", "\\~", "~}"),
    ("::", ":a", ""),
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("prefix", "unit", "suffix"), SHAPED)
def test_import_of_one_long_hostile_run_finishes(prefix: str, unit: str, suffix: str) -> None:
    room = MAX_IMPORT_CHARS - len(prefix) - len(suffix)
    imported, skipped = import_gift(prefix + unit * (room // len(unit)) + suffix)
    assert len(imported) + len(skipped) == 1


def test_import_converts_at_most_the_question_limit() -> None:
    question = "::Q::Pick one {=right ~wrong}\n\n"
    imported, skipped = import_gift(question * (MAX_QUESTIONS + 5))
    assert len(imported) == MAX_QUESTIONS
    assert skipped[0].title == "5 more" and "split the file" in skipped[0].reason


def test_import_skips_a_question_with_too_many_answers() -> None:
    imported, skipped = import_gift("Pick {=a " + "~b " * MAX_CHOICES + "}")
    assert imported == [] and skipped[0].reason == f"more than {MAX_CHOICES} answers"


@pytest.mark.parametrize(
    ("gift", "expected"),
    [
        ("::T::Is it? {TRUE#yes####because}", ("true-false", True, "because")),
        ("Is it? {f}", ("true-false", False, "")),
        ("::A\\::B::Pick {=x ~y}", ("single-choice", None, "")),
        ("Pick {~%50%x ~%50%y ~%-100%z ####why}", ("multiple-choice", None, "why")),
    ],
)
def test_import_parses_edge_cases(gift: str, expected: tuple[str, object, str]) -> None:
    imported, skipped = import_gift(gift)
    assert skipped == [] and imported[0].type == expected[0]
    yaml_text = imported[0].yaml
    if expected[1] is not None:
        assert f"answer: {str(expected[1]).lower()}" in yaml_text
    if expected[2]:
        assert f"explanation: {expected[2]}" in yaml_text


def test_title_with_escaped_colons_keeps_them() -> None:
    imported, _ = import_gift("::A\\::B::Pick {=x ~y}")
    assert "title: A::B" in imported[0].yaml
