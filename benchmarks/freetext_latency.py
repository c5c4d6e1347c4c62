"""Grading time per answer and a process's first answer, before and after (issue 14, round 25).

Issue 14's latency target is a p50 of 20 ms per answer. This reads, in one run, a tree before
(a git revision, exported) and the working tree after, each in its own child process:

- every Nth tune answer (`--every`), graded by the rules alone and as shipped, the median
  of `--repeat` gradings each in thread CPU ms: p50, p90 and max (round 28) per tree and the
  ratio of the p50s after / before, read in the order before, after, after, before so
  drift in the machine's load falls on both;
- how many of those answers are graded differently (verdict, score, named tells or
  feedback; none should: the work is done faster, not differently);
- a process's first free-text answer: the thread CPU of building the shipped tables (the
  neighbours' index, neighbours.shipped_tables), which a process pays once, on its first
  answer the neighbours read or at start-up. The after tree reads a neighbours artefact
  built by its own trainer (`python -m app.grading.freetext.neighbours train`) into a
  scratch file, so its figure is the one a retrained artefact gives; the before tree reads
  its shipped one.

With `--start-up` each answers' child first reads what the web process's start-up reads
(_measure.web_start_up: since round 30 the core pack's phrasings, widened and compiled), so
the sample is the early life of a served process rather than of a bare one.

Held-out personas are never read: only `tune` of meta/sides.yaml.

    .venv/bin/python benchmarks/freetext_latency.py [--before REV] [--every 5] [--repeat 3]
        [--start-up]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._measure import (  # noqa: E402
    CONFIGS,
    before_revision,
    child_reading,
    export_tree,
    quantile,
    thread_ms,
    web_start_up,
)


def _tune_answers(every: int) -> tuple[dict[str, Any], list[Any]]:
    """The core pack's questions by id, and every `every`-th tune answer (the tree's own)."""
    from app.grading.freetext.evaluation import core_labelled

    core = core_labelled()
    return {q.question.id: q.question for q in core.pack.questions}, core.tune_answers[::every]


def _graded(result: Any) -> list[Any]:
    return [
        result.verdict,
        result.score,
        list(result.misconceptions),
        [[f.kind, f.message] for f in result.feedback],
    ]


def _answers(every: int, repeat: int, start_up: bool) -> dict[str, Any]:
    """Per configuration: each answer's median thread CPU ms and what it was graded."""
    from app.grading.freetext import grade_freetext, neighbours
    from app.grading.freetext.evaluation import core_labelled

    questions, answers = _tune_answers(every)
    if start_up:  # as the web process: its start-up read first (round 30)
        web_start_up(core_labelled().pack)  # the pack _tune_answers read (cached)
    neighbours.shipped_tables()  # the first answer's cost is read apart (_first)
    for answer in answers[:50]:  # warm the caches and the other artefacts
        grade_freetext(questions[answer.question_id], answer.answer)
    read: dict[str, Any] = {}
    for name, settings in CONFIGS.items():
        times, graded = [], []
        for answer in answers:
            question = questions[answer.question_id]
            result, ms = thread_ms(
                lambda q=question, a=answer.answer, s=settings: grade_freetext(q, a, **s), repeat
            )
            times.append(ms)
            graded.append(_graded(result))
        read[name] = {"times": times, "graded": graded}
    return read


def _first(artefact: str) -> dict[str, Any]:
    """A fresh process: thread CPU s of building the shipped tables, then of grading the
    first tune answer as shipped with them built."""
    from app.grading.freetext import grade_freetext, neighbours

    if artefact:
        neighbours.ARTEFACT = Path(artefact)
    questions, answers = _tune_answers(1)
    began = time.thread_time()
    neighbours.shipped_tables()
    tables = time.thread_time() - began
    began = time.thread_time()
    grade_freetext(questions[answers[0].question_id], answers[0].answer)
    return {"tables": tables, "first": time.thread_time() - began}


def _train(into: str) -> dict[str, Any]:
    from app.grading.freetext.labelled_neighbours import build_artefact, dumps

    Path(into).write_text(dumps(build_artefact()), encoding="utf-8")
    return {}


def _child(tree: Path, what: str, args: argparse.Namespace, artefact: str = "") -> dict[str, Any]:
    """One reading in a child process importing the grader from `tree`."""
    options = ["--child", what, "--tree", str(tree), "--every", str(args.every)]
    options += ["--repeat", str(args.repeat), "--artefact", artefact]
    options += ["--start-up"] if args.start_up else []
    return child_reading(__file__, tree, options)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="", help="git revision (default: merge base with main)")
    parser.add_argument("--every", type=int, default=5, help="every Nth tune answer")
    parser.add_argument("--repeat", type=int, default=3, help="gradings per answer, timed")
    parser.add_argument("--child", choices=("answers", "first", "train"), help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--artefact", default="", help=argparse.SUPPRESS)
    parser.add_argument(
        "--start-up", action="store_true", help="read the web start-up first (app/main.py)"
    )
    args = parser.parse_args()
    if args.child:
        global ROOT
        ROOT = args.tree
        sys.path[:0] = [str(ROOT)]
        if args.child == "answers":
            read = _answers(args.every, args.repeat, args.start_up)
        elif args.child == "first":
            read = _first(args.artefact)
        else:
            read = _train(args.artefact)
        print(json.dumps(read))
        return 0
    revision = before_revision(args.before)
    with tempfile.TemporaryDirectory() as scratch:
        before = export_tree(revision, Path(scratch))
        trees = {"before": before, "after": ROOT}
        print(f"before = {revision[:12]}, after = the working tree", flush=True)
        retrained = str(Path(scratch) / "neighbours.json")
        _child(ROOT, "train", args, retrained)
        first = {
            "before": _child(before, "first", args),
            "after": _child(ROOT, "first", args, retrained),
        }
        answers: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        for name in ("before", "after", "after", "before"):
            answers[name].append(_child(trees[name], "answers", args))
    _print(first, answers)
    return 0


def _print(first: dict[str, Any], answers: dict[str, list[dict[str, Any]]]) -> None:
    b, a = first["before"], first["after"]
    print(
        f"== first answer of a process: shipped tables {b['tables']:.2f} -> {a['tables']:.2f} "
        f"CPU s (x{a['tables'] / b['tables']:.3f}); its grading with them built "
        f"{b['first'] * 1000:.1f} -> {a['first'] * 1000:.1f} ms"
    )
    for config in CONFIGS:
        for i in range(2):
            before = answers["before"][i][config]["times"]
            after = answers["after"][i][config]["times"]
            p50b, p50a = statistics.median(before), statistics.median(after)
            print(
                f"== {config}, reading {i + 1} ({len(before)} tune answers): p50 {p50b:.2f} -> "
                f"{p50a:.2f} ms (x{p50a / p50b:.3f}), p90 {quantile(before, 0.9):.2f} -> "
                f"{quantile(after, 0.9):.2f} ms, max {max(before):.1f} -> {max(after):.1f} ms"
            )
        differ = sum(
            x != y
            for x, y in zip(
                answers["before"][0][config]["graded"],
                answers["after"][0][config]["graded"],
                strict=True,
            )
        )
        print(f"== {config}: graded differently (verdict, score, tells, feedback): {differ}")


if __name__ == "__main__":
    raise SystemExit(main())
