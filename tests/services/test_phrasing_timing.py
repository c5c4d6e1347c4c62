"""Uploaded packs' phrasings are timed on answers built to make them backtrack (round 18).

Round 17's multi-line code phrasing was cubic in a code block's lines and passed the timer,
whose probes only pumped one character or word: real catastrophic patterns of several shapes
are refused here with their file, line and text; honest phrasings of the same shapes pass;
a pack's timing has a CPU budget of its own; and a check that cannot finish refuses.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import pytest

from app.grading.freetext.phrasings import compile_phrasing
from app.packs.loader import Pack, load_pack
from app.services.instructor import phrasing_timing
from app.services.instructor.attack_answers import MISMATCH, attack_strings
from app.services.instructor.phrasing_timing import slow_phrasings
from tests.services.instructor_fakes import EXAMPLE

QUESTION = "ex-explain-none.yaml"
FIRST = "      any:\n        - (loss|forward pass)"
# gradient-outside-outer-tape's code phrasing as round 17's engineer C wrote it (366b3d2):
# a 200-line code block took over 5 minutes in the answer-wide search.
ROUND17_CODE = (
    r"(?m)^([ \t]*)with\b[^\n]*GradientTape\b[^\n]*\bas\s+(\w+)\s*:[ \t]*\n"
    r"(?:\1[ \t]+[^\n]*\n|[ \t]*\n)*?\1[ \t]+with\b[^\n]*GradientTape\b[^\n]*\bas\s+(\w+)\s*:"
    r"[ \t]*\n(?:\1[ \t]+[^\n]*\n|[ \t]*\n)*\1(?:\w+(?:\s*,\s*\w+)*\s*=\s*)?\3\.gradient\("
)
# The same phrasing as the lead rewrote it (2acb428): each line can match one way only.
LEAD_CODE = (
    r"(?m)^([ \t]*)with\b[^\n]*GradientTape\b[^\n]*\bas\s+(\w+)\s*:[ \t]*\n"
    r"(?>(?:\1[ \t]+\S[^\n]*\n|[ \t]*\n)*?\1[ \t]+with\b[^\n]*GradientTape\b[^\n]*\bas\s+(\w+)"
    r"\s*:[ \t]*\n)(?:\1[ \t]+\S[^\n]*\n|[ \t]*\n)*+\1(?:\w+(?:\s*,\s*\w+)*\s*=\s*)?\3\.gradient\("
)
CATASTROPHIC = {
    "overlapping alternatives of several words": r"(?:the tape |the tapes? )+x",
    "a claim's role": r"\bloss\b & (?:the tape |the tapes? )+x",
}
# Catastrophic under `re`, which ran phrasings until round 19; `regex`, which runs them now
# and times them here, reads these in at most 0.7 s of CPU per 3,000-character probe (the
# round 17 block; 0.04-0.07 s the others), under the 2 s budget.
SLOW_UNDER_RE_ONLY = {
    "nested repeats after a literal": r"loss: (\w+\s?)+$",
    "adjacent repeats after a literal": r"\btape: .*.*.*;",
    "multi-line block (round 17)": ROUND17_CODE,
}
HONEST = [
    LEAD_CODE,
    r"(move|put|compute|calculate)\w* ~ (loss|forward pass|it) ~ (inside|within) ~ (block|tape)",
    r"\bapply_gradients\(\s*\w+\s*,",
    r"(?m)^[ \t]*with\b[^\n]*GradientTape\b[^\n]*:",
    r"\b(both|the two) gradients? & \b(after|outside)\b & !(\binner\b)",
    r"(?=[^.]*\bwatch)\btape\b ~ (records?|sees?)",
    r"(?:[a-z]+ ){0,3}tape",
]


def example_pack_with(tmp_path: Path, phrasings: list[str]) -> tuple[Pack, Path, int]:
    """The example pack with `phrasings` first in its first free-text question."""
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    question = folder / QUESTION
    text = question.read_text()
    assert FIRST in text, "the example pack's first phrasing moved"
    line = text[: text.index(FIRST)].count("\n") + 2
    added = "".join(f"        - {json.dumps(p)}\n" for p in phrasings)
    question.write_text(text.replace(FIRST, f"      any:\n{added}{FIRST.split(chr(10), 1)[1]}", 1))
    report = load_pack(folder)
    assert report.pack is not None, report.problems
    return report.pack, question, line


@pytest.mark.parametrize("phrasing", CATASTROPHIC.values(), ids=CATASTROPHIC.keys())
def test_catastrophic_phrasing_is_refused_with_its_line(tmp_path: Path, phrasing: str) -> None:
    pack, question, line = example_pack_with(tmp_path, [phrasing])
    [problem] = asyncio.run(slow_phrasings(pack))
    assert problem.startswith(f"{question}:{line}: phrasing {phrasing!r} took more than 2 s")
    assert "answer built to make it backtrack" in problem


def test_phrasings_slow_only_under_re_pass(tmp_path: Path) -> None:
    """The check times a phrasing with the engine that grades with it (round 19)."""
    pack, _, _ = example_pack_with(tmp_path, list(SLOW_UNDER_RE_ONLY.values()))
    assert asyncio.run(slow_phrasings(pack)) == []


def test_honest_phrasings_of_the_same_shapes_pass(tmp_path: Path) -> None:
    pack, _, _ = example_pack_with(tmp_path, HONEST)
    assert asyncio.run(slow_phrasings(pack)) == []


def test_pack_over_its_cpu_budget_is_refused_naming_the_slowest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(phrasing_timing, "BUDGET_SECONDS", 120.0)
    monkeypatch.setattr(phrasing_timing, "PACK_BUDGET_SECONDS", 1.0)
    cubic = CATASTROPHIC["overlapping alternatives of several words"]
    pack, question, line = example_pack_with(tmp_path, [cubic])
    [problem] = asyncio.run(slow_phrasings(pack))
    assert problem.startswith(f"{question}:{line}: timing this pack's")
    assert f"more than 1 s of CPU time in all; the slowest, {cubic!r}, took" in problem


def test_child_that_exits_early_refuses_the_pack() -> None:
    """A probe that crashed its child must not pass as 'finished' (it did before)."""

    async def follow() -> phrasing_timing.ProbeStop | None:
        reader = asyncio.StreamReader()
        reader.feed_data(b"0 0 0.0100\n0 1 0.0200\n")
        reader.feed_eof()
        return await phrasing_timing.follow_child(reader, 0, 0, phrasing_timing.ProbeClock([0.0]))

    assert asyncio.run(follow()) == phrasing_timing.ProbeStop(0, -1, "child")


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (ROUND17_CODE, "with GradientTape as a:\n \n \n \n"),  # its lines, after the with
        (r"\bloss: \w+\d+x", "loss: 0000"),  # the character both repeats take
        (r"(?:the tape |the tapes? )+x", "the tape the tape the tape "),  # several words
    ],
)
def test_attack_answers_reach_and_pump_the_repeat(pattern: str, expected: str) -> None:
    answers = attack_strings(compile_phrasing(pattern), 500)
    assert any(expected in a for a in answers), [a[:40] for a in answers]
    assert all(a.endswith(MISMATCH) and len(a) <= 501 for a in answers)


def test_attack_answers_of_a_pattern_without_repeats_are_none() -> None:
    assert attack_strings(re.compile("tape", re.IGNORECASE), 500) == []
