"""What round 34's one-role claim reading costs, and where grading's time goes (round 35).

Round 34 (engineer M6) added `claims.one_role_hits`: an extra `find_hits` for each one-role
claim with excluded roles, on every answer; the round's p50 rose 8.3 -> 8.9 ms, not isolated
to it. This grades every `--every`-th tune answer as shipped (held-out answers are never
read), in one process, in three readings: as committed; as at the round's start (round 35's
sentence pre-check in `claims.unit_claims` off); and with the one-role reading
short-circuited (no hit). Per answer: one untimed grading (so no reading meets it cold), then
each reading in turn and in reverse, so drift in the machine's load falls on all; an answer's
time is the median of its readings, in thread CPU ms. It prints p50 / p95 / mean of each, how
many answers each grades otherwise than as committed (verdict, tells, score, feedback), and a
profile of the committed grading: each stage's share of grade_freetext's time (cumulative;
stages nest, so the shares do not add up to 100%; the profiler's own cost inflates them all).

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_hot_path.py [--every 1]
        [--repeat 2] [--profile-every 4]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import claims  # noqa: E402
from app.grading.freetext.evaluation import core_labelled  # noqa: E402
from app.grading.freetext.grader import grade_freetext  # noqa: E402
from benchmarks._measure import quantile, thread_ms  # noqa: E402

AS_IS = {"one_role_hits": claims.one_role_hits, "carries_roles": claims.carries_roles}
# Each reading: the claims.py functions it replaces (the others as committed).
READINGS: dict[str, dict[str, Callable[..., Any]]] = {
    "as committed": {},
    "round's start (no sentence pre-check)": {"carries_roles": lambda *_: True},
    "one-role reading short-circuited": {"one_role_hits": lambda *_: []},
}
# Stages of grading, as (label, module file suffix, function name) in the profile.
STAGES = (
    ("grade_freetext (all)", "grader.py", "grade_freetext"),
    ("normalise", "normalise.py", "normalise"),
    ("_find (the rubric's phrasings)", "grader.py", "_find"),
    ("find_phrasings (concepts and tells)", "claims.py", "find_phrasings"),
    ("  find_hits (ordered phrasings)", "matching.py", "find_hits"),
    ("  find_claim_hits (claims)", "claims.py", "find_claim_hits"),
    ("  one_role_hits (round 34)", "claims.py", "one_role_hits"),
    ("  pronoun_joins", "joins.py", "pronoun_joins"),
    ("rules (_grade_rules)", "grader.py", "_grade_rules"),
    ("neighbours' tell", "neighbours.py", "add_suggestion"),
    ("tag classifier", "tag_classifier.py", "add_suggestion"),
    ("second opinion", "grader.py", "_second_opinion"),
)


def _reading(question: Any, answer: str) -> tuple[Any, ...]:
    result = grade_freetext(question, answer)
    return result.verdict, tuple(result.misconceptions), result.score, repr(result.feedback)


def _use(name: str) -> None:
    for attr, fn in AS_IS.items():
        setattr(claims, attr, READINGS[name].get(attr, fn))


def timed_readings(question: Any, answer: str, repeat: int) -> dict[str, tuple[float, Any]]:
    """reading -> (median thread CPU ms, the grading) for one answer: each reading in turn,
    then in reverse, `repeat` times, after one untimed grading that warms the answer's caches."""
    times: dict[str, list[float]] = {name: [] for name in READINGS}
    graded: dict[str, Any] = {}
    _reading(question, answer)
    order = list(READINGS)
    for _ in range(repeat):
        for name in order + order[::-1]:
            _use(name)
            graded[name], ms = thread_ms(lambda: _reading(question, answer), 1)
            times[name].append(ms)
    _use("as committed")
    return {name: (statistics.median(times[name]), graded[name]) for name in READINGS}


def profile(pairs: list[tuple[Any, str]]) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for question, answer in pairs:
        grade_freetext(question, answer)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = next(
        (
            v[3]
            for (f, _, n), v in stats.items()
            if f.endswith("grader.py") and n == "grade_freetext"
        ),
        0.0,
    )
    print(f"== profile, {len(pairs)} answers as shipped: cumulative share of grade_freetext")
    for label, suffix, name in STAGES:
        cum = sum(v[3] for (f, _, n), v in stats.items() if f.endswith(suffix) and n == name)
        share = 100 * cum / total if total else 0.0
        print(f"   {label:<38} {1000 * cum / max(1, len(pairs)):6.2f} ms/answer  {share:5.1f}%")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=1, help="every Nth tune answer")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of as-is, off, off, as-is")
    ap.add_argument("--profile-every", type=int, default=4, help="profile every Nth answer")
    args = ap.parse_args()
    core = core_labelled()
    questions = {q.question.id: q.question for q in core.pack.questions}
    pairs = [(questions[a.question_id], a.answer) for a in core.tune_answers[:: args.every]]
    for question, answer in pairs[:50]:
        grade_freetext(question, answer)  # warm the artefacts and caches
    measured = [timed_readings(q, a, args.repeat) for q, a in pairs]
    print(f"== {len(pairs)} tune answers as shipped, thread CPU ms (median of {2 * args.repeat})")
    for name in READINGS:
        ms = [m[name][0] for m in measured]
        differ = sum(m[name][1] != m["as committed"][1] for m in measured)
        print(
            f"   {name:<40} p50 {quantile(ms, 0.5):.2f}  p95 {quantile(ms, 0.95):.2f}  "
            f"mean {sum(ms) / len(ms):.2f}  graded otherwise than as committed: {differ}"
        )
    profile(pairs[:: args.profile_every])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
