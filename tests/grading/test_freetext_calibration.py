"""Calibration: agreement with the labelled answers, the labelled-file reader and the CLI."""

# ruff: noqa: E501 - tables of files and answers read best one per line

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest

from app.config import REPO_ROOT
from app.grading.freetext import CalibrationReport, calibrate, load_labelled, run_calibrate_cli
from app.grading.freetext.labelled import LabelledAnswer
from app.packs.loader import Pack, load_pack

CORE = REPO_ROOT / "questions" / "gradient-tape"
LABELLED = Path(__file__).parent / "freetext_labelled"
CORE_FREE_TEXT = (
    "why-none-gradients", "no-zero-grad", "trainable-vs-all-variables", "gradient-vs-apply",
    "persistent-tape", "numpy-inside-tape", "tf-function-speedup", "training-flag",
    "higher-order-derivatives", "gradient-accumulation",
)  # fmt: skip
HOLDOUT_EXACT_TARGET = 0.90
DEV_EXACT_FLOOR = 0.95  # the rubrics were tuned on dev: a drop here is a regression


@cache
def core_pack() -> Pack:
    loaded = load_pack(CORE)
    assert loaded.pack is not None, loaded.problems
    return loaded.pack


@cache
def core_report() -> CalibrationReport:
    labels, problems = load_labelled(LABELLED)
    assert problems == []
    return calibrate(core_pack(), labels)


def test_calibrate_meets_the_exact_agreement_target_on_the_holdout() -> None:
    summary = core_report().summary("holdout")
    assert summary.total >= 10 * len(CORE_FREE_TEXT)
    assert summary.exact_rate >= HOLDOUT_EXACT_TARGET


def test_calibrate_catches_every_labelled_tell_on_the_holdout() -> None:
    summary = core_report().summary("holdout")
    assert summary.tells_expected > 0 and summary.tells_caught == summary.tells_expected


def test_calibrate_keeps_the_dev_agreement() -> None:
    summary = core_report().summary("dev")
    assert summary.exact_rate >= DEV_EXACT_FLOOR and summary.tells_caught == summary.tells_expected


def test_calibrate_agrees_with_every_sample_in_the_question_files() -> None:
    assert [g.label.answer for g in core_report().graded("sample") if not g.agrees] == []


@pytest.mark.parametrize("question_id", CORE_FREE_TEXT)
def test_labelled_set_has_twenty_answers_and_a_holdout_per_question(question_id: str) -> None:
    graded = [g for q in core_report().questions if q.question_id == question_id for g in q.graded]
    labelled = [g for g in graded if g.label.split in ("dev", "holdout")]
    assert len(labelled) >= 20 and sum(g.label.split == "holdout" for g in labelled) >= 10


def test_labelled_set_names_only_known_questions_and_tags() -> None:
    assert core_report().problems == ()


def label(answer: str, verdict: str, tags: tuple[str, ...] = ()) -> LabelledAnswer:
    return LabelledAnswer("persistent-tape", answer, verdict, tags, "dev", "")


GOOD = "A default tape frees its recording after the first gradient() call; use persistent=True and del the tape afterwards."


@pytest.mark.parametrize(
    ("answer", "verdict", "outcome"),
    [
        (GOOD, "correct", "matched"),
        (GOOD, "partial", "missed-negative"),  # the grader gave more than the label
        ("Use persistent=True.", "correct", "missed-positive"),  # the grader gave less
    ],
)
def test_calibrate_classifies_a_disagreement_by_direction(
    answer: str, verdict: str, outcome: str
) -> None:
    report = calibrate(core_pack(), [label(answer, verdict)])
    assert [g.outcome for g in report.graded("dev")] == [outcome]


def test_calibrate_reports_an_unknown_question_as_a_problem() -> None:
    unknown = LabelledAnswer("no-such-question", "text", "correct", (), "dev", "", "f.yaml: [0]")
    assert (
        "no free-text question 'no-such-question'" in calibrate(core_pack(), [unknown]).problems[0]
    )


def test_calibrate_reports_an_unknown_tag_as_a_problem() -> None:
    report = calibrate(core_pack(), [label("text", "incorrect", ("not-a-tag",))])
    assert "unknown misconception tag(s) not-a-tag" in report.problems[0]


BAD_FILES = [
    ("verdict", "question: persistent-tape\nanswers:\n  - answer: x\n    verdict: maybe\n", "verdict must be one of"),
    ("answer", "question: persistent-tape\nanswers:\n  - verdict: correct\n", "answer must be a string"),
    ("question", "- answer: x\n  verdict: correct\n", "missing question id"),
    ("shape", "just a string\n", "expected a list of answers"),
    ("tags", "- question: q\n  answer: x\n  verdict: correct\n  misconceptions: tag\n", "misconceptions must be a list"),
    ("yaml", "question: [unclosed\n", "cannot read"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "message"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_load_labelled_reports_a_bad_file_with_its_name(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    labels, problems = load_labelled(path)
    assert (
        labels == [] and len(problems) == 1 and str(path) in problems[0] and message in problems[0]
    )


def test_load_labelled_reads_json_lines_with_line_numbers(tmp_path: Path) -> None:
    good = {"question": "persistent-tape", "answer": "x", "verdict": "partial", "split": "holdout"}
    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps(good) + "\n{broken\n", encoding="utf-8")
    labels, problems = load_labelled(path)
    assert [(a.question_id, a.split) for a in labels] == [("persistent-tape", "holdout")]
    assert problems == [
        f"{path}:2: invalid JSON (Expecting property name enclosed in double quotes)"
    ]


def write_labels(tmp_path: Path, verdict: str) -> Path:
    path = tmp_path / "labels.jsonl"
    answer = "A default tape frees its recording after the first gradient() call; use tf.GradientTape(persistent=True) and del the tape afterwards."
    path.write_text(
        json.dumps({"question": "persistent-tape", "answer": answer, "verdict": verdict}),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(("verdict", "code"), [("correct", 0), ("incorrect", 1)])
def test_run_calibrate_cli_exits_by_agreement(tmp_path: Path, verdict: str, code: int) -> None:
    out = io.StringIO()
    assert run_calibrate_cli(CORE, write_labels(tmp_path, verdict), out) == code
    assert "persistent-tape:" in out.getvalue() and "exact agreement" in out.getvalue()


def test_run_calibrate_cli_prints_the_disagreeing_answer(tmp_path: Path) -> None:
    out = io.StringIO()
    run_calibrate_cli(CORE, write_labels(tmp_path, "incorrect"), out)
    assert "missed-negative: labelled incorrect, graded correct" in out.getvalue()
    assert "frees its recording" in out.getvalue()


def test_run_calibrate_cli_rejects_a_broken_pack(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_calibrate_cli(tmp_path / "missing", None, out) == 2
    assert "fix them first" in out.getvalue()


def test_run_calibrate_cli_rejects_a_broken_labelled_file(tmp_path: Path) -> None:
    path = tmp_path / "labels.yaml"
    path.write_text("- answer: x\n  verdict: correct\n", encoding="utf-8")
    out = io.StringIO()
    assert run_calibrate_cli(CORE, path, out) == 2
    assert "missing question id" in out.getvalue()
