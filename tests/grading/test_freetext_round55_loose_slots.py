"""The per-slot loose namer's bar (round 55, engineer G4): benchmarks/freetext_loose_slots.py's
support, groups, precision, correct answers and true statements, and the polarity gap round 48
saw in the loose reading (a spared role that is the denied word)."""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.grader import has_evidence
from app.grading.freetext.learned_evidence import DENIED, loosened
from tests.grading.benchmark_scripts import load_benchmark

fls = load_benchmark("freetext_loose_slots.py", "freetext_loose_slots")

QUESTION = "gradient-accumulation"
TAG = "tape-accumulates"
SLOT = f"{TAG}|any|0|2"
EVIDENCE = Evidence(frozenset({"x"}), 0.5, (), False)
GROUPS = {"final_a": frozenset({"a1", "a2"}), "final_b": frozenset({"b1"})}


def _row(source: str, persona: str, *, label: str = "partial", right: bool = True) -> Row:
    expected = (TAG,) if right else ()
    return Row(QUESTION, persona, "tune", label, "partial", expected, (), 0.0, "text", source,
               EVIDENCE)  # fmt: skip


@pytest.fixture(scope="module")
def rubric():  # type: ignore[no-untyped-def]
    return free_text_rubrics(core_labelled().pack)[QUESTION]


def _chosen(rows: list[Row], on_true: bool = False) -> dict[tuple[str, str], tuple[float, int]]:
    hits = {r.source: (SLOT,) for r in rows}
    return fls.chosen_slots(rows, hits, "any", GROUPS, lambda _key: on_true)


FIVE = [_row(str(n), p) for n, p in enumerate(["a1", "a2", "a1", "b1", "b1"])]


def test_a_slot_on_five_answers_of_two_groups_all_right_is_kept() -> None:
    assert _chosen(FIVE) == {(QUESTION, SLOT): (1.0, 5)}


def test_four_of_five_right_is_kept() -> None:
    rows = [*FIVE[:4], dataclasses.replace(FIVE[4], expected_tags=())]
    assert _chosen(rows) == {(QUESTION, SLOT): (0.8, 5)}


@pytest.mark.parametrize(
    "rows",
    [
        FIVE[:4],  # four answers
        [_row(str(n), p) for n, p in enumerate(["a1", "a2", "a1", "a2", "a1"])],  # one round
        [*FIVE[:3], *(_row(f"w{n}", "b1", right=False) for n in range(2))],  # 60%
        [*FIVE, _row("c", "b1", label="correct")],  # on a correct answer (5 / 6 right)
    ],
)
def test_a_slot_failing_a_bar_in_training_is_dropped(rows: list[Row]) -> None:
    assert _chosen(rows) == {}


def test_a_slot_firing_on_a_true_statement_is_dropped() -> None:
    assert _chosen(FIVE, on_true=True) == {}


def test_a_persona_outside_the_final_sets_is_its_own_group() -> None:
    assert fls.group_of("a2", GROUPS) == "final_a"
    assert fls.group_of("tuner", GROUPS) == "tuner"


def test_the_failed_bar_is_named() -> None:
    assert fls.failed_bar(fls.Tally(4, 4, 0, frozenset({"x", "y"}))) == "fewer than 5 answers"
    assert fls.failed_bar(fls.Tally(5, 5, 0, frozenset({"x"}))) == "one group"
    assert fls.failed_bar(fls.Tally(5, 3, 0, frozenset({"x", "y"}))) == "below 80%"
    assert fls.failed_bar(fls.Tally(5, 4, 1, frozenset({"x", "y"}))) == "on a correct answer"
    assert fls.failed_bar(fls.Tally(5, 4, 0, frozenset({"x", "y"}))) is None


# The denial is read by the slot benchmark only (learned_evidence.loose_tell): the shipped
# evidence keeps round 54's reading until a whole-chain reading measures it (the lead, round 55).
NOT_SHIPPED = pytest.mark.xfail(
    strict=True, reason="round 55: the denial is not in the shipped evidence yet (the lead)"
)


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        # round 48's gap: the verb spared, "never" denies it, the two roles left ("across",
        # "micro") were read as affirmed
        pytest.param(
            "Across micro batches the gradients are never held in the tape.",
            False,
            marks=NOT_SHIPPED,
        ),
        pytest.param(
            "Across micro batches the gradients don't get held in the tape.",
            False,
            marks=NOT_SHIPPED,
        ),
        ("Across micro batches the gradients get held in the tape.", True),
    ],
)
def test_a_spared_reading_is_no_evidence_in_a_denying_sentence(
    rubric,  # type: ignore[no-untyped-def]
    answer: str,
    found: bool,
) -> None:
    tell = next(m for m in rubric.misconceptions if m.tag == TAG)
    assert has_evidence(tell, answer) is found


def test_an_affirmed_phrasing_spares_a_role_only_beside_the_denial_exclusion() -> None:
    spared = loosened(r"\ba\b & \bb\b & \bc\b", keep_out_denials=True)[2:]
    assert spared == [rf"\bb\b & \bc\b & {DENIED}", rf"\ba\b & \bc\b & {DENIED}",
                      rf"\ba\b & \bb\b & {DENIED}"]  # fmt: skip
    assert loosened(r"\ba\b & \bb\b & \bc\b")[2:] == [
        r"\bb\b & \bc\b",
        r"\ba\b & \bc\b",
        r"\ba\b & \bb\b",
    ]


def test_a_slot_is_read_on_a_statement(rubric) -> None:  # type: ignore[no-untyped-def]
    slot = f"{TAG}|any|0|w"  # the first phrasing's whole claim, any order
    assert fls.slot_states(rubric, slot, "Across micro batches the tape keeps the gradients.")
    assert not fls.slot_states(rubric, slot, "The tape records operations on variables.")
