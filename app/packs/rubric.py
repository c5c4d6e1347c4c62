"""Rubric models for free-text questions: what an instructor writes to grade explanations.

Kept apart from schema.py because the rubric language (phrasings, tells, thresholds) is the
free-text grader's contract with pack authors and evolves with that grader. Phrasings are
regular expressions (case-insensitive) matched one sentence at a time; ` ~ ` inside a
phrasing stands for "a gap of up to eight words". `any` phrasings count when the sentence
affirms them, `negated` phrasings count only when the sentence denies them ("does not
update", "instead of", "unlike"), so the denial of a tell can itself be a concept.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any, Literal

import regex
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

Verdict = Literal["correct", "partial", "incorrect"]
# Why a lazy, bounded word gap: authors need "X ... Y" without writing `.*`, which would
# run across clauses and make every pattern match everything in a long answer.
# Separators and word characters are disjoint classes so a gap can split a text one way
# only; overlapping classes ("tape.gradient" as one word or three) backtrack
# exponentially on long answers.
_GAP_SEPARATOR = r"[^\w\n.]+"
_GAP_WORD = r"[\w.]+"
GAP_REGEX = rf"(?:{_GAP_SEPARATOR}{_GAP_WORD}){{0,8}}?{_GAP_SEPARATOR}"
# Round 47: ` ~!(since|because) ` is the same gap crossing none of the words named (each
# read as a whole word), built from the gap's own parts so the two cannot drift apart (round
# 46 spelled one out by hand in higher-order-derivatives' must-watch-variables). One
# look-ahead per word of the gap: as linear as the gap itself.
_BARRED = r"[^()\n]+"  # the words a barred gap crosses none of: an alternation, no group
# A gap as a phrasing writes it, with no group of its own (a split on it keeps it whole).
GAP_MARK = rf"(?<!\\)~(?:!\({_BARRED}\))?"
_GAP = re.compile(rf"\s*(?<!\\)~(?:!\(({_BARRED})\))?\s*")
SLUG = r"^[a-z0-9][a-z0-9-]{0,62}$"
# A bound on what an uploaded pack can make the grader search per answer (each tell's
# phrasings are matched against every sentence). 30 from round 8 of issue 14 (the core pack's
# widest rubrics then held 20 tells their questions' answers really state); 40 since round 26,
# when gradient-vs-apply reached 30 with beliefs left out. The grading budget bounds the cost
# whatever the count: a hostile pack at 40 (benchmarks/misconception_limit.py) is stopped at
# the whole-answer deadline like one at 30 (tests/packs/test_misconception_limit.py).
# 48 since round 45, when gradient-vs-apply's 40 left out two beliefs its labellers found
# (gradient-scalar-per-layer, tape-snapshots-weights) and none of its tags was the same belief
# as another: each tell costs one search of its phrasings per sentence, and the hostile pack
# at 48 is stopped at the same deadline (docs/freetext-rounds.md, round 45, engineer C36).
MAX_MISCONCEPTIONS = 48


class Strict(BaseModel):
    """A pack model: unknown fields rejected, values frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class PointedError(ValueError):
    """A field's problem that lies deeper in it (`at`: a path inside the field's value), so
    the loader reports the line of, say, the second choice marked correct, not the field's."""

    def __init__(self, message: str, at: tuple[int | str, ...]) -> None:
        super().__init__(message)
        self.at = at


def expand_phrasing(pattern: str) -> str:
    """The regular expression a phrasing stands for (the ` ~ ` gap expanded)."""
    return _GAP.sub(lambda gap: GAP_REGEX if gap[1] is None else barred_gap(gap[1]), pattern)


def barred_gap(words: str) -> str:
    """The ` ~ ` gap with no word of `words` (an alternation) among those it crosses."""
    return rf"(?:{_GAP_SEPARATOR}(?!(?:{words})\b){_GAP_WORD}){{0,8}}?{_GAP_SEPARATOR}"


_NEGATION_IN_SOURCE = re.compile(
    r"\b(?:not|no|never|nothing|without|cannot|unlike|instead of|rather than|dont|doesnt|isnt)\b"
    r"|n't\b|n\[o'\]\??t\b",
    re.IGNORECASE,
)


def _without_excluded_roles(pattern: str) -> str:
    """A claim's roles that must not occur (`& !(...)`) are no content: a negation there
    ("!(not None)") excludes a denial, it states none (round 11); so is an answer guard
    (`& !!(...)`, round 36), and an answer requirement (`& !+(...)`, round 54), checked on its
    own (`_check_requirements`)."""
    return " & ".join(r for r in re.split(r"\s+&\s+", pattern) if not r.startswith("!"))


def check_affirmative(patterns: list[str]) -> list[str]:
    """`any` phrasings must be affirmative, or the grader would read them as denied."""
    for pattern in patterns:
        if _NEGATION_IN_SOURCE.search(_without_excluded_roles(pattern)):
            raise ValueError(
                f"phrasing {pattern!r} contains a negation; put its affirmative form under"
                " `negated` instead (a denied phrasing there counts)"
            )
    return check_patterns(patterns)


