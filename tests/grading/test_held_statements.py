"""The builder of the rounds' held-statement tests checks what each round's tests checked."""

from __future__ import annotations

import inspect

import pytest

from tests.grading.held_statements import names_nothing, names_the_tell


def _tells(question_id: str, text: str) -> list[str]:
    return ["tape-accumulates"] if "accumulates" in text else []


def test_a_built_tell_test_fails_where_the_tag_is_not_named() -> None:
    test = names_the_tell([], fields="qid tag text", tells=_tells)
    test(qid="q", tag="tape-accumulates", text="The tape accumulates gradients.")
    with pytest.raises(AssertionError):
        test(qid="q", tag="tape-accumulates", text="The tape records operations.")


def test_a_built_nothing_test_fails_where_a_tell_is_named() -> None:
    test = names_nothing([], tells=_tells)
    test(question_id="q", answer="The tape records operations.")
    with pytest.raises(AssertionError):
        test(question_id="q", answer="The tape accumulates gradients.")


def test_a_built_test_takes_the_tables_field_names() -> None:
    test = names_the_tell([("q", "t", "x")], fields="qid tag text")
    assert list(inspect.signature(test).parameters) == ["qid", "tag", "text"]


def test_an_xfail_reason_makes_a_strict_xfail() -> None:
    test = names_nothing([("q", "x")], xfail="a reason")
    marks = {m.name: m.kwargs for m in getattr(test, "pytestmark", [])}
    assert marks["xfail"] == {"strict": True, "reason": "a reason"}
