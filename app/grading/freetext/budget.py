"""One CPU-time budget per answer for every rubric phrasing the grader searches.

Phrasings are regular expressions from the core rubric and from instructors' packs, run in
the web process on learners' text. Python's `re` cannot be interrupted: one quadratic or
cubic phrasing on a pumped answer held the grading thread for seconds to minutes (issue 14,
rounds 17-18). Phrasings are compiled with the `regex` module (V0, the `re`-compatible
syntax) and searched with its `timeout`, which counts the process's CPU time. The budget is
one for the whole answer: each search gets what the answer's earlier searches left. A search
that runs out, and every phrasing search after it, finds nothing; the grader marks the result
(`details.stopped_early`), so the answer is graded from what was read and never counted
correct on a partial reading. Outside `answer_budget` (the pack-time timing check) searches are
unbounded, so the check measures a phrasing's real cost.

Searches are not all the work: each match is read (polarity, claims) and a new pack's
phrasings are compiled on its first answer, and a hostile pack at the schema's limits (every
tell matching every sentence) held a grading thread for over a minute with no search running
out (round 23, benchmarks/misconception_limit.py). So the budget also has a deadline on the
answer's whole CPU time in its thread (WHOLE_ANSWER_SECONDS): past it every search finds
nothing, and the answer is marked as stopped early.

A search past the deadline returns at once, but the loops around searches still walked every
phrasing of every concept and tell (compiling each on a cold or evicted cache) and read every
match already found: the hostile pack above still held a thread ~10 CPU s (round 24). So the
loops that read an answer (matching, claims, the grader's, the learned parts' entries) check
`stopped()`, one flag read, and end once the budget is spent (round 24).

One clock: every figure here is the answer's thread CPU time. The budget bounds what one
answer holds its grading thread for; process CPU also counts the other requests' gradings,
so under load an honest answer would be stopped early by someone else's work. `regex`'s own
timeout counts process CPU (C `clock()`), which is never less than the thread's: it is given
the thread time left, so no search outlives the budget; it can only end a search early while
another thread runs native code without the GIL (regex holds the GIL while it searches).
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import regex

from app.grading.freetext.required_text import Requirement, may_match, required_text
from app.grading.results import Feedback, GradeResult
from app.packs.rubric import PHRASING_FLAGS, compiled_phrasing
from app.packs.schema import FreeText

P = ParamSpec("P")
T = TypeVar("T")

# CPU seconds of phrasing search per answer. Grading a labelled answer whole takes a p50 of
# 12 ms and a p95 of 30 ms of CPU (round 19, benchmarks/phrasing_budget.py); 3 s leaves a
# hundred times that for honest answers and bounds a pumped one to about a request timeout.
ANSWER_SECONDS = 3.0
# CPU seconds of the whole answer in its thread (searches, reading matches, compiling a new
# pack's phrasings): a first answer on a cold process takes up to ~1.7 s with every
# artefact and the core rubric's phrasings loaded (round 23), so honest answers stay well
# inside it, and a hostile pack cannot hold a grading thread much beyond it.
WHOLE_ANSWER_SECONDS = 2 * ANSWER_SECONDS
FLAGS = PHRASING_FLAGS  # one definition: _compile reads the pack loader's compiles by it
_VERBOSE = int(regex.VERBOSE)  # the same bit in `re`
_UNICODE = int(regex.UNICODE)  # the same bit in `re`
# A phrasing's match: a `regex.Match[str]` (regex ships no type stubs).
PhrasingMatch = Any


@dataclass
class Budget:
    """CPU seconds of phrasing search an answer may use, what its searches have used, and
    whether one ran out. `seconds` bounds the time inside searches; `whole` bounds
    everything the answer's thread does from the budget's start (see the module's
    docstring)."""

    seconds: float
    used: float = 0.0
    spent: bool = False
    whole: float = WHOLE_ANSWER_SECONDS
    began: float = dataclasses.field(default_factory=time.thread_time)

    def left(self) -> float:
        """What the next search may use: the searches' budget left, or the whole answer's
        deadline, whichever comes first."""
        return min(self.seconds - self.used, self.whole - (time.thread_time() - self.began))

    def out_of_time(self) -> bool:
        """Whether the budget is spent, reading the clock too (between the parts of an
        answer's grading, where no search has run for a while)."""
        if not self.spent and self.left() <= 0:
            self.spent = True
        return self.spent

    @contextmanager
    def searching(self) -> Iterator[None]:
        began = time.thread_time()
        try:
            yield
        except TimeoutError:
            self.spent = True
        finally:
            self.used += time.thread_time() - began


_CURRENT: ContextVar[Budget | None] = ContextVar("phrasing_budget", default=None)


@contextmanager
def uncounted() -> Iterator[None]:
    """Work no answer pays for: building the shipped artefacts' tables once per process
    (trusted files, the same for every answer; the neighbours' index alone takes seconds).
    Inside, no budget applies; after, the answer's deadline moves on by the thread CPU time
    spent inside, so the answer that happens to come first is not stopped early for it."""
    budget = _CURRENT.get()
    token = _CURRENT.set(None)
    began = time.thread_time()
    try:
        yield
    finally:
        _CURRENT.reset(token)
        if budget is not None:
            budget.began += time.thread_time() - began


def stopped() -> bool:
    """Whether the answer's budget is spent: the loops that read an answer end here. One
    flag read (set by the search that finds the budget spent), cheap enough per phrasing."""
    budget = _CURRENT.get()
    return budget is not None and budget.spent


def out_of_time() -> bool:
    """`stopped()`, reading the clock as well: for the start of a part of grading that may
    run no search of its own (the learned parts)."""
    budget = _CURRENT.get()
    return budget is not None and budget.out_of_time()


@contextmanager
def answer_budget(seconds: float | None = None) -> Iterator[Budget]:
    """Bound every phrasing search inside the block by one budget (ANSWER_SECONDS unless
    given; the whole answer's deadline scales with it); a block inside another shares the
    outer one (the answer's)."""
    outer = _CURRENT.get()
    if outer is not None:
        yield outer
        return
    seconds = ANSWER_SECONDS if seconds is None else seconds
    budget = Budget(seconds, whole=WHOLE_ANSWER_SECONDS * seconds / ANSWER_SECONDS)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


class BoundedPattern:
    """A phrasing whose searches stop when the answer's budget runs out (None).

    The subset of `re.Pattern` the grader uses; matches are `regex` matches, whose `.re`,
    `.span()` and `.group()` read as `re`'s do. Built from a compiled expression, or
    `deferred`: compiled by the first search that runs (round 29).
    """

    __slots__ = ("_compiled", "_flags", "_source", "required")

    def __init__(self, compiled: Any) -> None:
        self._compiled: Any = compiled
        self._source, self._flags = str(compiled.pattern), int(compiled.flags)
        self.required = _requirement(self._source, self._flags)

    @classmethod
    def deferred(cls, pattern: str, flags: int) -> BoundedPattern:
        """The expression left uncompiled until a search of it runs: a cold process's first
        answer to a question compiled all of its ~250 phrasings (~1 ms of `regex` each),
        though the requirement rules out most of their searches (round 29). An invalid
        expression raises `regex.error` at its first search or `checked()`, not here."""
        made = cls.__new__(cls)
        made._compiled, made._source, made._flags = None, pattern, flags
        made.required = _requirement(pattern, flags)
        return made

    @property
    def compiled(self) -> Any:
        """The `regex` expression, compiled once; threads that meet it first together
        compile it once (one lock: compiling holds the interpreter's lock anyway)."""
        if self._compiled is None:
            with _COMPILING:
                if self._compiled is None:
                    self._compiled = _compile(self._source, self._flags)
        return self._compiled

    def checked(self) -> BoundedPattern:
        """Itself, compiled now: raises `regex.error` if the expression is invalid."""
        _ = self.compiled
        return self

    @property
    def pattern(self) -> str:
        return self._source

    @property
    def flags(self) -> int:
        return int(self.compiled.flags)  # as `regex` reads them (inline flags too)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return _bounded(self, "search", text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return _bounded(self, "match", text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return _bounded(self, "fullmatch", text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        endpos = len(text) if endpos is None else endpos
        budget = _CURRENT.get()
        if budget is None:
            yield from self.compiled.finditer(text, pos, endpos)
            return
        if not may_match(self.required, text, pos, endpos):
            return
        if budget.spent or budget.left() <= 0:
            budget.spent = True
            return
        compiled = self.compiled  # a deferred compile is not search time (the deadline's)
        # regex counts the timeout from the iterator's start, across its matches
        found = iter(compiled.finditer(text, pos, endpos, timeout=budget.left()))
        while not budget.spent:
            match = None
            with budget.searching():
                match = next(found, None)
            if match is None:
                return
            yield match


_COMPILING = threading.Lock()


def _compile(pattern: str, flags: int) -> Any:
    """Compiled by `regex`; with the flags a pack's validation compiles a phrasing with,
    the compile it made is read (rubric.compiled_phrasing). Those flags as a compile reads
    them back (a claim role's word-edged form is built from `role.flags`) include UNICODE,
    which `regex` sets on every text expression: the same compile (round 30)."""
    if _phrasing_flags(flags):
        return compiled_phrasing(pattern)
    return regex.compile(pattern, flags)


def _phrasing_flags(flags: int) -> bool:
    return flags & ~_UNICODE == PHRASING_FLAGS


def kept_compiled(pattern: BoundedPattern) -> BoundedPattern:
    """The phrasing compiled now, its compile held for the process's life where it is
    compiled as phrasings are (rubric.PhrasingCompiles.keep): for the built-in packs'
    phrasings at start-up (preload.py, round 30), never an uploaded pack's."""
    if _phrasing_flags(pattern._flags):
        kept = compiled_phrasing.keep(pattern._source)  # raises `regex.error` if invalid
        with _COMPILING:
            if pattern._compiled is None:
                pattern._compiled = kept
    return pattern.checked()


def _requirement(pattern: str, flags: int) -> Requirement:
    """What every match contains (required_text.py, round 28): inside an answer's budget, a
    search in a text without it finds nothing and is not run (not read where whitespace is
    no literal; an inline flag group reads as no requirement)."""
    return () if flags & _VERBOSE else required_text(pattern)


def _bounded(pattern: BoundedPattern, method: str, text: str, pos: int, endpos: int | None) -> Any:
    endpos = len(text) if endpos is None else endpos
    budget = _CURRENT.get()
    if budget is None:  # the pack-time timing check: the search's real cost, always
        return getattr(pattern.compiled, method)(text, pos, endpos)
    if budget.spent or not may_match(pattern.required, text, pos, endpos):
        return None
    # compiled (if deferred) before the search's clock: it counts to the answer's
    # deadline, as a compile at the phrasing's first reading did, not to search time
    run = getattr(pattern.compiled, method)
    # `left()` and `searching()` inlined: one clock read before the search and one after,
    # where they took three and a context manager (round 25: ~10% of an honest answer's
    # grading went to this bookkeeping around ~300 searches)
    began = time.thread_time()
    left = min(budget.seconds - budget.used, budget.whole - (began - budget.began))
    if left <= 0:  # regex reads timeout <= 0 as none or as spent: never pass it
        budget.spent = True
        return None
    found = None
    try:
        found = run(text, pos, endpos, timeout=left)
    except TimeoutError:
        budget.spent = True
    finally:
        budget.used += time.thread_time() - began
    return found


def compile_bounded(pattern: str, flags: int = FLAGS) -> BoundedPattern:
    """A phrasing compiled by the engine that runs it; raises `regex.error` if invalid."""
    return BoundedPattern(regex.compile(pattern, flags | regex.V0))


def deferred_bounded(pattern: str, flags: int = FLAGS) -> BoundedPattern:
    """A phrasing compiled by its first search that runs (BoundedPattern.deferred)."""
    return BoundedPattern.deferred(pattern, flags | regex.V0)


def within_budget(read: Callable[P, T]) -> Callable[P, T]:
    """Run a reading of one text (stated_misconceptions, affirms) inside one budget: what
    was found before the budget ran out is its answer."""

    @functools.wraps(read)
    def bounded(*args: P.args, **kwargs: P.kwargs) -> T:
        with answer_budget():
            return read(*args, **kwargs)

    return bounded


STOPPED_EARLY_MESSAGE = (
    "Grading stopped early: this answer took longer to check than the grader allows, so "
    "only the part read in time was graded, and it cannot count as correct on that reading. "
    "A shorter answer, in plain sentences, is graded in full."
)


def graded_within_budget(
    grade: Callable[Concatenate[FreeText, P], GradeResult],
) -> Callable[Concatenate[FreeText, P], GradeResult]:
    """Grade an answer inside one budget; a result read only in part says so (feedback and
    `details.stopped_early`) and is never correct: its verdict and score are held below the
    correct threshold (midway to partial), whatever the rules or second opinion said."""

    @functools.wraps(grade)
    def bounded(question: FreeText, *args: P.args, **kwargs: P.kwargs) -> GradeResult:
        with answer_budget() as budget:
            result = grade(question, *args, **kwargs)
        return _stopped_early(question, result) if budget.spent else result

    return bounded


def _stopped_early(question: FreeText, result: GradeResult) -> GradeResult:
    thresholds = question.rubric.thresholds
    verdict, score = result.verdict, result.score
    if verdict == "correct" or score >= thresholds.correct:
        verdict = "partial"
        score = min(score, round((thresholds.partial + thresholds.correct) / 2, 3))
    return dataclasses.replace(
        result,
        verdict=verdict,
        score=score,
        feedback=[Feedback("info", STOPPED_EARLY_MESSAGE), *result.feedback],
        details={**result.details, "stopped_early": True},
    )
