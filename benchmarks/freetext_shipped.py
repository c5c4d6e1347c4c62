"""Read held-out personas the way learners are graded: as shipped, beside the rules alone.

`benchmarks/freetext.py` measures the rubrics as written (no learned part); what a learner
gets is the whole chain with the settings' defaults (second opinion, neighbours, tell caps,
the tag classifier when on). This prints both for the chosen personas, in the same run:
exact, correct-vs-not, misconceptions named (labeller tags mapped with meta/tag-map.yaml),
false misconceptions on answers labelled correct, the six disagreement cells (label>grade:
i>p p>i p>c c>p i>c c>i) and p50 grading time (median of `--repeat` gradings per answer, in
thread CPU ms so the machine's load does not inflate it; wall time before round 26), with the
shipped chain's time as a ratio of the rules alone; then per persona and per question as
shipped.

    .venv/bin/python benchmarks/freetext_shipped.py                       # every held-out set
    .venv/bin/python benchmarks/freetext_shipped.py --set final_2026_12_03_r21
    .venv/bin/python benchmarks/freetext_shipped.py --persona theano-veteran --json rows.json

Personas of `tune` are refused unless `--in-sample` is given: the learned parts were trained
on them, so their figures say nothing about new voices.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from app.grading.freetext import grade_freetext  # noqa: E402
from app.grading.freetext.chain import CELLS, cells  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    core_labelled,
    figures,
    free_text_questions,
    mapped_tags,
)
from benchmarks._measure import CONFIGS, thread_ms  # noqa: E402


def final_sets(sides_file: Path) -> dict[str, list[str]]:
    raw = yaml.safe_load(sides_file.read_text(encoding="utf-8")) or {}
    return {str(k): [str(p) for p in v] for k, v in raw.items() if str(k).startswith("final_")}


def summary(rows: list[Row]) -> str:
    """evaluation.figures and chain.cells of graded rows, on one line."""
    found = figures(rows)

    def pct(k: int, d: int) -> str:
        return f"{k}/{d} ({k / d:.1%})" if d else "-"

    return (
        f"n={found.total} exact {pct(found.exact, found.total)}  "
        f"correct-vs-not {pct(found.binary, found.total)}  "
        f"named {pct(found.tags_named, found.tags_expected)}  "
        f"false tells on correct {pct(found.false_tells_on_correct, found.correct_labelled)}  "
        f"p50 {found.p50_ms:.1f} ms CPU  cells "
        + " ".join(f"{a[0]}>{b[0]} {n}" for (a, b), n in zip(CELLS, cells(rows), strict=True))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], help="a final_* set of sides.yaml")
    parser.add_argument("--persona", action="append", default=[], help="one persona")
    parser.add_argument("--repeat", type=int, default=3, help="gradings per answer, timed")
    parser.add_argument("--json", type=Path, help="write every graded row here")
    parser.add_argument("--in-sample", action="store_true", help="allow tune personas")
    args = parser.parse_args()

    labelled = core_labelled()
    sets = final_sets(labelled.folder / "meta" / "sides.yaml")
    unknown = [s for s in args.set if s not in sets]
    if unknown:
        parser.error(f"no such set {unknown}; sets: {sorted(sets)}")
    personas = set(args.persona) | {p for s in args.set for p in sets[s]}
    if not personas:  # every held-out final set
        personas = {p for v in sets.values() for p in v if p not in labelled.sides.tune}
    tuned = sorted(p for p in personas if p in labelled.sides.tune)
    if tuned and not args.in_sample:
        parser.error(f"tune personas {tuned} are in-sample (--in-sample to read them anyway)")
    questions = free_text_questions(labelled.pack)
    graded: dict[str, list[Row]] = {name: [] for name in CONFIGS}
    for answer in labelled.answers:
        question = questions.get(answer.question_id)
        if answer.persona not in personas or question is None:
            continue
        expected = mapped_tags(labelled.tag_map, question.id, answer.misconceptions)
        for name, settings in CONFIGS.items():
            result, ms = thread_ms(
                lambda q=question, a=answer.answer, s=settings: grade_freetext(q, a, **s),
                args.repeat,
            )
            graded[name].append(Row(
                question.id, answer.persona, labelled.sides.side(answer.persona),
                answer.verdict, result.verdict, expected, tuple(result.misconceptions), ms,
                answer.answer, answer.source,
            ))  # fmt: skip
    shipped = graded["as shipped"]
    if not shipped:
        print(f"no labelled answers for {sorted(personas)}")
        return 1

    if args.json:  # first, so a reader that stops early (| head) still gets the rows
        args.json.write_text(json.dumps(as_json(graded), indent=1), encoding="utf-8")
    print(f"personas: {', '.join(sorted(personas))}")
    for name, rows in graded.items():
        print(f"{name:<12} {summary(rows)}")
    ratio = figures(shipped).p50_ms / max(figures(graded["rules alone"]).p50_ms, 1e-9)
    print(f"p50 as shipped / rules alone, same run: {ratio:.2f}x")
    for key, title in (("persona", "per persona"), ("question_id", "per question")):
        print(f"== {title}, as shipped")
        for value in sorted({getattr(r, key) for r in shipped}):
            print(f"  {value:<28} {summary([r for r in shipped if getattr(r, key) == value])}")
    return 0


def as_json(graded: dict[str, list[Row]]) -> list[dict[str, Any]]:
    """One record per answer: its labels, then each configuration's verdict, tags and time."""
    records = []
    for same in zip(*graded.values(), strict=True):
        first = same[0]
        record: dict[str, Any] = {
            "persona": first.persona, "question": first.question_id, "label": first.label,
            "expected": list(first.expected_tags),
        }  # fmt: skip
        for name, row in zip(graded, same, strict=True):
            record[name] = {"verdict": row.verdict, "tags": list(row.named_tags), "ms": row.ms}
        records.append(record)
    return records


if __name__ == "__main__":
    raise SystemExit(main())
