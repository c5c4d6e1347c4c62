"""Time an uploaded pack's rubric phrasings on answers built to make a regex backtrack.

Phrasings are regular expressions the free-text grader runs on every learner's answer, in
the web process. One written to backtrack (`(a+)+$`: 29 letters took minutes; `.*.*z`: a
2,000-character answer took 51 s) would freeze the server the first time a learner's
answer pumped it, and a Python regex cannot be interrupted. So before a pack is
self-tested or published, each phrasing, compiled exactly as the grader compiles it (a
claim's roles one by one), is searched in a child process over answers that repeat one
character or word of it, and over answers built from its structure (attack_answers.py: each
repeat reached through its prefix, then pumped: nested, adjacent and overlapping repeats,
several-word and multi-line bodies), each ending in a mismatch. Probes are timed in the
child's CPU time, so the verdict does not depend on how busy the host is. A phrasing whose
probe takes more than its budget is refused with its file and line, and the child is killed
and restarted on the rest; the pack has a CPU budget for all its probes, and a check that
cannot finish refuses the pack too: when the child dies, as a problem of the pack; when a busy
host starves it (the child's start or a probe far longer on the wall clock than in CPU time),
as PackCheckBusy, a 503 to retry, since nothing is known to be wrong with the pack (round 54:
a starved test run read that as "too slow to grade with").
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.errors import PackCheckBusy
from app.grading.freetext.budget import BoundedPattern
from app.grading.freetext.claims import is_claim, parse_claim
from app.grading.freetext.phrasings import compile_phrasing
from app.packs.loader import LoadedQuestion, Pack
from app.packs.schema import FreeText
from app.packs.shared import SharedEntries
from app.packs.yamlfiles import YamlFileError, read_yaml
from app.services.instructor.attack_answers import attack_strings

PROBE_LENGTH = 3_000  # characters per probe answer (the grader reads 5,000)
# CPU seconds per probe answer. The core pack's slowest phrasings (a `\W*` beside a ` ~ `
# gap, two gaps side by side: quadratic in a run of blanks) need up to 1.1 s over all their
# probes; `.*.*z` needs ~170 s on one, `(a+)+$` longer than anyone waits.
BUDGET_SECONDS = 2.0
# CPU seconds for all of a pack's probes: the core pack (1,524 phrasings, 112,209 probes)
# needs ~41 s; without a bound a hostile pack of thousands of phrasings each just under
# BUDGET_SECONDS per probe would take days.
PACK_BUDGET_SECONDS = 120.0
STARTUP_SECONDS = 30.0  # CPU seconds of the child's imports, before its first probe (~1 s)
# Wall clock, the last resort on a host too busy to time anything: before the child's first
# probe, and per probe (a probe is stopped at BUDGET_SECONDS of CPU time long before).
STARTUP_WALL_SECONDS = 300.0
WALL_SECONDS = 60.0
POLL_SECONDS = 0.1  # how often a running probe's CPU time is read
_TICKS = os.sysconf("SC_CLK_TCK")
MAX_PROBES = 400  # per phrasing (the core pack's most: 260)
MAX_REPORTED = 5  # slow phrasings reported before the rest are left untimed
_BASE_PUMPS = ("a", "A", "0", " ", ".", "_", "-", "\n", "\t", "a ", "a.", "a\n")


@dataclass(frozen=True)
class Phrasing:
    pattern: str
    file: str
    loc: tuple[int | str, ...]


def rubric_phrasings(pack: Pack) -> list[Phrasing]:
    """Each distinct phrasing once, at its first place: one in a shared misconception entry
    (round 51) stands in every rubric that refers to it, and times the same everywhere. The
    shared entries and where each rubric refers to them are the loaded pack's: no file is read
    again here."""
    found: dict[str, Phrasing] = {}
    for item in pack.questions:
        if isinstance(item.question, FreeText):
            for phrasing in _phrasings_of(item):
                placed = _where_written(phrasing, item.question, item.references, pack.shared)
                found.setdefault(phrasing.pattern, placed)
    return list(found.values())


def _where_written(
    phrasing: Phrasing, question: FreeText, references: frozenset[int], shared: SharedEntries
) -> Phrasing:
    """A phrasing of a referring entry at its line in the shared file, or, when the reference
    adds it, at the reference's list: a problem names the line the author must edit."""
    kind, n, field = phrasing.loc[1:4]
    if kind != "misconceptions" or n not in references or shared.path is None:
        return phrasing
    tag = question.rubric.misconceptions[int(n)].tag
    written = list(getattr(shared.entries[tag], str(field)))
    if phrasing.pattern not in written:
        return Phrasing(phrasing.pattern, phrasing.file, phrasing.loc[:4])
    at = ("misconceptions", list(shared.entries).index(tag), field, written.index(phrasing.pattern))
    return Phrasing(phrasing.pattern, str(shared.path), at)


