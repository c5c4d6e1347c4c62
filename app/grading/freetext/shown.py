"""What a learner is shown of a free-text grading: feedback and a score that agree with the
verdict (issue 14, round 23).

The grader's score is the share of the rubric's concept weight an answer affirms, read
against that rubric's own line, and lines are fitted per question (no-zero-grad counts 0.214
as correct). Its feedback lists every concept missed. So an answer could read "Correct ·
score 29%" above red "Missed" lines, and the learner could not tell which to trust.
`as_shown` is applied where every learner-facing grading passes (app/grading/dispatch.py:
practice pages, interviews and their report, the JSON API):

- the score goes onto one scale for every question: each rubric's band is mapped, linearly,
  onto correct from 70%, partial from 25% to 69%, incorrect below 25% (where the default
  rubric line sits), so a correct verdict never shows a score below 70% and a partial one
  never 70% or more; the rubric's own score stays in `details.rubric_score`;
- on a correct verdict a concept not covered is an optional extra, an `info` item "Could
  also mention: <the concept>.", not a `missing` one (`details.concepts_missed` still lists
  it). Below correct a missed concept stays `missing`: it is what the answer needs.

No verdict changes here, and no kind is added: clients that read `missing` as "to fix" see
none on a correct answer.
"""

from __future__ import annotations

import dataclasses

from app.grading.freetext.grader import missing_message
from app.grading.results import Feedback, GradeResult
from app.packs.rubric import Rubric, Thresholds

SHOWN_CORRECT = 0.7  # a correct verdict shows at least this score
SHOWN_PARTIAL = 0.25  # a partial verdict at least this, and below SHOWN_CORRECT
# The highest score shown below a band (a page rounds to whole percents: 0.699 reads 70%).
_BELOW_CORRECT = 0.69
_BELOW_PARTIAL = 0.24
EXTRA_PREFIX = "Could also mention: "


def as_shown(rubric: Rubric, result: GradeResult) -> GradeResult:
    """`result` with its score on the common scale and, on a correct verdict, concepts not
    covered as optional extras. A result that is not a verdict (`error`) is left alone."""
    if result.verdict not in ("correct", "partial", "incorrect"):
        return result
    feedback = result.feedback
    if result.verdict == "correct":
        labels = {missing_message(c): c.label for c in rubric.concepts}
        feedback = [_as_extra(f, labels) if f.kind == "missing" else f for f in feedback]
    return dataclasses.replace(
        result,
        score=shown_score(rubric.thresholds, result.verdict, result.score),
        feedback=feedback,
        details={**result.details, "rubric_score": result.score},
    )


def shown_score(thresholds: Thresholds, verdict: str, score: float) -> float:
    """The rubric's score mapped band by band onto the common scale, then held inside the
    verdict's band (a learned part may move a verdict without moving the score across the
    rubric's line)."""
    correct, partial = thresholds.correct, thresholds.partial
    if score >= correct:
        shown = 1.0 if correct >= 1 else _between(score, correct, 1.0, SHOWN_CORRECT, 1.0)
    elif score >= partial:
        shown = _between(score, partial, correct, SHOWN_PARTIAL, SHOWN_CORRECT)
    else:
        shown = _between(score, 0.0, partial, 0.0, SHOWN_PARTIAL) if partial > 0 else 0.0
    low, high = {
        "correct": (SHOWN_CORRECT, 1.0),
        "partial": (SHOWN_PARTIAL, _BELOW_CORRECT),
    }.get(verdict, (0.0, _BELOW_PARTIAL))
    return round(min(high, max(low, shown)), 3)


def _between(score: float, lo: float, hi: float, to_lo: float, to_hi: float) -> float:
    share = (score - lo) / (hi - lo) if hi > lo else 0.0
    return to_lo + (to_hi - to_lo) * min(1.0, max(0.0, share))


def _as_extra(item: Feedback, labels: dict[str, str]) -> Feedback:
    label = labels.get(item.message)
    if label is None:  # not a concept's message: keep its words, as an extra
        return Feedback("info", EXTRA_PREFIX + item.message[:1].lower() + item.message[1:])
    return Feedback("info", f"{EXTRA_PREFIX}{label.rstrip('.')}.")
