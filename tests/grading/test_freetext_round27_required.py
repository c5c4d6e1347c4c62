"""Round 27 (docs/freetext-rounds.md, "Round 27: the second opinion and required concepts
(engineer S)"): a learned part never raises a partial to correct while a `required` concept
of the rubric is missing (not credited by the rules); a partial with every required concept
may still be raised, and a missing required concept does not stop a lowering."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from app.grading.freetext import embedding_verdict as ev
from app.grading.freetext import grader
from app.grading.freetext import second_opinion as so
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question
from tests.grading.test_freetext_grader import MISSING_APPLY_UPDATES, concepts

QUESTION = "gradient-vs-apply"  # apply-updates is required; correct at 0.4 of weight 4
# written for this test: apply-updates alone (weight 1 of 4), below the correct threshold
ONLY_APPLY_UPDATES = "apply_gradients updates the weights."
SURE = so.Model({}, 30.0)  # p(correct) ~ 1 with or without words
SURE_INCORRECT = so.Model({}, 30.0)
ALL_REQUIRED = Evidence(frozenset({"apply-updates"}), 0.25, (), False)
MISSING = Evidence(
    frozenset({"gradient-computes"}), 0.75, (), False, required_missing=frozenset({"apply-updates"})
)


def test_evidence_names_the_required_concepts_the_rules_did_not_credit() -> None:
    rubric = question(QUESTION).rubric
    found = {c.id for c in rubric.concepts} - {"apply-updates"}
    assert Evidence.read(rubric, found, (), False).required_missing == {"apply-updates"}
    every = {c.id for c in rubric.concepts}
    assert Evidence.read(rubric, every, (), False).required_missing == frozenset()


def test_the_second_opinion_never_raises_a_partial_missing_a_required_concept() -> None:
    assert so.second_verdict(SURE, {}, MISSING, "partial") == "partial"
    assert so.second_verdict(SURE, {}, ALL_REQUIRED, "partial") == "correct"


def test_a_missing_required_concept_does_not_stop_a_lowering() -> None:
    not_correct = so.Model({}, math.log(0.5))
    assert so.second_verdict(not_correct, {}, MISSING, "partial", SURE_INCORRECT) == "incorrect"


def test_the_embedding_verdict_never_raises_a_partial_missing_a_required_concept() -> None:
    sure = ev.Head({}, [[0.0, 0.0, 0.0]] * ev.DIMENSIONS, [math.log(x) for x in (0.01, 0.01, 0.98)])
    vector = [0.0] * ev.DIMENSIONS
    assert ev.moved_verdict(sure, vector, {}, "partial", (), MISSING) == "partial"
    assert ev.moved_verdict(sure, vector, {}, "partial", (), ALL_REQUIRED) == "correct"


@pytest.fixture
def sure_second_opinion(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The grader's second opinion sure of "correct" on every answer, never of "incorrect"."""
    monkeypatch.setattr(grader, "model_for", lambda *_: SURE)
    monkeypatch.setattr(grader, "incorrect_model_for", lambda *_: None)
    yield


@pytest.mark.usefixtures("sure_second_opinion")
def test_grading_keeps_a_partial_missing_a_required_concept_whatever_the_model_says() -> None:
    result = grade_freetext(question(QUESTION), MISSING_APPLY_UPDATES, second_opinion=True)
    assert "apply-updates" in concepts(result, "concepts_missed")
    assert result.verdict == "partial" and "second_opinion" not in result.details


@pytest.mark.usefixtures("sure_second_opinion")
def test_grading_may_raise_a_partial_with_every_required_concept() -> None:
    rules = grade_freetext(question(QUESTION), ONLY_APPLY_UPDATES, second_opinion=False)
    assert rules.verdict == "partial" and "apply-updates" in concepts(rules, "concepts_found")
    result = grade_freetext(question(QUESTION), ONLY_APPLY_UPDATES, second_opinion=True)
    assert result.verdict == "correct" and result.details["second_opinion"] == "raised"
