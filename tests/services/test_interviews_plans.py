"""Interview plans and adaptive follow-ups, as pure choices over the fixture pack."""

from __future__ import annotations

import random

import pytest

from app.packs.catalog import Catalog, load_catalog
from app.packs.loader import LoadedQuestion
from app.services.interviews import plans
from tests.services.interview_kit import FIXTURES

SLOT_MINUTES = {"warm-up": 1.0, "explanation": 3.0, "code": 5.0}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog([FIXTURES])


@pytest.fixture(scope="module")
def pool(catalog: Catalog) -> list[LoadedQuestion]:
    return plans.pack_pool(catalog.questions.values(), "interview-pack")


def item(pool: list[LoadedQuestion], question_id: str) -> LoadedQuestion:
    return next(i for i in pool if i.question.id == question_id)


@pytest.mark.parametrize("minutes", plans.LENGTHS)
def test_plan_with_follow_ups_fits_the_length(minutes: int) -> None:
    planned = sum(SLOT_MINUTES[kind] for kind in plans.PLANS[minutes])
    assert planned + plans.FOLLOWUPS[minutes] * 1.0 <= minutes


@pytest.mark.parametrize("minutes", plans.LENGTHS)
def test_plan_opens_with_warm_up_and_has_explanation_and_code(minutes: int) -> None:
    plan = plans.PLANS[minutes]
    assert plan[0] == "warm-up" and {"explanation", "code"} <= set(plan)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("needs-zero-grad", "zero-grad", True),
        ("loss-outside-is-fine", "loss-outside-tape", True),
        ("numpy-inside-tape", "numpy-in-tape", True),
        ("pass-model-variables", "model-variables", True),
        ("tape-accumulates", "numpy-in-tape", False),
        ("variables-are-the-same", "model-variables", False),
        ("zero-grad", "gradient-vs-apply", False),
        ("optimizer-must-not-update", "optimizer", False),
    ],
)
def test_related_slugs(a: str, b: str, expected: bool) -> None:
    assert plans.related(a, b) is expected


def test_pick_for_slot_skips_what_does_not_fit(pool: list[LoadedQuestion]) -> None:
    rng = random.Random(1)
    choice = plans.pick_for_slot(
        "code", pool, asked=set(), difficulty=None, minutes_left=4.5, rng=rng
    )
    assert choice is None


def test_pick_for_code_starts_at_the_training_step(pool: list[LoadedQuestion]) -> None:
    for seed in range(5):
        choice = plans.pick_for_slot(
            "code", pool, asked=set(), difficulty="hard", minutes_left=30, rng=random.Random(seed)
        )
        assert choice is not None and choice.item.question.id == "k-train-step"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    ("difficulty", "expected"),
    [(None, "easy"), ("easy", "easy"), ("medium", "medium"), ("hard", "hard")],
)
def test_warm_up_follows_the_chosen_difficulty(
    pool: list[LoadedQuestion], seed: int, difficulty: str | None, expected: str
) -> None:
    """Round 13: a hard interview opened with an easy question. An interviewer still opens
    with a quick concept question, but at the level they are interviewing for; a mixed
    interview (no difficulty) still starts easy."""
    choice = plans.pick_for_slot(
        "warm-up", pool, asked=set(), difficulty=difficulty, minutes_left=30,
        rng=random.Random(seed),
    )  # fmt: skip
    assert choice is not None and choice.item.question.difficulty == expected


def test_filler_follows_the_chosen_difficulty(pool: list[LoadedQuestion]) -> None:
    choice = plans.pick_filler(
        pool, asked=set(), difficulty="hard", minutes_left=1.5, rng=random.Random(0)
    )
    assert choice is not None and choice.item.question.difficulty == "hard"


def test_passing_train_step_leads_to_clip_step(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(item=item(pool, "k-train-step"), verdict="correct")
    choice = plans.choose_followup(outcome, pool, asked={"k-train-step"}, minutes_left=30)
    assert choice is not None and choice.item.question.id == "k-clip-step"


def test_passing_last_step_leads_to_tf_function(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(item=item(pool, "k-train-step"), verdict="correct")
    asked = {"k-train-step", "k-clip-step"}
    choice = plans.choose_followup(outcome, pool, asked=asked, minutes_left=30)
    assert choice is not None and choice.item.question.id == "p-tf-function"


def test_failing_train_step_brings_no_harder_step(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(item=item(pool, "k-train-step"), verdict="incorrect")
    choice = plans.choose_followup(outcome, pool, asked={"k-train-step"}, minutes_left=30)
    assert choice is None or choice.item.question.id != "k-clip-step"


def test_tell_brings_follow_up_on_the_same_idea(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(
        item=item(pool, "e-zero-grad"),
        verdict="incorrect",
        misconceptions=("needs-zero-grad",),
        concepts_missed=("not-needed", "fresh-gradients"),
    )
    choice = plans.choose_followup(outcome, pool, asked={"e-zero-grad"}, minutes_left=30)
    assert choice is not None and choice.item.question.id == "f-zero-grad"
    assert "(TensorFlow needs a gradient-zeroing call)" in choice.reason


def test_correct_concept_brings_no_follow_up(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(item=item(pool, "w-records"), verdict="correct")
    assert plans.choose_followup(outcome, pool, asked={"w-records"}, minutes_left=30) is None


def test_follow_up_must_fit_the_time_left(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(item=item(pool, "k-train-step"), verdict="correct")
    assert plans.choose_followup(outcome, pool, asked={"k-train-step"}, minutes_left=0.5) is None


def test_missed_follow_up_brings_no_further_follow_up(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(
        item=item(pool, "e-zero-grad"),
        verdict="incorrect",
        misconceptions=("needs-zero-grad",),
        kind="follow-up",
    )
    assert plans.choose_followup(outcome, pool, asked={"e-zero-grad"}, minutes_left=30) is None


def test_follow_up_reason_names_rubric_labels(pool: list[LoadedQuestion]) -> None:
    outcome = plans.Outcome(
        item=item(pool, "e-zero-grad"), verdict="partial", concepts_missed=("fresh-gradients",)
    )
    choice = plans.choose_followup(outcome, pool, asked={"e-zero-grad"}, minutes_left=30)
    assert choice is not None
    assert (
        choice.reason
        == "Follow-up on what 'Where is zero_grad?' left out: gradients are fresh each step."
    )


@pytest.mark.parametrize("seed", range(5))
def test_second_warm_up_prefers_a_new_topic(pool: list[LoadedQuestion], seed: int) -> None:
    choice = plans.pick_for_slot(
        "warm-up", pool, asked={"w-records"}, difficulty=None, minutes_left=30,
        rng=random.Random(seed),
    )  # fmt: skip
    assert choice is not None and choice.item.question.id == "w-updates"
