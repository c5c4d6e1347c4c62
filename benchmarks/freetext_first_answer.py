"""A fresh process's first free-text answers, before and after (issue 14, rounds 29-30).

A learner meets a process's cold cost on the first free-text answer after the server (or a
worker) starts; every test process meets it too. This reads it in fresh child processes,
each importing the grader from one tree (a git revision, exported, and the working tree),
read in the order before, after, after, before, ... so drift in the machine's load falls on
both, two ways:

- `web`: as the web process: `import app.main` (its imports), the core pack loaded (the
  catalog's loading, untimed), then what its start-up does for free-text grading
  (app/main.py's lifespan: the lemma dictionary, `preload` where the tree has it, given the
  catalog where it takes one (round 30), the neighbours' index when the setting is on);
- `bare`: as a test process or a script: the grading path imported alone
  (`app.grading.dispatch`) and nothing read before the first answer.

Then, in each, the first tune answer to each of the core pack's free-text questions, graded
as the app grades it (`dispatch._grade_free_text`, settings as shipped), in pack order: the
first answer of the process, and the sum over the ten (each question's first answer), then
the same ten again, warm; then every SAMPLE-th tune answer once (`sample`: the process's
early life, where a phrasing first met by a later answer is compiled there since round 29;
its p50 is printed too). Wall seconds and thread CPU seconds, and the peak resident memory
after start-up and at the end. Each tree's ten gradings are
compared with the other tree's (they must be the same). Held-out personas are never read:
only `tune` of meta/sides.yaml.

    .venv/bin/python benchmarks/freetext_first_answer.py [--before REV] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._measure import (  # noqa: E402
    LapClock,
    before_after,
    first_and_sampled_answers,
    graded_differently,
    interleaved_readings,
    web_start_up,
)

MODES = ("web", "bare")
PARTS = ("import", "start-up", "first answer", "ten first answers", "ten warm", "sample")
SAMPLE = 10  # then every 10th tune answer, once: the process's early life


def _megabytes() -> float:
    """The process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(mode: str, answers_file: Path) -> dict[str, Any]:
    read = json.loads(answers_file.read_text(encoding="utf-8"))
    answers, sample = read["first"], read["sample"]
    clock = LapClock()
    if mode == "web":
        import app.main  # noqa: F401 - the web process's imports
    from app.grading import dispatch

    clock.lap("import")
    from app.packs.loader import load_pack

    pack = load_pack(ROOT / "questions" / "gradient-tape").pack
    assert pack is not None
    questions = {q.question.id: q.question for q in pack.questions}
    clock.restart()  # the pack's loading is the catalog's, before start-up reads it: untimed
    if mode == "web":
        web_start_up(pack)
    clock.lap("start-up")
    memory = {"after start-up": _megabytes()}
    clock.restart()
    graded = []
    for index, answer in enumerate(answers):
        result = dispatch._grade_free_text(questions[answer["question"]], answer["answer"])
        graded.append([result.verdict, result.score, list(result.misconceptions)])
        if index == 0:
            clock.lap("first answer")
    clock.lap("the other nine")
    first, rest = clock.read["first answer"], clock.read.pop("the other nine")
    clock.read["ten first answers"] = [a + b for a, b in zip(first, rest, strict=True)]
    for answer in answers:
        dispatch._grade_free_text(questions[answer["question"]], answer["answer"])
    clock.lap("ten warm")
    times = []  # thread CPU ms of each sample answer, graded once after the ten
    for answer in sample:
        began = time.thread_time()
        dispatch._grade_free_text(questions[answer["question"]], answer["answer"])
        times.append((time.thread_time() - began) * 1000)
    clock.lap("sample")
    memory["after the sample"] = _megabytes()
    return {"read": clock.read, "graded": graded, "sample_ms": times, "memory": memory}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="", help="git revision (default: merge base with main)")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per tree and way")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--answers", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        global ROOT
        ROOT = args.tree
        sys.path[:0] = [str(ROOT)]
        print(json.dumps(_child(args.child, args.answers)))
        return 0
    answers = first_and_sampled_answers(SAMPLE)
    read = interleaved_readings(__file__, MODES, args.runs, args.before, answers)
    _print(read)
    return 0


def _print(read: dict[str, dict[str, list[dict[str, Any]]]]) -> None:
    for mode, trees in read.items():
        runs = len(trees["before"])
        print(f"== {mode} (median of {runs} fresh processes each): before -> after")
        for part in PARTS:
            cells = []
            for at, unit in ((1, "CPU"), (0, "wall")):
                b, a = before_after(trees, part, at)
                cells.append(f"{unit} {b:.3f} -> {a:.3f} s (x{a / b:.2f})" if b else f"{unit} -")
            print(f"   {part:18s} " + "; ".join(cells))
        differ, compared = graded_differently(trees)
        print(f"   graded differently (verdict, score, tells): {differ} of {compared}")
        for when in trees["before"][0].get("memory", {}):
            b, a = (statistics.median(r["memory"][when] for r in trees[t]) for t in trees)
            print(f"   peak resident memory {when}: {b:.0f} -> {a:.0f} MB")
        p50 = {
            t: statistics.median(statistics.median(r["sample_ms"]) for r in trees[t]) for t in trees
        }
        count = len(trees["before"][0]["sample_ms"])
        print(
            f"   sample's p50 ({count} answers once, after the ten): {p50['before']:.2f} -> "
            f"{p50['after']:.2f} ms CPU (x{p50['after'] / p50['before']:.2f})"
        )


if __name__ == "__main__":
    raise SystemExit(main())
