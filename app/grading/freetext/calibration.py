"""Measure how often the free-text grader agrees with labelled answers.

A rubric is only as good as its agreement with a strict human grader. Calibration runs
every labelled answer (the `samples` in the question files plus, optionally, a labelled
file or folder) through `grade_freetext` and reports, per question, the answers that
matched, the missed positives (graded lower than labelled: credit the rubric failed to
give) and the missed negatives (graded higher: an answer the rubric let through), with
the misconceptions caught. The benchmark and `tapequiz packs calibrate` share it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from app.grading.freetext.grader import grade_freetext
from app.grading.freetext.labelled import LabelledAnswer, load_labelled
from app.packs.loader import Pack
from app.packs.schema import FreeText

RANK = {"incorrect": 0, "partial": 1, "correct": 2}
Outcome = Literal["matched", "missed-positive", "missed-negative"]


@dataclass(frozen=True)
class Graded:
    label: LabelledAnswer
    verdict: str
    score: float
    misconceptions: tuple[str, ...]

    @property
    def outcome(self) -> Outcome:
        diff = RANK[self.verdict] - RANK[self.label.verdict]
        return "matched" if diff == 0 else ("missed-positive" if diff < 0 else "missed-negative")

    @property
    def tells_missed(self) -> list[str]:
        return [t for t in self.label.misconceptions if t not in self.misconceptions]

    @property
    def tells_spurious(self) -> list[str]:
        return [t for t in self.misconceptions if t not in self.label.misconceptions]

    @property
    def agrees(self) -> bool:
        return self.outcome == "matched" and not self.tells_missed and not self.tells_spurious


@dataclass(frozen=True)
class QuestionCalibration:
    question_id: str
    graded: tuple[Graded, ...]

    def count(self, outcome: Outcome) -> int:
        return sum(g.outcome == outcome for g in self.graded)

    @property
    def disagreements(self) -> list[Graded]:
        return [g for g in self.graded if not g.agrees]


@dataclass(frozen=True)
class Summary:
    """Agreement figures over a set of graded answers (one split, or all)."""

    total: int
    exact: int
    binary: int  # agree on correct vs not correct
    tells_expected: int
    tells_caught: int
    tells_spurious: int
    confusion: dict[tuple[str, str], int] = field(default_factory=dict)  # (label, grader)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.total if self.total else 0.0

    @property
    def binary_rate(self) -> float:
        return self.binary / self.total if self.total else 0.0


def summarise(graded: list[Graded]) -> Summary:
    tells_expected = sum(len(g.label.misconceptions) for g in graded)
    return Summary(
        total=len(graded),
        exact=sum(g.outcome == "matched" for g in graded),
        binary=sum((g.verdict == "correct") == (g.label.verdict == "correct") for g in graded),
        tells_expected=tells_expected,
        tells_caught=tells_expected - sum(len(g.tells_missed) for g in graded),
        tells_spurious=sum(len(g.tells_spurious) for g in graded),
        confusion=dict(Counter((g.label.verdict, g.verdict) for g in graded)),
    )


@dataclass(frozen=True)
class CalibrationReport:
    questions: tuple[QuestionCalibration, ...]
    problems: tuple[str, ...] = ()  # labels that name unknown questions or tags

    def graded(self, split: str | None = None) -> list[Graded]:
        return [
            g for q in self.questions for g in q.graded if split is None or g.label.split == split
        ]

    def summary(self, split: str | None = None) -> Summary:
        return summarise(self.graded(split))

    @property
    def splits(self) -> list[str]:
        return sorted({g.label.split for g in self.graded()})


def samples_of(question: FreeText) -> list[LabelledAnswer]:
    return [
        LabelledAnswer(question.id, s.answer, s.verdict, tuple(s.misconceptions), "sample", "")
        for s in question.samples
    ]


def _check_label(label: LabelledAnswer, question: FreeText | None) -> str | None:
    if question is None:
        return f"{label.source}: no free-text question {label.question_id!r} in the pack"
    tags = {m.tag for m in question.rubric.misconceptions}
    unknown = [t for t in label.misconceptions if t not in tags]
    if unknown:
        return f"{label.source}: unknown misconception tag(s) {', '.join(unknown)}"
    return None


def calibrate(pack: Pack, labelled: list[LabelledAnswer] | None = None) -> CalibrationReport:
    """Grade the pack's samples and the given labelled answers; compare with the labels."""
    questions = {
        lq.question.id: lq.question for lq in pack.questions if isinstance(lq.question, FreeText)
    }
    by_question: dict[str, list[Graded]] = {qid: [] for qid in questions}
    problems = []
    labels = [a for q in questions.values() for a in samples_of(q)] + list(labelled or [])
    for label in labels:
        question = questions.get(label.question_id)
        if (problem := _check_label(label, question)) or question is None:
            problems.append(problem or "")
            continue
        result = grade_freetext(question, label.answer)
        graded = Graded(label, result.verdict, result.score, tuple(result.misconceptions))
        by_question[question.id].append(graded)
    return CalibrationReport(
        questions=tuple(QuestionCalibration(q, tuple(g)) for q, g in by_question.items() if g),
        problems=tuple(problems),
    )


def calibrate_files(pack: Pack, labelled_path: Path | None) -> CalibrationReport:
    labels, problems = load_labelled(labelled_path) if labelled_path else ([], [])
    report = calibrate(pack, labels)
    return CalibrationReport(report.questions, tuple(problems) + report.problems)
