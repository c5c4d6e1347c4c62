"""Benchmark the free-text grader: agreement with labelled answers, and grading latency.

Prints, separately for the dev split (answers the rubrics were tuned on) and the holdout
split (answers never tuned on), exact three-way agreement, correct-vs-not agreement, the
confusion matrix, the misses per question and the tells caught; then p50/p95 grading
time per answer, and the time for a worst-case 5,000-character answer.

    .venv/bin/python benchmarks/freetext.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import calibrate, grade_freetext, load_labelled  # noqa: E402
from app.grading.freetext.calibration import CalibrationReport  # noqa: E402
from app.grading.freetext.reports import format_disagreement, format_summary  # noqa: E402
from app.packs.loader import Pack, load_pack  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"


def print_split(report: CalibrationReport, split: str) -> None:
    summary = report.summary(split)
    print("\n".join(format_summary(f"== {split}", summary)))
    for question in report.questions:
        misses = [g for g in question.graded if g.label.split == split and not g.agrees]
        total = sum(g.label.split == split for g in question.graded)
        print(f"  {question.question_id}: {total - len(misses)}/{total} agree")
        for graded in misses:
            print(format_disagreement(graded))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def time_answers(pack: Pack, repeat: int) -> list[float]:
    questions = {q.question.id: q.question for q in pack.questions}
    labels, _ = load_labelled(LABELLED)
    timings = []
    for _ in range(repeat):
        for label in labels:
            question = questions[label.question_id]
            assert isinstance(question, FreeText)
            start = time.perf_counter()
            grade_freetext(question, label.answer)
            timings.append((time.perf_counter() - start) * 1000)
    return timings


def adversarial_answers() -> dict[str, str]:
    """Long answers built to make regular expressions work hard (all cut to 5,000 chars)."""
    rng = random.Random(1)
    words = ("loss", "tape", "gradient", "the", "variables", "not", "inside", "apply_gradients")
    return {
        "one word repeated": "loss " * 1_000,
        "random keywords": " ".join(rng.choice(words) for _ in range(900)),
        "keywords and commas": ", ".join(rng.choice(words) for _ in range(700)),
        "no spaces": "x" * 5_000,
        "code block": "with tf.GradientTape() as tape:\n" + "    loss = f(y, model(x))\n" * 200,
    }


def worst_case_ms(pack: Pack) -> dict[str, float]:
    """Slowest grading over all free-text questions, per adversarial answer."""
    questions = [q.question for q in pack.questions if isinstance(q.question, FreeText)]
    worst = {}
    for name, text in adversarial_answers().items():
        times = []
        for question in questions:
            start = time.perf_counter()
            grade_freetext(question, text)
            times.append((time.perf_counter() - start) * 1000)
        worst[name] = max(times)
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timing passes over the set")
    args = parser.parse_args()
    loaded = load_pack(PACK)
    if loaded.pack is None:
        print("\n".join(str(p) for p in loaded.problems))
        return 2
    labels, problems = load_labelled(LABELLED)
    report = calibrate(loaded.pack, labels)
    for problem in problems + list(report.problems):
        print(f"problem: {problem}")
    for split in ("dev", "holdout"):
        print_split(report, split)
    timings = time_answers(loaded.pack, args.repeat)
    print(
        f"== latency over {len(timings)} gradings of the labelled answers: "
        f"p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms, "
        f"max {max(timings):.2f} ms"
    )
    for name, ms in worst_case_ms(loaded.pack).items():
        print(f"== adversarial answer ({name}): slowest question {ms:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