PHRASING_FLAGS = regex.IGNORECASE | regex.V0  # how the grader compiles a phrasing
# Compiles of expressions no kept pack holds (uploaded packs'; the core pack's before
# start-up keeps them): ~8 KB each (round 29), so at most ~16 MB.
RECENT_COMPILES = 2048


class PhrasingCompiles:
    """The process's compiled phrasings, each compiled once (thread-safe).

    Loading a pack compiles every phrasing whole to validate it, and the grader compiles the
    same expression where the lexicon widens nothing (round 29: ~1,200 of the core pack's
    1,400 plain phrasings), so both read one store. It has two parts (round 30): `kept`, the
    expressions of the packs the process keeps compiled for its life (the built-in packs',
    kept at start-up by preload.py: the repository's content, its size known), and `recent`,
    the last RECENT_COMPILES of any other. Before, one LRU of 2,048 held all, so an uploaded
    pack with more phrasings than that (its author chooses how many) evicted the core pack's
    compiles, which its next answers compiled again. Uploaded packs share one bound rather
    than one each: their number is their authors' choice too, and a bound per pack would
    multiply the memory by it.
    """

    def __init__(self, recent: int = RECENT_COMPILES) -> None:
        self._size = recent
        self._kept: dict[str, Any] = {}
        self._recent: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, expression: str) -> Any:
        """The expression compiled (IGNORECASE, V0); raises `regex.error` if invalid."""
        found = self._kept.get(expression)  # one dict read: kept entries are never removed
        if found is not None:
            return found
        with self._lock:
            found = self._recent.get(expression)
            if found is not None:
                self._recent.move_to_end(expression)
                return found
        compiled = regex.compile(expression, PHRASING_FLAGS)  # outside the lock: ~1 ms
        with self._lock:  # threads that compiled it together all read the first one stored
            found = self._kept.get(expression)
            if found is not None:
                return found
            found = self._recent.setdefault(expression, compiled)
            self._recent.move_to_end(expression)
            while len(self._recent) > self._size:
                self._recent.popitem(last=False)
        return found

    def keep(self, expression: str) -> Any:
        """The expression compiled and held for the process's life: for trusted packs only
        (nothing bounds what is kept)."""
        compiled = self(expression)
        with self._lock:
            self._recent.pop(expression, None)
            return self._kept.setdefault(expression, compiled)

    def sizes(self) -> tuple[int, int]:
        """How many expressions are kept, and how many recent ones are held."""
        with self._lock:
            return len(self._kept), len(self._recent)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._recent.clear()


compiled_phrasing = PhrasingCompiles()


