"""Strings from the sandbox are escaped and capped before anything shows or stores them."""

from __future__ import annotations

import json

import pytest

from app.grading.code import readable


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("bad \ud800 value", "bad \\ud800 value"),
        ("nul \x00 here", "nul \\x00 here"),
        ("\x1b[31mred\x1b[0m\r", "\\x1b[31mred\\x1b[0m\\x0d"),
        ("\u202egnp.exe \u2066x\u2069", "\\u202egnp.exe \\u2066x\\u2069"),
        ("\ufeffbom \x85 nel", "\\ufeffbom \\x85 nel"),
        ("tabs\tand\nnewlines stay; é, 日本, 🙂 too", "tabs\tand\nnewlines stay; é, 日本, 🙂 too"),
    ],
)
def test_unsafe_characters_become_visible_escapes(raw: str, shown: str) -> None:
    assert readable.text(raw) == shown


def test_long_string_is_cut() -> None:
    shown = readable.text("A" * 10_000_000)
    assert shown == "A" * readable.MAX_TEXT + "..."


def test_report_strings_and_keys_are_readable_and_serialise() -> None:
    raw = {"runs": [{"error": {"message": "x\ud800", "lines": [3]}, "k\x00": 1.5, "n": None}]}
    shown = readable.report(raw)
    assert shown == {"runs": [{"error": {"message": "x\\ud800", "lines": [3]}, "k\\x00": 1.5,
                               "n": None}]}  # fmt: skip
    json.dumps(shown, ensure_ascii=False).encode("utf-8")  # raised before: surrogates
