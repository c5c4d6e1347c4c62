"""Time an uploaded pack's rubric phrasings on answers built to make a regex backtrack.

Phrasings are regular expressions the free-text grader runs on every learner's answer, in
the web process. One written to backtrack (`(a+)+$`: 29 letters took minutes; `.*.*z`: a
2,000-character answer took 51 s) would freeze the server the first time a learner's
answer pumped it, and a Python regex cannot be interrupted. So before a pack is
self-tested or published, each phrasing, compiled exactly as the grader compiles it, is
searched in a child process over strings that repeat one character or literal of the
pattern and end in a mismatch; a phrasing that does not finish within its budget is
refused with its file and line, and the child is killed and restarted on the rest.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.packs.loader import LoadedQuestion, Pack
from app.packs.schema import FreeText
from app.packs.yamlfiles import YamlFileError, read_yaml

PROBE_LENGTH = 3_000  # characters per probe answer (answers may have 10,000)
# Per probe answer. The core pack's slowest phrasing (a look-ahead scanning to the end of
# the sentence: quadratic) needs 1.8 s over all its probes on this 2-core host, none over
# 0.2 s; `.*.*z` needs ~170 s on one, `(a+)+$` longer than anyone waits.
BUDGET_SECONDS = 2.0
MAX_REPORTED = 5  # slow phrasings reported before the rest are left untimed
_BASE_PUMPS = ("a", "A", "0", " ", ".", "_", "-", "\n", "\t", "a ", "a.", "a\n")


@dataclass(frozen=True)
class Phrasing:
    pattern: str
    file: str
    loc: tuple[int | str, ...]


def rubric_phrasings(pack: Pack) -> list[Phrasing]:
    found = []
    for item in pack.questions:
        if isinstance(item.question, FreeText):
            found += list(_phrasings_of(item))
    return found


def _phrasings_of(item: LoadedQuestion) -> Iterator[Phrasing]:
    assert isinstance(item.question, FreeText)
    rubric = item.question.rubric
    for kind, entries in (("concepts", rubric.concepts), ("misconceptions", rubric.misconceptions)):
        for n, entry in enumerate(entries):
            for field in ("any", "negated"):
                for k, pattern in enumerate(getattr(entry, field)):
                    yield Phrasing(pattern, str(item.file), ("rubric", kind, n, field, k))


def probes(pattern: str) -> list[str]:
    """Answers that pump one character or literal word of the pattern, then mismatch."""
    literals = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"\\.", " ", pattern)))
    chars = {c for c in pattern if not c.isspace()}
    pumps = list(
        dict.fromkeys([*_BASE_PUMPS, *sorted(chars), *(w + " " for w in sorted(literals))])
    )
    return [(p * (PROBE_LENGTH // len(p) + 1))[:PROBE_LENGTH] + "\x01" for p in pumps]


def _child() -> None:
    """Read patterns as JSON on stdin; say a pattern's index before each probe of it."""
    from app.grading.freetext.phrasings import compile_phrasing

    for n, pattern in enumerate(json.load(sys.stdin)):
        compiled = compile_phrasing(pattern)
        for text in probes(pattern):
            print(n, flush=True)
            compiled.search(text)
    print("done", flush=True)


async def _run(patterns: list[str]) -> int | None:
    """Index of the first pattern over budget (the child is killed), or None."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        __name__,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(patterns).encode())
    child.stdin.close()
    current: int | None = None
    try:
        while True:
            budget = 30.0 if current is None else BUDGET_SECONDS  # start-up imports
            line = await asyncio.wait_for(child.stdout.readline(), budget)
            text = line.decode().strip()
            if text == "done" or not text:
                return None
            current = int(text)
    except TimeoutError:
        return current
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()


async def slow_phrasings(pack: Pack) -> list[str]:
    """`file:line: message` for each phrasing that backtracks past its budget."""
    phrasings = rubric_phrasings(pack)
    problems: list[str] = []
    start = 0
    while start < len(phrasings) and len(problems) < MAX_REPORTED:
        slow = await _run([p.pattern for p in phrasings[start:]])
        if slow is None:
            break
        problems.append(_problem(phrasings[start + slow]))
        start += slow + 1
    return problems


def _problem(phrasing: Phrasing) -> str:
    try:
        line = read_yaml(Path(phrasing.file)).line_of(phrasing.loc)
    except YamlFileError:
        line = 1
    return (
        f"{phrasing.file}:{line}: phrasing {phrasing.pattern!r} took more than"
        f" {BUDGET_SECONDS:g} s on a {PROBE_LENGTH:,}-character answer (a regular expression"
        " that backtracks); write it without nested or adjacent repeats such as (a+)+ or .*.*"
    )


if __name__ == "__main__":
    _child()
