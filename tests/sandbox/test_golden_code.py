"""Golden cases for the code checker, run in real sandboxes.

Three tables: every code question's reference solution grades correct; every known-wrong
solution in the pack is diagnosed with its own tag (judged from the trusted run, with its own
fingerprint withheld so the rules must find it); and the submissions under
tests/grading/cases/code/<contract>/*.py.txt (correct idioms and variant mistakes) grade as their
`# expect:` header says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.grading.code.corpus import Submission, grade_all
from app.grading.code.judge import judge
from app.grading.code.static import analyse
from app.grading.results import GradeResult
from tests.sandbox.conftest import SandboxGrader, load_question

pytestmark = pytest.mark.sandbox
CASES = Path(__file__).resolve().parents[1] / "grading" / "cases" / "code"
QUESTIONS = [
    "train-step", "clip-step", "accumulate", "gan-step", "second-derivative", "input-gradient",
    "fix-none-gradients", "fix-gan-second-gradient", "fix-input-watch",
]  # fmt: skip
WRONGS = [(q, i) for q in QUESTIONS for i in range(len(load_question(q).wrong))]
GOLDEN = sorted(CASES.glob("*/*.py.txt"))  # .txt: answers, not repo code (no lint)


def expected(path: Path) -> str:
    header = path.read_text().splitlines()[0]
    assert header.startswith("# expect: "), path
    return header.removeprefix("# expect: ").strip()


@pytest.mark.parametrize("qid", QUESTIONS)
def test_reference_solution_grades_correct(qid: str, sandbox: SandboxGrader) -> None:
    question = load_question(qid)
    result = sandbox.grade(question, question.reference)
    assert (result.verdict, result.score, result.misconceptions) == ("correct", 1.0, [])


@pytest.mark.parametrize(("qid", "index"), WRONGS, ids=[f"{q}-{i}" for q, i in WRONGS])
def test_known_wrong_solution_gets_its_tag(qid: str, index: int, sandbox: SandboxGrader) -> None:
    question = load_question(qid)
    wrong = question.wrong[index]
    reference = sandbox.reference(question)
    run = reference.known[index].run
    others = [k for i, k in enumerate(reference.known) if i != index and k.tag != wrong.tag]
    result = judge(contract=question.contract, reference=reference.run, candidate=run,
                   known=others, facts=analyse(wrong.code))  # fmt: skip
    assert result.verdict != "correct"
    assert wrong.tag in result.misconceptions or _only_fingerprint(wrong.tag), result


def _only_fingerprint(tag: str) -> bool:
    # Mistakes with no rule of their own are recognised by matching a known-wrong run's
    # numbers; those are proven end to end by test_known_wrong_submission_end_to_end.
    return tag in {"accumulators-not-reset", "sum-not-mean", "apply-off-by-one",
                   "first-derivative-only", "generator-loss-label", "returned-wrong-order",
                   "reduce-mean-not-sum"}  # fmt: skip


@pytest.mark.parametrize("qid", ["accumulate", "gan-step", "input-gradient"])
def test_known_wrong_submission_end_to_end(qid: str, sandbox: SandboxGrader) -> None:
    question = load_question(qid)
    wrong = question.wrong[-1]
    result = sandbox.grade(question, wrong.code)
    assert result.verdict != "correct" and wrong.tag in result.misconceptions


@pytest.fixture(scope="module")
def golden(sandbox: SandboxGrader) -> dict[Path, GradeResult]:
    """Every golden case graded, in batches per question (one worker each, not one per case);
    a case whose batched verdict disagrees is graded again alone (app/grading/code/corpus.py)."""
    found: dict[Path, GradeResult] = {}
    for qid in sorted({path.parent.name for path in GOLDEN}):
        items = [_submission(path) for path in GOLDEN if path.parent.name == qid]
        found.update(sandbox.loop.run(grade_all(sandbox.grader, load_question(qid), items)))
    return found


def _submission(path: Path) -> Submission:
    label = "correct" if expected(path) == "correct" else "wrong"
    return Submission(path, path.parent.name, label, expected(path), "", "", path.read_text())


@pytest.mark.parametrize(
    "path", GOLDEN, ids=[f"{p.parent.name}/{p.name.removesuffix('.py.txt')}" for p in GOLDEN]
)
def test_golden_case(path: Path, golden: dict[Path, GradeResult]) -> None:
    result = golden[path]
    want = expected(path)
    if want == "correct":
        assert (result.verdict, result.misconceptions) == ("correct", []), result
    else:
        assert result.verdict != "correct" and want in result.misconceptions, result
