"""The public-idiom corpus: every labelled submission graded as a strict interviewer would.

tests/grading/code_corpus/<question>/NNN-slug.py.txt holds answers written in the idioms of
public code (each file cites where its idiom is seen) and labelled `correct` or `wrong` from
the prompt as written, by someone other than the checker's author. A correct answer must be
graded correct (never partial); a wrong one anything but correct. The corpus is graded in
batches, and any disagreement again alone through the production path (see
app/grading/code/corpus.py). `benchmarks/code_corpus.py` prints the agreement and its cost.

DISPUTED lists labels the checker's author believes are wrong against the prompt as written,
with the argument; they stay as labelled and are expected to fail until someone decides.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.grading.code.corpus import Submission, grade_all, load
from app.grading.results import GradeResult
from tests.sandbox.conftest import SandboxGrader, load_question

pytestmark = pytest.mark.sandbox
CORPUS = Path(__file__).resolve().parents[1] / "grading" / "code_corpus"
SUBMISSIONS = load(CORPUS)
DISPUTED: dict[str, str] = {}


@pytest.fixture(scope="module")
def graded(sandbox: SandboxGrader) -> dict[Path, GradeResult]:
    found: dict[Path, GradeResult] = {}
    for qid in sorted({item.question for item in SUBMISSIONS}):
        items = [item for item in SUBMISSIONS if item.question == qid]
        found.update(sandbox.loop.run(grade_all(sandbox.grader, load_question(qid), items), 900))
    return found


def _marks(item: Submission) -> list[pytest.MarkDecorator]:
    reason = DISPUTED.get(item.name)
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


@pytest.mark.parametrize(
    "item",
    [pytest.param(i, id=i.name, marks=_marks(i)) for i in SUBMISSIONS if i.label == "correct"],
)
def test_correct_submission_is_graded_correct(
    item: Submission, graded: dict[Path, GradeResult]
) -> None:
    result = graded[item.path]
    assert (result.verdict, result.misconceptions) == ("correct", []), result


@pytest.mark.parametrize(
    "item",
    [pytest.param(i, id=i.name, marks=_marks(i)) for i in SUBMISSIONS if i.label == "wrong"],
)
def test_wrong_submission_is_not_graded_correct(
    item: Submission, graded: dict[Path, GradeResult]
) -> None:
    result = graded[item.path]
    assert result.verdict != "correct", (item.mistake, result)