def _phrasings_of(item: LoadedQuestion) -> Iterator[Phrasing]:
    assert isinstance(item.question, FreeText)
    rubric = item.question.rubric
    for kind, entries in (("concepts", rubric.concepts), ("misconceptions", rubric.misconceptions)):
        for n, entry in enumerate(entries):
            for field in ("any", "negated"):
                for k, pattern in enumerate(getattr(entry, field)):
                    yield Phrasing(pattern, str(item.file), ("rubric", kind, n, field, k))


def probes(pattern: str, limit: int = 10_000) -> list[str]:
    """Answers that pump one character or literal word of the pattern, then mismatch."""
    literals = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"\\.", " ", pattern)))
    chars = {c for c in pattern if not c.isspace()}
    pumps = list(
        dict.fromkeys([*_BASE_PUMPS, *sorted(chars), *(w + " " for w in sorted(literals))])
    )
    return [(p * (PROBE_LENGTH // len(p) + 1))[:PROBE_LENGTH] + "\x01" for p in pumps[:limit]]


def compiled_parts(pattern: str) -> list[BoundedPattern]:
    """The regular expressions the grader searches for a phrasing: a claim's roles one by
    one (`a & b & !(c)`: each in every clause), a plain phrasing whole; compiled here, so a
    probe times the search alone (the grader compiles a phrasing at its first search)."""
    if not is_claim(pattern):
        return [compile_phrasing(pattern).checked()]
    claim = parse_claim(pattern)
    guards = [compile_phrasing(guard) for guard in claim.guards]  # round 36: answer guards
    return [part.checked() for part in (*claim.roles, *claim.excluded, *guards)]


def attack_probes(pattern: str) -> list[tuple[BoundedPattern, str]]:
    """Each regular expression of the phrasing with each answer built to make it backtrack:
    its repeats reached and pumped (attack_answers), then its characters and words pumped;
    at most MAX_PROBES (a phrasing's length is not bounded, its probes are)."""
    found: list[tuple[BoundedPattern, str]] = []
    for compiled in compiled_parts(pattern):
        left = MAX_PROBES - len(found)
        texts = attack_strings(compiled, PROBE_LENGTH) + probes(compiled.pattern, left)
        found += [(compiled, text) for text in list(dict.fromkeys(texts))[:left]]
    return found


def _child() -> None:
    """Read patterns as JSON on stdin; before each probe, say the pattern's and the probe's
    number and this process's CPU seconds so far (the parent times probes in CPU time)."""
    for n, pattern in enumerate(json.load(sys.stdin)):
        print(n, -1, f"{time.process_time():.4f}", flush=True)  # building its probes
        for k, (compiled, text) in enumerate(attack_probes(pattern)):
            print(n, k, f"{time.process_time():.4f}", flush=True)
            compiled.search(text)
    print("done", f"{time.process_time():.4f}", flush=True)


@dataclass
class ProbeClock:
    """CPU seconds each phrasing's probes have taken, and their sum."""

    spent: list[float]
    total: float = 0.0

    def left(self) -> float:
        return PACK_BUDGET_SECONDS - self.total

    def add(self, index: int, seconds: float) -> None:
        self.spent[index] += seconds
        self.total += seconds


@dataclass(frozen=True)
class _Probe:
    phrasing: int  # in the list the child was given
    number: int
    cpu: float  # the child's CPU seconds when it began
    began: float  # time.monotonic()


@dataclass(frozen=True)
class ProbeStop:
    """Why the child was stopped: a probe over BUDGET_SECONDS ("probe"), the pack's budget
    spent ("pack"), the child's start or a probe too long on the wall clock on a busy host
    ("busy"), or the child gone, or its imports over STARTUP_SECONDS of CPU ("child")."""

    phrasing: int
    probe: int
    reason: str


async def _run(patterns: list[str], offset: int, clock: ProbeClock) -> ProbeStop | None:
    """Where the child was stopped (it is killed), or None when every probe finished."""
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
    try:
        return await follow_child(child.stdout, child.pid, offset, clock)
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()


async def follow_child(
    lines: asyncio.StreamReader, pid: int, offset: int, clock: ProbeClock
) -> ProbeStop | None:
    """Read the child's probe lines until it says "done" (None) or a stop is due; a public
    seam so a test can feed the lines of a child that exited early."""
    running: _Probe | None = None
    started = time.monotonic()
    reading = asyncio.ensure_future(lines.readline())
    try:
        while True:
            done, _ = await asyncio.wait({reading}, timeout=POLL_SECONDS)
            if not done:
                stop = _overrun(running, started, _cpu_seconds(pid), clock, offset)
                if stop is not None:
                    return stop
                continue
            fields = reading.result().decode().split()
            if running is not None and fields:
                clock.add(offset + running.phrasing, float(fields[-1]) - running.cpu)
                if clock.left() < 0:
                    return ProbeStop(running.phrasing, running.number, "pack")
            if fields[:1] == ["done"]:
                return None
            if len(fields) != 3:  # the child exited (or said something else)
                return ProbeStop(running.phrasing if running else 0, -1, "child")
            running = _Probe(int(fields[0]), int(fields[1]), float(fields[2]), time.monotonic())
            reading = asyncio.ensure_future(lines.readline())
    finally:
        reading.cancel()


def _overrun(
    running: _Probe | None, started: float, cpu: float | None, clock: ProbeClock, offset: int
) -> ProbeStop | None:
    """A stop when the running probe (or the child's start) has gone on too long."""
    now = time.monotonic()
    if running is None:
        if cpu is not None and cpu > STARTUP_SECONDS:
            return ProbeStop(0, -1, "child")
        return ProbeStop(0, -1, "busy") if now - started > STARTUP_WALL_SECONDS else None
    used = now - running.began if cpu is None else cpu - running.cpu
    if used > BUDGET_SECONDS:
        return ProbeStop(running.phrasing, running.number, "probe")
    if used > clock.left():
        clock.add(offset + running.phrasing, used)
        return ProbeStop(running.phrasing, running.number, "pack")
    if now - running.began > WALL_SECONDS:
        return ProbeStop(running.phrasing, running.number, "busy")
    return None


def _cpu_seconds(pid: int) -> float | None:
    """A live process's user + system CPU seconds (Linux), or None where /proc cannot say."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS


async def slow_phrasings(pack: Pack) -> list[str]:
    """`file:line: message` for each phrasing that backtracks past its budget, or for the
    pack when its phrasings' probes take more than PACK_BUDGET_SECONDS of CPU in all. Raises
    PackCheckBusy when the host was too busy to finish and no phrasing was found slow."""
    phrasings = rubric_phrasings(pack)
    clock = ProbeClock([0.0] * len(phrasings))
    problems: list[str] = []
    start = 0
    while start < len(phrasings) and len(problems) < MAX_REPORTED:
        stop = await _run([p.pattern for p in phrasings[start:]], start, clock)
        if stop is None:
            break
        if stop.reason == "probe":  # that phrasing is slow: time the rest without it
            problems.append(_problem(phrasings[start + stop.phrasing], stop.probe))
            start += stop.phrasing + 1
            continue
        if stop.reason != "busy":
            problems.append(_unchecked(phrasings, clock, start + stop.phrasing, stop.reason))
        elif not problems:  # starved before any phrasing was found slow: the server's fault
            raise PackCheckBusy(_busy(phrasings, start + stop.phrasing, stop.probe))
        break
    return problems


def _line(phrasing: Phrasing) -> int:
    try:
        return read_yaml(Path(phrasing.file)).line_of(phrasing.loc)
    except YamlFileError:
        return 1


def _problem(phrasing: Phrasing, probe: int) -> str:
    if probe < 0:  # never rebuilt here: that is what took too long
        return (
            f"{line_of(phrasing)}: phrasing {phrasing.pattern!r} took more than"
            f" {BUDGET_SECONDS:g} s of CPU time to build its test answers from; shorten it"
        )
    _, text = attack_probes(phrasing.pattern)[probe]
    return (
        f"{line_of(phrasing)}: phrasing {phrasing.pattern!r} took more than"
        f" {BUDGET_SECONDS:g} s of CPU time on a {PROBE_LENGTH:,}-character answer built to"
        f" make it backtrack ({_shown(text)}); write it without nested or adjacent repeats"
        " over the same characters, such as (a+)+, .*.* or (a|ab)+, and without lines or"
        " words that a repeat can match in two ways"
    )


def _unchecked(phrasings: list[Phrasing], clock: ProbeClock, at: int, reason: str) -> str:
    """The pack is refused when its phrasings could not all be timed (fail closed)."""
    phrasing = phrasings[at]
    if reason == "child":
        return f"{line_of(phrasing)}: timing stopped at phrasing {phrasing.pattern!r}; try again"
    worst = max(range(len(phrasings)), key=lambda n: clock.spent[n])
    return (
        f"{line_of(phrasings[worst])}: timing this pack's {len(phrasings)} phrasings for"
        f" backtracking took more than {PACK_BUDGET_SECONDS:g} s of CPU time in all; the"
        f" slowest, {phrasings[worst].pattern!r}, took {clock.spent[worst]:.1f} s: make it"
        " (and any like it) cheaper to search, or split the pack"
    )


def _busy(phrasings: list[Phrasing], at: int, probe: int) -> str:
    waited = f"{STARTUP_WALL_SECONDS:g} s to start"
    if probe >= 0:
        waited = f"{WALL_SECONDS:g} s on one answer"
    return (
        f"the server was too busy to time this pack's rubric phrasings for backtracking (the"
        f" check waited over {waited}, at phrasing {at + 1} of {len(phrasings)}); nothing is"
        " wrong with the pack as far as it got, and nothing was published: try again in a minute"
    )


def line_of(phrasing: Phrasing) -> str:
    """Where a phrasing is written, as `file:line` (a shared one at its line in the shared file)."""
    return f"{phrasing.file}:{_line(phrasing)}"


def _shown(text: str) -> str:
    """The start of a probe answer, enough to see what it repeats."""
    return f"{text[:60]!r}..." if len(text) > 60 else repr(text)


if __name__ == "__main__":
    _child()
