"""Self-test: keys, labelled samples and code solutions, with failures at file:line."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from app.cli import main
from app.grading.results import GradeResult
from app.packs.loader import LoadedQuestion, Pack, load_pack
from app.packs.schema import Code, CodeFix, Ordering, TrueFalse
from app.services.instructor.selftest import (
    SelfTestReport,
    closed_checks,
    format_report,
    run_selftest,
)
from tests.services.instructor_fakes import EXAMPLE, FakeGrader


def _copy_example(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLE, tmp_path / "pack"))


def _pack(folder: Path) -> Pack:
    report = load_pack(folder)
    assert report.pack is not None, report.problems
    return report.pack


def _selftest(pack: Pack, grader: FakeGrader | None) -> SelfTestReport:
    return asyncio.run(run_selftest(pack, code_grader=grader))


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_selftest_passes_example_pack_with_agreeing_grader() -> None:
    report = _selftest(_pack(EXAMPLE), FakeGrader())
    assert report.passed and report.failures == []


def test_selftest_runs_reference_and_every_wrong_solution() -> None:
    grader = FakeGrader()
    _selftest(_pack(EXAMPLE), grader)
    # two train-step questions: the reference, the plain step against it, one wrong each
    assert grader.calls == 6


def test_selftest_fails_wrong_solution_with_other_tag_at_its_line(tmp_path: Path) -> None:
    folder = _copy_example(tmp_path)
    report = _selftest(_pack(folder), FakeGrader(tags={"loss-outside-tape": ["no-tape"]}))
    [failure] = report.failures
    file = folder / "ex-write-train-step.yaml"
    assert (failure.file, failure.line) == (str(file), _line_of(file, "- tag: loss-outside-tape"))
    assert "no-tape" in failure.message


class Lenient(FakeGrader):
    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        return GradeResult("correct", 1.0)


def test_selftest_fails_wrong_solution_that_passes() -> None:
    report = _selftest(_pack(EXAMPLE), Lenient())
    failing = {f.what for f in report.failures}
    assert failing == {"wrong loss-outside-tape", "wrong missing-apply"}


def test_selftest_fails_reference_when_sandbox_errors(tmp_path: Path) -> None:
    report = _selftest(_pack(EXAMPLE), FakeGrader(fail=True))
    reference = [f for f in report.failures if f.what == "reference"]
    assert len(reference) == 2 and "worker pool is down" in reference[0].message


def test_selftest_fails_mislabelled_sample_at_its_line(tmp_path: Path) -> None:
    folder = _copy_example(tmp_path)
    path = folder / "ex-explain-none.yaml"
    path.write_text(path.read_text().replace("    verdict: partial", "    verdict: correct"))
    [failure] = _selftest(_pack(folder), FakeGrader()).failures
    assert failure.what == "sample 2"
    assert failure.line == _line_of(path, "- answer: The loss was computed after the with")
    assert "labelled correct" in failure.message and "graded partial" in failure.message


def test_selftest_fails_sample_missing_its_misconception(tmp_path: Path) -> None:
    folder = _copy_example(tmp_path)
    path = folder / "ex-explain-none.yaml"
    path.write_text(
        path.read_text().replace("misconceptions: [must-watch-variables]", "misconceptions: []")
    )
    [failure] = _selftest(_pack(folder), FakeGrader()).failures
    assert "must-watch-variables" in failure.message


def test_selftest_skips_code_without_grader() -> None:
    report = _selftest(_pack(EXAMPLE), None)
    skipped = [r.question_id for r in report.rows if r.status == "skip"]
    assert sorted(skipped) == ["ex-fix-apply", "ex-write-train-step"]


def _item(question: object) -> LoadedQuestion:
    return LoadedQuestion(question=question, pack_id="p", file=Path("q.yaml"), version="v")  # type: ignore[arg-type]


def test_closed_checks_fail_true_false_without_answer() -> None:
    question = TrueFalse.model_construct(id="q", type="true-false", answer=None)
    assert [c.status for c in closed_checks(_item(question))] == ["fail"]


def test_closed_checks_fail_ordering_with_two_items() -> None:
    base = _pack(EXAMPLE).questions
    ordering = next(q.question for q in base if isinstance(q.question, Ordering))
    short = ordering.model_copy(update={"items": ordering.items[:2]})
    assert [c.status for c in closed_checks(_item(short))] == ["fail"]


def test_format_report_lists_failure_with_file_and_line(tmp_path: Path) -> None:
    folder = _copy_example(tmp_path)
    report = _selftest(_pack(folder), FakeGrader(tags={"missing-apply": []}))
    text = format_report(report)
    assert f"{folder / 'ex-fix-apply.yaml'}:" in text and "FAILED (1 failing)" in text


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (None, 0),
        (("ex-explain-none.yaml", "    verdict: partial", "    verdict: correct"), 1),
        (("ex-what-records.yaml", "difficulty: easy", "difficulty: trivial"), 2),
    ],
)
def test_cli_packs_test_exit_code(
    tmp_path: Path, edit: tuple[str, str, str] | None, code: int
) -> None:
    folder = _copy_example(tmp_path)
    if edit:
        path = folder / edit[0]
        path.write_text(path.read_text().replace(edit[1], edit[2]))
    assert main(["packs", "test", str(folder), "--skip-code"]) == code
