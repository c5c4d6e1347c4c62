"""Every predict-output question's marked answer matches what TensorFlow really does.

A predict-output question is a factual claim about TensorFlow 2.21 / Keras 3 ("prints
None", "raises RuntimeError"). Claims that nobody runs drift when a library changes, so
this test executes every snippet of the core pack in ONE subprocess (the TensorFlow
import dominates the cost; this process never imports TensorFlow) and checks both the
real outcome and that the correct choice states it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from app.packs.schema import PredictOutput
from tests.packs.snippet_runner import Outcome, run_snippets

CORE_PACK = Path(__file__).resolve().parents[2] / "questions" / "gradient-tape"


# The ground truth, checked against real runs: the exact stdout (stripped) and the type
# of any exception. The correct choice must quote every stdout line and the exception name.
EXPECTED: dict[str, Outcome] = {
    "predict-unwatched-constant": Outcome("None"),
    "predict-watch-keras-variable": Outcome(raises="ValueError"),
    "predict-loss-after-block": Outcome("None"),
    "predict-gradient-then-apply": Outcome("[1. 2.]\n[0. 0.]"),
    "predict-keras3-minimize": Outcome(raises="AttributeError"),
    "predict-fresh-gradients-each-step": Outcome("5.0\n5.0\n5.0"),
    "predict-accumulation-missing-reset": Outcome("-3.0"),
    "predict-second-gradient-call": Outcome("4.0", raises="RuntimeError"),
    "predict-nested-outer-closed": Outcome("27.0 None"),
    "predict-tf-function-trace-count": Outcome("tracing\ntracing\ntracing"),
    "predict-numpy-inside-tape": Outcome("None"),
    "predict-model-variables-gradients": Outcome("8 2\n1"),
    "predict-persistent-two-gradients": Outcome("4.0 12.0 4.0"),
    "predict-dropout-training-flag": Outcome("[1.]\n[0. 2.]"),
    "predict-nonscalar-target": Outcome("[2. 4. 6.]"),
}


def _predict_output_questions() -> dict[str, PredictOutput]:
    questions = {}
    for path in sorted(CORE_PACK.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("type") == "predict-output":
            question = PredictOutput.model_validate(data)
            questions[question.id] = question
    return questions


QUESTIONS = _predict_output_questions()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    snippets = {q.id: q.code for q in QUESTIONS.values()}
    return run_snippets(snippets, tmp_path_factory.mktemp("snippets"))


def test_expectations_cover_every_predict_output_question() -> None:
    assert sorted(EXPECTED) == sorted(QUESTIONS)


@pytest.mark.parametrize("question_id", sorted(QUESTIONS))
def test_snippet_runs_as_expected(question_id: str, outcomes: dict[str, Outcome]) -> None:
    actual, expected = outcomes[question_id], EXPECTED[question_id]
    assert actual == expected, f"ran as {actual}, question claims {expected}"


@pytest.mark.parametrize("question_id", sorted(QUESTIONS))
def test_correct_choice_states_expected_outcome(question_id: str) -> None:
    question, expected = QUESTIONS[question_id], EXPECTED[question_id]
    (correct,) = [c for c in question.choices if c.correct]
    fragments = [line.strip() for line in expected.stdout.splitlines() if line.strip()]
    fragments += [expected.raises] if expected.raises else []
    missing = [f for f in fragments if f not in correct.text]
    assert not missing, f"correct choice {correct.id!r} does not state {missing}"