def check_patterns(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        _check_requirements(pattern)
        try:
            # validated by the engine that runs it (the grader compiles with `regex`, V0)
            compiled = compiled_phrasing(expand_phrasing(pattern))
        except regex.error as exc:
            raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
        if re.search(r"\\\\[wsbdWSBD.()]", pattern):
            raise ValueError(
                f"phrasing {pattern!r} has a doubled backslash; in YAML plain or single-quoted"
                " text write \\w, \\s, \\. with one backslash"
            )
        if compiled.search(""):
            raise ValueError(f"phrasing {pattern!r} matches the empty answer")
    return patterns


def _check_requirements(pattern: str) -> None:
    """An answer requirement (`& !+(...)`, round 54) is searched alone over the whole answer:
    it must compile alone and match some words (in `any` and `negated` alike). Its polarity is
    not read, so a negation in it is words to match (`(?<!not )persistent`), as in an excluded
    role."""
    for part in re.split(r"\s+&\s+", pattern):
        if not part.startswith("!+"):
            continue
        try:
            compiled = compiled_phrasing(expand_phrasing(part.removeprefix("!+")))
        except regex.error as exc:
            raise ValueError(f"invalid answer requirement {part!r} in {pattern!r}: {exc}") from exc
        if compiled.search(""):
            raise ValueError(f"answer requirement {part!r} in {pattern!r} matches the empty answer")


class _Phrased(Strict):
    any: list[str] = Field(default_factory=list, max_length=60)
    negated: list[str] = Field(default_factory=list, max_length=60)

    _valid_any = field_validator("any")(classmethod(lambda cls, v: check_affirmative(v)))
    _valid_neg = field_validator("negated")(classmethod(lambda cls, v: check_patterns(v)))

    @model_validator(mode="after")
    def _has_phrasing(self) -> _Phrased:
        if not self.any and not self.negated:
            raise ValueError("give at least one phrasing in `any` or `negated`")
        return self


class Concept(_Phrased):
    """An idea a good answer states, recognised by any of its phrasings."""

    id: str = Field(pattern=SLUG)
    label: str = Field(min_length=1, max_length=300)
    weight: float = Field(default=1.0, gt=0, le=10)
    required: bool = False  # without it the answer is at most partial
    missing: str = Field(default="", max_length=500)  # actionable advice when absent


class Implication(Strict):
    """Another tell of the rubric that, stated in an answer that also affirms `cue`, states
    this one too (round 50): labellers read one belief as carrying another, e.g. "call
    gradient twice on one tape" in an answer that makes the tape persistent carries
    "persistent=True gives the second derivative" (173 of 175 such answers over tune).

    `cue` is a phrasing, read anywhere in the answer (prose or code) as an `any` phrasing is:
    affirmed, not another framework's, not in a question."""

    tag: str = Field(pattern=SLUG)
    cue: str = Field(min_length=1, max_length=500)

    _valid_cue = field_validator("cue")(classmethod(lambda cls, v: check_affirmative([v])[0]))


class Misconception(_Phrased):
    """A tell: a statement that reveals a wrong mental model, with the correction to show."""

    tag: str = Field(pattern=SLUG)
    label: str = Field(default="", max_length=300)  # the tell in words; defaults to the tag
    correction: str = Field(min_length=1, max_length=2_000)
    # The best verdict an answer stating this tell can get, however good the rest is.
    cap: Literal["partial", "incorrect"] = "partial"
    # Named too where one of these tells is named and the answer affirms its cue (round 50).
    implied_by: list[Implication] = Field(default_factory=list, max_length=8)

    @model_serializer(mode="wrap")
    def _without_empty_implications(self, handler: SerializerFunctionWrapHandler) -> Any:
        """A tell implied by none is dumped as before round 50: the learned artefacts are keyed
        by the rubric's dump (second_opinion.rubric_key), which a new empty field would move
        for every rubric."""
        dumped = handler(self)
        if not self.implied_by and isinstance(dumped, dict):
            dumped.pop("implied_by", None)
        return dumped


class Thresholds(Strict):
    correct: float = Field(default=0.75, gt=0, le=1)
    partial: float = Field(default=0.4, gt=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> Thresholds:
        if self.partial >= self.correct:
            raise ValueError("thresholds.partial must be below thresholds.correct")
        return self


class Rubric(Strict):
    concepts: list[Concept] = Field(min_length=1, max_length=12)
    misconceptions: list[Misconception] = Field(default_factory=list, max_length=MAX_MISCONCEPTIONS)
    model_answer: str = Field(min_length=1, max_length=5_000)
    thresholds: Thresholds = Thresholds()

    @model_validator(mode="after")
    def _unique_ids(self) -> Rubric:
        for kind, ids in (
            ("concept id", [c.id for c in self.concepts]),
            ("misconception tag", [m.tag for m in self.misconceptions]),
        ):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {kind}(s): {', '.join(dupes)}")
        return self

    @model_validator(mode="after")
    def _implications_resolve(self) -> Rubric:
        """Each `implied_by` names another tell of this rubric, and no tell implies itself
        through a chain of them (round 50)."""
        tags = {m.tag for m in self.misconceptions}
        for n, tell in enumerate(self.misconceptions):
            for k, rule in enumerate(tell.implied_by):
                at = ("misconceptions", n, "implied_by", k, "tag")
                if rule.tag == tell.tag:
                    raise PointedError(f"misconception {tell.tag!r} is implied by itself", at=at)
                if rule.tag not in tags:
                    message = (
                        f"misconception {tell.tag!r} is implied by {rule.tag!r}, which is no"
                        " misconception tag of this rubric"
                    )
                    raise PointedError(message, at=at)
        cycle = _implication_cycle(self.misconceptions)
        if cycle:
            n = next(i for i, m in enumerate(self.misconceptions) if m.tag == cycle[0])
            raise PointedError(
                f"implied_by goes round in a cycle: {' <- '.join(cycle)}",
                at=("misconceptions", n, "implied_by"),
            )
        return self


def _implication_cycle(misconceptions: list[Misconception]) -> list[str]:
    """Tags of one cycle of `implied_by` (its first tag repeated at its end), or []. Each tag
    is walked from once (`done`), so a hostile pack's many paths cost no more than its edges."""
    implied_by = {m.tag: [rule.tag for rule in m.implied_by] for m in misconceptions}
    done: set[str] = set()

    def walk(tag: str, path: list[str]) -> list[str]:
        if tag in path:
            return [*path[path.index(tag) :], tag]
        if tag in done:
            return []
        for implying in implied_by.get(tag, []):
            cycle = walk(implying, [*path, tag])
            if cycle:
                return cycle
        done.add(tag)
        return []

    for tag in implied_by:
        cycle = walk(tag, [])
        if cycle:
            return cycle
    return []


class SampleAnswer(Strict):
    """A labelled answer: the self-test and calibration check the grader agrees with it."""

    answer: str = Field(min_length=1, max_length=10_000)
    verdict: Verdict
    misconceptions: list[str] = Field(default_factory=list)
