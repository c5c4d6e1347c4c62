"""What an interviewer concludes: strengths and gaps per dimension, and one overall signal.

The report's score alone misleads (one easy answer reads 100%), so the signal rests on
evidence as well as the score: how much of the planned interview was answered, each
dimension's result (concepts, code, explanation, speed) and the tells shown. Thresholds
are deliberately strict: "strong" needs most of the plan answered, no tell, and a passing
code answer where code was asked.
"""

from __future__ import annotations

from app.models.interviews import Dimension, RedFlag, ReportAnswer, Scores, Signal

CONCEPT_TYPES = ("single-choice", "multiple-choice", "true-false", "ordering", "predict-output")
DIMENSIONS = (
    ("concepts", "Concepts", CONCEPT_TYPES),
    ("code", "Code", ("code", "code-fix")),
    ("explanation", "Explanation quality", ("free-text",)),
)
SLOT_SECONDS = {"warm-up": 60, "explanation": 180, "code": 360, "follow-up": 120}
TITLES = {
    "strong": "Strong signal on this material",
    "lean yes": "Lean yes: solid, with gaps to close",
    "lean no": "Lean no: worth another round first",
    "not yet": "Not yet: not enough shown to judge",
}
MIN_ANSWERED = 3
MIN_WEIGHT = 2.0
WEIGHTS = {"free-text": 2.0, "code": 3.0, "code-fix": 3.0}
MIN_COVERAGE = 0.6
SPEED_NEEDS_SCORE = 0.5  # answering fast counts only when the answers are mostly right


def _standing(score: float | None, weight: float) -> str:
    """`weight`: how much the dimension was tested (a concept question 1, an explanation 2,
    code 3). One concept question, or one timed answer, is too little to call a strength."""
    if score is None or not weight:
        return "untested"
    if score < 0.5:
        return "gap"
    if weight < MIN_WEIGHT:
        return "thin"
    return "strength" if score >= 0.8 else "mixed"


def _dimension(
    key: str, title: str, types: tuple[str, ...], answers: list[ReportAnswer]
) -> Dimension:
    mine = [
        a for a in answers if a.type in types and a.status in ("graded", "skipped", "unanswered")
    ]
    grading = sum(1 for a in answers if a.type in types and a.status == "pending")
    if not mine:
        if grading:
            evidence = f"{grading} answer(s) still being graded."
            return Dimension(id=key, title=title, score=None, standing="grading", evidence=evidence)
        return Dimension(
            id=key, title=title, score=None, standing="untested", evidence="Not asked."
        )
    score = round(sum(a.score or 0 for a in mine) / len(mine), 3)
    right = sum(1 for a in mine if a.verdict == "correct")
    missed = sum(1 for a in mine if a.status in ("skipped", "unanswered"))
    evidence = f"{right} of {len(mine)} fully right" + (
        f", {missed} not answered" if missed else ""
    )
    # An answer still being graded may change the standing: it is not called yet.
    standing = _standing(score, sum(WEIGHTS.get(a.type, 1.0) for a in mine))
    return Dimension(
        id=key,
        title=title,
        score=score,
        standing="grading" if grading else standing,
        evidence=evidence + (f" so far, {grading} still being graded." if grading else "."),
    )


def _speed(answers: list[ReportAnswer]) -> Dimension:
    """Time against an interviewer's allowance; fast throw-away answers (wrong, or skipped
    around them) are no strength, so speed counts as one only when the answers held up."""
    timed = [a for a in answers if a.seconds is not None and a.status == "graded"]
    if not timed:
        return Dimension(
            id="speed", title="Speed", score=None, standing="untested", evidence="Nothing answered."
        )
    budget = sum(SLOT_SECONDS.get(a.kind, 120) for a in timed)
    used = sum(a.seconds or 0 for a in timed)
    score = round(min(1.0, budget / used) if used else 1.0, 3)
    evidence = (
        f"{round(used)} s for {len(timed)} answer(s); an interviewer allows about {budget} s."
    )
    standing = _standing(score, float(len(timed)))
    asked = [a for a in answers if a.status in ("graded", "skipped", "unanswered")]
    quality = sum(a.score or 0 for a in asked) / len(asked)
    if standing == "strength" and quality < SPEED_NEEDS_SCORE:
        standing = "thin"
        evidence += f" Not a strength: the answers scored {quality:.0%} (skips count 0)."
    return Dimension(id="speed", title="Speed", score=score, standing=standing, evidence=evidence)


def dimensions(answers: list[ReportAnswer]) -> list[Dimension]:
    return [_dimension(k, t, types, answers) for k, t, types in DIMENSIONS] + [_speed(answers)]


def strengths_and_gaps(dims: list[Dimension], scores: Scores) -> tuple[list[str], list[str]]:
    strengths = [f"{d.title}: {d.evidence}" for d in dims if d.standing == "strength"]
    gaps = [f"{d.title}: {d.evidence}" for d in dims if d.standing == "gap"]
    missing = scores.unreached + scores.unanswered + scores.skipped
    if missing:
        gaps.append(
            f"Coverage: {missing} planned question(s) not answered, each counted as a miss."
        )
    return strengths, gaps


def signal(scores: Scores, dims: list[Dimension], flags: list[RedFlag]) -> Signal:
    # A skip answers nothing; an answer still being graded was answered (coverage counts it).
    answered = scores.scored - scores.unanswered - scores.skipped + scores.grading
    planned = scores.questions + scores.unreached
    coverage = answered / planned if planned else 0.0
    tells = sorted({f.label for f in flags if f.kind == "tell"})
    reasons = [f"Answered {answered} of {planned} planned question(s)."]
    if scores.grading:
        reasons.append(
            f"{scores.grading} answer(s) still being graded: this signal may change when "
            "they are in."
        )
    if scores.overall is not None:
        reasons.append(
            f"Overall {scores.overall:.0%}, with every unanswered question counted as 0."
        )
    code = next((d for d in dims if d.id == "code"), None)
    if tells:
        reasons.append(f"Tells shown: {'; '.join(tells)}.")
    if code is not None and code.score is not None:
        reasons.append(f"Code: {code.evidence}")
    label = _label(scores.overall, answered, coverage, bool(tells), code)
    if label == "not yet" and (answered < MIN_ANSWERED or coverage < MIN_COVERAGE):
        reasons.append("Too little was answered to call it: an interviewer needs more evidence.")
    return Signal(label=label, title=TITLES[label], reasons=reasons)


def _label(
    overall: float | None, answered: int, coverage: float, tells: bool, code: Dimension | None
) -> str:
    if overall is None or answered < MIN_ANSWERED or coverage < MIN_COVERAGE:
        return "not yet"
    if code is not None and code.standing == "grading":
        code_ok = False  # "strong" needs a passing code answer, and it is not in yet
    else:
        code_ok = code is None or code.score is None or code.score >= 0.7
    if overall >= 0.8 and not tells and code_ok:
        return "strong"
    if overall >= 0.65:
        return "lean yes"
    return "lean no" if overall >= 0.45 else "not yet"
