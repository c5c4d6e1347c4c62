"""Print calibration results for people: `tapequiz packs calibrate` and the benchmark.

A pack author tuning a rubric needs, per question, how many labelled answers matched,
which ones the rubric under-credited (missed positives) or let through (missed
negatives), and which tells it missed or invented - with the answers themselves, so the
next phrasing to add is obvious.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from app.grading.freetext.calibration import (
    RANK,
    CalibrationReport,
    Graded,
    QuestionCalibration,
    Summary,
    calibrate_files,
)
from app.packs.loader import load_pack

VERDICTS = sorted(RANK, key=RANK.__getitem__, reverse=True)  # correct, partial, incorrect
EXIT_AGREES, EXIT_DISAGREES, EXIT_INVALID = 0, 1, 2
SNIPPET = 160


def _snippet(answer: str) -> str:
    flat = " ".join(answer.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "\u2026"


def format_disagreement(graded: Graded) -> str:
    label = graded.label
    tags = ""
    if graded.tells_missed:
        tags += f"; missed tell {', '.join(graded.tells_missed)}"
    if graded.tells_spurious:
        tags += f"; extra tell {', '.join(graded.tells_spurious)}"
    where = f" [{label.split}{' ' + label.style if label.style else ''}]"
    head = f"    {graded.outcome}: labelled {label.verdict}, graded {graded.verdict}"
    return f"{head} ({graded.score:.2f}){tags}{where}\n      \u201c{_snippet(label.answer)}\u201d"


def format_question(question: QuestionCalibration) -> list[str]:
    lines = [
        f"{question.question_id}: {len(question.graded)} answers, "
        f"{question.count('matched')} matched, "
        f"{question.count('missed-positive')} missed positives, "
        f"{question.count('missed-negative')} missed negatives"
    ]
    lines += [format_disagreement(g) for g in question.disagreements]
    return lines


def format_summary(name: str, summary: Summary) -> list[str]:
    lines = [
        f"{name}: {summary.total} answers, exact agreement {summary.exact_rate:.1%} "
        f"({summary.exact}/{summary.total}), correct-vs-not {summary.binary_rate:.1%}, "
        f"tells caught {summary.tells_caught}/{summary.tells_expected}, "
        f"extra tells {summary.tells_spurious}",
        "  confusion: rows = label, columns = grader",
        "    " + " " * 9 + "".join(f"{v:>11}" for v in VERDICTS),
    ]
    for label in VERDICTS:
        counts = "".join(f"{summary.confusion.get((label, got), 0):>11}" for got in VERDICTS)
        lines.append(f"    {label:>9}{counts}")
    return lines


def format_report(report: CalibrationReport) -> str:
    lines = [f"problem: {p}" for p in report.problems]
    for question in report.questions:
        lines += format_question(question)
    for split in report.splits:
        lines += format_summary(f"split {split}", report.summary(split))
    lines += format_summary("all", report.summary())
    return "\n".join(lines)


def run_calibrate_cli(
    pack_path: Path, labelled_path: Path | None, out: TextIO | None = None
) -> int:
    """`tapequiz packs calibrate`: 0 if every label agrees, 1 if some disagree, 2 if invalid."""
    out = out or sys.stdout
    loaded = load_pack(pack_path)
    if loaded.pack is None:
        for problem in loaded.problems:
            print(problem, file=out)
        print(f"{pack_path}: the pack has problems; fix them first", file=out)
        return EXIT_INVALID
    report = calibrate_files(loaded.pack, labelled_path)
    if not report.questions:
        print(f"{pack_path}: no labelled free-text answers to calibrate", file=out)
        return EXIT_INVALID if report.problems else EXIT_AGREES
    print(format_report(report), file=out)
    if report.problems:
        return EXIT_INVALID
    disagree = any(q.disagreements for q in report.questions)
    return EXIT_DISAGREES if disagree else EXIT_AGREES
