"""The partial/correct line of a rubric, fitted to labelled answers (issue 14, round 5).

A rubric's verdict comes from the concepts an answer affirms (weights over the total),
the caps of the tells it states, its `required` concepts and two thresholds. Hand-set
thresholds and `required` flags place the line where their author guessed; labellers place
it elsewhere. Grading an answer once gives its *evidence* (concepts found, tell caps,
whether it earns no credit at all); the verdict under any other line follows from that
evidence alone, so a line can be fitted by search without grading again.

`fit_line` searches thresholds between attainable scores and `required` sets one change
away from the rubric's, maximising exact agreement with the labels (then correct-vs-not
agreement), and keeps the rubric's own line unless another beats it by `margin` answers:
a line fitted to ~150 answers per question must pay for its freedom. Fitted lines are
evaluated leave-one-persona-out by `benchmarks/freetext.py --lopo` before any is written
into a rubric.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.grading.results import GradeResult
from app.packs.rubric import Rubric

BELOW_PARTIAL_SHARE = 0.5  # capped scores sit halfway below the partial threshold
DEFAULT_MARGIN = 2  # answers a fitted line must gain over the rubric's own line


@dataclass(frozen=True)
class Line:
    """Where a rubric puts correct / partial: thresholds and required concepts."""

    correct: float
    partial: float
    required: frozenset[str]

    @classmethod
    def of(cls, rubric: Rubric) -> Line:
        return cls(
            rubric.thresholds.correct,
            rubric.thresholds.partial,
            frozenset(c.id for c in rubric.concepts if c.required),
        )


@dataclass(frozen=True)
class Evidence:
    """What grading read in one answer, enough to give its verdict under any line."""

    found: frozenset[str]  # concept ids affirmed
    score: float  # weight of those concepts over the total (before any cap)
    caps: tuple[str, ...]  # caps of the tells stated ("partial" | "incorrect")
    no_credit: bool  # a keyword list, an injection, credit only in a tell's words: below partial
    empty: bool = False
    # The rubric's `required` concepts the rules did not credit (round 27): a learned part
    # never raises such an answer to correct. Missing means not in `found`, the rules' own
    # reading; a near-miss (a phrasing read loosely, learned_evidence.py) is still missing.
    required_missing: frozenset[str] = frozenset()

    @classmethod
    def read(
        cls, rubric: Rubric, found: Iterable[str], caps: Iterable[str], no_credit: bool
    ) -> Evidence:
        ids = frozenset(found)
        missing = Line.of(rubric).required - ids
        return cls(ids, raw_score(rubric, ids), tuple(caps), no_credit, required_missing=missing)


def evidence_of(rubric: Rubric, result: GradeResult) -> Evidence:
    """The evidence behind a grading result of this rubric."""
    details = result.details
    caps: dict[str, str] = {m.tag: m.cap for m in rubric.misconceptions}
    stated = details.get("caps")  # the caps grading applied (tell_caps.py, round 15)
    if isinstance(stated, dict):
        caps.update({str(t): str(c) for t, c in stated.items()})
    if details.get("empty"):
        return Evidence(frozenset(), 0.0, (), False, empty=True)
    found = details.get("concepts_found", ())
    return Evidence.read(
        rubric,
        [str(c) for c in found] if isinstance(found, list | tuple) else [],
        (caps.get(tag, "partial") for tag in result.misconceptions),
        bool(
            details.get("keyword_list")
            or details.get("injection")
            or details.get("credit_is_the_tell")
        ),
    )


def raw_score(rubric: Rubric, found: frozenset[str]) -> float:
    """Weight of the concepts found over the total weight (before caps)."""
    total = sum(c.weight for c in rubric.concepts)
    return sum(c.weight for c in rubric.concepts if c.id in found) / total


def line_score(rubric: Rubric, evidence: Evidence, line: Line) -> float:
    """The score under a line: tells cap it, a missing required concept keeps it below
    correct, an answer earning no credit stays below partial."""
    score = evidence.score
    below_correct = line.correct - 0.01
    below_partial = line.partial * BELOW_PARTIAL_SHARE
    for cap in evidence.caps:
        score = min(score, below_correct if cap == "partial" else below_partial)
    if line.required - evidence.found:
        score = min(score, below_correct)
    if evidence.no_credit:
        score = min(score, below_partial)
    return round(score, 3)


def line_verdict(rubric: Rubric, evidence: Evidence, line: Line) -> str:
    if evidence.empty:
        return "incorrect"
    score = line_score(rubric, evidence, line)
    if score >= line.correct:
        return "correct"
    return "partial" if score >= line.partial else "incorrect"


def agreement(rubric: Rubric, data: Sequence[tuple[Evidence, str]], line: Line) -> tuple[int, int]:
    """(exact, correct-vs-not) agreements of a line with the labels."""
    exact = binary = 0
    for evidence, label in data:
        verdict = line_verdict(rubric, evidence, line)
        exact += verdict == label
        binary += (verdict == "correct") == (label == "correct")
    return exact, binary


def _cuts(rubric: Rubric) -> list[float]:
    """Thresholds halfway between consecutive attainable scores (every subset of the
    concepts' weights), rounded to 3 decimals."""
    weights = [c.weight for c in rubric.concepts]
    total = sum(weights)
    sums = {0.0}
    for w in weights:
        sums |= {s + w for s in sums}
    scores = sorted({round(s / total, 3) for s in sums})
    return [round((a + b) / 2, 3) for a, b in pairwise(scores)]


def _required_options(rubric: Rubric, current: frozenset[str]) -> list[frozenset[str]]:
    """The rubric's required set, and every set one concept away from it."""
    options = [current]
    for concept in rubric.concepts:
        options.append(current ^ {concept.id})
    return options


def fit_line(
    rubric: Rubric, data: Sequence[tuple[Evidence, str]], margin: int = DEFAULT_MARGIN
) -> Line:
    """The line that agrees best with the labels, or the rubric's own when none beats it
    by `margin` answers. Ties go to correct-vs-not agreement, then to the line nearest
    the rubric's."""
    current = Line.of(rubric)
    cuts = _cuts(rubric)
    # A partial threshold may also sit below the lowest cut: then every answer with any
    # credit (or capped just below a low correct threshold) is at least partial.
    partials = [round(cuts[0] / 2, 3), *cuts] if cuts else []
    base = agreement(rubric, data, current)

    def nearness(line: Line) -> float:
        moved = abs(line.correct - current.correct) + abs(line.partial - current.partial)
        return -(moved + len(line.required ^ current.required))

    best, best_key = current, (*base, 0.0)
    for required in _required_options(rubric, current.required):
        for correct in cuts:
            for partial in (p for p in partials if p < correct):
                line = Line(correct, partial, required)
                key = (*agreement(rubric, data, line), nearness(line))
                if key > best_key:
                    best, best_key = line, key
    return best if best_key[0] >= base[0] + margin else current
