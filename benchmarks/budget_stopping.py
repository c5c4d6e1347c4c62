"""Grading CPU time before and after the budget ends the work (issue 14, round 24).

Round 23's deadline (app/grading/freetext/budget.py, WHOLE_ANSWER_SECONDS) made every phrasing
search past it find nothing, but the loops around the searches still walked every phrasing
of every concept and tell; round 24 ends them once the budget is spent. This reads, in one
run, a tree before (a git revision, exported) and the working tree after:

- the hostile pack at the schema's limits (benchmarks/misconception_limit.py: 30 tells,
  60 + 60 phrasings each, three shapes, two answers, a cold and a warm grading each): the
  worst grading's thread CPU seconds, before and after, and their ratio;
- honest answers (a sample of the tune side's labelled answers, graded as shipped, median
  of three gradings each): p50 and p95 thread CPU ms before and after, read twice in the
  order before, after, after, before so drift in the machine's load falls on both, and
  how many verdicts, scores or tells differ (none should: the budget never runs out on them).

Each reading runs in a child process that imports the grader from its tree.

    .venv/bin/python benchmarks/budget_stopping.py [--before REV] [--every 5] [--counts 30]
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

from benchmarks._measure import before_revision, child_reading, export_tree, quantile  # noqa: E402


def _hostile(counts: list[int]) -> dict[str, Any]:
    import misconception_limit as limit

    from app.grading.freetext import grade_freetext, phrasings

    worst, stopped = 0.0, 0
    for shape in limit.SHAPES:
        for answer in limit.answers().values():
            for count in counts:
                phrasings.compile_phrasing.cache_clear()
                question = limit.hostile_question(shape, count)
                for _ in range(2):  # cold (the phrasings compiled too), then warm
                    began = time.thread_time()
                    result = grade_freetext(
                        question, answer, second_opinion=False, neighbours=False
                    )
                    worst = max(worst, time.thread_time() - began)
                    stopped += bool(result.details.get("stopped_early"))
    return {"worst": worst, "stopped": stopped}


def _honest(every: int) -> dict[str, Any]:
    from app.grading.freetext import grade_freetext
    from app.grading.freetext.evaluation import core_labelled

    core = core_labelled()
    questions = {q.question.id: q.question for q in core.pack.questions}
    answers = core.tune_answers[::every]
    for answer in answers[:50]:  # warm the caches and the artefacts
        grade_freetext(questions[answer.question_id], answer.answer)
    times, graded = [], []
    for answer in answers:
        question, taken = questions[answer.question_id], []
        for _ in range(3):
            began = time.thread_time()
            result = grade_freetext(question, answer.answer)
            taken.append(time.thread_time() - began)
        times.append(statistics.median(taken) * 1000)
        graded.append([result.verdict, result.score, sorted(result.misconceptions)])
    return {"times": times, "graded": graded}


def _child(tree: Path, what: str, args: argparse.Namespace) -> dict[str, Any]:
    """One reading in a child process importing the grader from `tree`."""
    options = ["--child", what, "--tree", str(tree), "--every", str(args.every)]
    return child_reading(__file__, tree, [*options, "--counts", *map(str, args.counts)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="", help="git revision (default: merge base with main)")
    parser.add_argument("--every", type=int, default=5, help="every Nth tune answer, honest")
    parser.add_argument("--counts", type=int, nargs="+", default=[30], help="tells, hostile")
    parser.add_argument("--child", choices=("hostile", "honest"), help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        global ROOT
        ROOT = args.tree
        sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
        read = _hostile(args.counts) if args.child == "hostile" else _honest(args.every)
        print(json.dumps(read))
        return 0
    revision = before_revision(args.before)
    with tempfile.TemporaryDirectory() as scratch:
        before = export_tree(revision, Path(scratch))
        trees = {"before": before, "after": ROOT}
        print(f"before = {revision[:12]}, after = the working tree")
        hostile = {name: _child(tree, "hostile", args) for name, tree in trees.items()}
        honest: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        for name in ("before", "after", "after", "before"):
            honest[name].append(_child(trees[name], "honest", args))
    _print(hostile, honest)
    return 0


def _print(hostile: dict[str, Any], honest: dict[str, list[dict[str, Any]]]) -> None:
    b, a = hostile["before"], hostile["after"]
    print(
        f"== hostile pack, worst grading: before {b['worst']:.2f} CPU s ({b['stopped']} stopped "
        f"early), after {a['worst']:.2f} CPU s ({a['stopped']} stopped early), "
        f"after/before {a['worst'] / b['worst']:.2f}"
    )
    for i in range(2):
        before, after = honest["before"][i]["times"], honest["after"][i]["times"]
        print(
            f"== honest answers, reading {i + 1} ({len(before)} tune answers): p50 "
            f"{statistics.median(before):.2f} -> {statistics.median(after):.2f} ms "
            f"(x{statistics.median(after) / statistics.median(before):.3f}), p95 "
            f"{quantile(before, 0.95):.2f} -> {quantile(after, 0.95):.2f} ms"
        )
    differ = sum(
        x != y
        for x, y in zip(honest["before"][0]["graded"], honest["after"][0]["graded"], strict=True)
    )
    print(f"== honest answers graded differently (verdict, score or tells): {differ}")


if __name__ == "__main__":
    raise SystemExit(main())
