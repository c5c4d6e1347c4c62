"""Agreement of the code checker with the labelled public-idiom corpus, and what it costs.

Grades every submission under tests/grading/code_corpus/<question>/ (labels decided from the
prompt by someone other than the checker's author) and prints, per question and overall: how
many agree with their label, correct answers graded below correct, wrong answers graded
correct, each disagreement with its verdict and first feedback line, and the wall
time. By default the corpus is graded in batches (app/grading/code/corpus.py; disagreements
are re-graded alone); `--isolated` grades every submission alone through CodeGrader.grade,
the production path, as a baseline for both the verdicts and the time. Needs the sandbox.

    .venv/bin/python benchmarks/code_corpus.py [--isolated] [--question train-step] [-v]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import yaml

from app.config import REPO_ROOT, Settings
from app.grading.code import CodeGrader
from app.grading.code.corpus import Submission, agrees, grade_all, load
from app.grading.results import GradeResult
from app.packs.schema import Code, CodeFix

CORPUS = REPO_ROOT / "tests" / "grading" / "code_corpus"
PACK = REPO_ROOT / "questions" / "gradient-tape"


def question(qid: str) -> Code | CodeFix:
    data = yaml.safe_load((PACK / f"{qid}.yaml").read_text())
    return (CodeFix if data["type"] == "code-fix" else Code).model_validate(data)


async def grade(
    grader: CodeGrader, items: list[Submission], isolated: bool
) -> dict[Path, GradeResult]:
    by_question: dict[str, list[Submission]] = defaultdict(list)
    for item in items:
        by_question[item.question].append(item)
    graded: dict[Path, GradeResult] = {}
    for qid, group in by_question.items():
        began = time.monotonic()
        if isolated:
            for item in group:
                graded[item.path] = await grader.grade(question(qid), item.source)
        else:
            graded.update(await grade_all(grader, question(qid), group))
        agree = sum(agrees(item.label, graded[item.path]) for item in group)
        print(f"  {qid}: {agree}/{len(group)} agree ({time.monotonic() - began:.1f} s)", flush=True)
        for item in group:
            if not agrees(item.label, graded[item.path]):
                print(
                    f"    disagrees: {item.name} [{item.label}] -> {graded[item.path]}", flush=True
                )
    return graded


def report(items: list[Submission], graded: dict[Path, GradeResult], verbose: bool) -> None:
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # n, agree, low, high
    for item in items:
        result = graded[item.path]
        row = rows[item.question]
        row[0] += 1
        row[1] += agrees(item.label, result)
        row[2] += item.label == "correct" and result.verdict != "correct"
        row[3] += item.label == "wrong" and result.verdict == "correct"
        if verbose or not agrees(item.label, result):
            first = result.feedback[0].message[:150] if result.feedback else ""
            print(f"  {'ok ' if agrees(item.label, result) else 'XX '}{item.name} [{item.label}]"
                  f" -> {result.verdict} {result.misconceptions}: {first}")  # fmt: skip
    total = [sum(r[i] for r in rows.values()) for i in range(4)]
    print(f"{'question':<26}{'n':>4}{'agree':>7}{'correct<':>10}{'wrong=ok':>10}")
    for qid, (n, agree, low, high) in sorted(rows.items()):
        print(f"{qid:<26}{n:>4}{agree:>7}{low:>10}{high:>10}")
    n, agree, low, high = total
    print(f"{'all':<26}{n:>4}{agree:>7}{low:>10}{high:>10}")
    print(f"agreement {agree}/{n} = {100 * agree / max(1, n):.1f}%; correct graded below "
          f"correct: {low}; wrong graded correct: {high}")  # fmt: skip


async def main(args: argparse.Namespace) -> None:
    items = [i for i in load(CORPUS) if not args.question or i.question in args.question]
    with tempfile.TemporaryDirectory() as data_dir:
        settings = Settings(data_dir=Path(data_dir), sandbox_pool_size=2, sandbox_queue_size=64)
        grader = CodeGrader(settings)
        await grader.start()
        try:
            began = time.monotonic()
            graded = await grade(grader, items, args.isolated)
            await grader.pool.settle()
            wall = time.monotonic() - began
        finally:
            await grader.stop()
    report(items, graded, args.verbose)
    mode = "isolated (one worker each)" if args.isolated else "batched"
    print(f"{mode}: {len(items)} submissions in {wall:.1f} s wall")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--isolated", action="store_true")
    parser.add_argument("--question", action="append", default=[])
    parser.add_argument("-v", "--verbose", action="store_true")
    asyncio.run(main(parser.parse_args()))
