"""The loose claim reading as a namer, measured leave one round out (round 48, engineer G1):
benchmarks/freetext_loose_namer.py's eligibility, tag choice (precise on training rows only)
and naming (never raising a verdict), on made-up rows and the core rubric."""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics
from app.grading.freetext.fitting import Evidence
from tests.grading.benchmark_scripts import load_benchmark

fln = load_benchmark("freetext_loose_namer.py", "freetext_loose_namer")

QUESTION = "gradient-accumulation"
TAG = "tape-accumulates"
EVIDENCE = Evidence(frozenset({"x"}), 0.5, (), False)


def _row(source: str, *, label: str = "partial", verdict: str = "partial",
         expected: tuple[str, ...] = (TAG,), named: tuple[str, ...] = (),
         evidence: Evidence | None = EVIDENCE, persona: str = "p") -> Row:  # fmt: skip
    return Row(QUESTION, persona, "tune", label, verdict, expected, named, 0.0, "text", source,
               evidence)  # fmt: skip


@pytest.fixture(scope="module")
def rubric():  # type: ignore[no-untyped-def]
    return free_text_rubrics(core_labelled().pack)[QUESTION]


@pytest.mark.parametrize(
    ("row", "variant", "expected"),
    [
        (_row("a", verdict="correct"), "any", False),
        (_row("a", named=("other",)), "untold", False),
        (_row("a", named=("other",)), "any", True),
        (_row("a", evidence=dataclasses.replace(EVIDENCE, no_credit=True)), "any", False),
        (_row("a", evidence=None), "any", False),
        (_row("a"), "untold", True),
    ],
)
def test_eligible_only_below_correct_with_credit(row: Row, variant: str, expected: bool) -> None:
    assert fln.eligible(row, variant) is expected


def test_chosen_tags_keep_a_precise_tag_fired_twice() -> None:
    rows = [_row("a"), _row("b")]
    hits = {"a": (TAG,), "b": (TAG,)}
    assert fln.chosen_tags(rows, hits, "untold") == {(QUESTION, TAG): (1.0, 2)}


@pytest.mark.parametrize(
    "rows",
    [
        [_row("a")],  # fired once
        [_row("a"), _row("b", expected=())],  # precision 0.5
        [_row("a"), _row("b"), _row("c", expected=(), label="correct")],  # once on a correct answer
    ],
)
def test_chosen_tags_drop_a_tag_not_precise_in_training(rows: list[Row]) -> None:
    hits = {r.source: (TAG,) for r in rows}
    assert fln.chosen_tags(rows, hits, "untold") == {}


def test_named_takes_the_cap_and_never_raises(rubric) -> None:  # type: ignore[no-untyped-def]
    chosen = {(QUESTION, TAG): (1.0, 2)}
    partial = fln.named(_row("a"), rubric, {"a": (TAG,)}, chosen, "untold")
    assert (partial.verdict, partial.named_tags) == ("incorrect", (TAG,))  # the tag's cap
    low = _row("b", verdict="incorrect")
    assert fln.named(low, rubric, {"b": (TAG,)}, chosen, "untold").verdict == "incorrect"


def test_named_leaves_a_row_no_chosen_tag_fires_on(rubric) -> None:  # type: ignore[no-untyped-def]
    row = _row("a")
    assert fln.named(row, rubric, {"a": (TAG,)}, {}, "untold") == row


def test_added_counts_right_wrong_and_on_correct() -> None:
    before = [_row("a"), _row("b", expected=()), _row("c", label="correct", expected=())]
    after = [dataclasses.replace(r, named_tags=(TAG,)) for r in before]
    assert fln.added(before, after) == (1, 2, 1)


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        # tape-accumulates' five-role phrasing, roles reordered and its verb ("keeps") missing:
        # the rules name nothing here
        ("Across micro batches the gradients get held in the tape.", True),
        ("The tape never keeps the gradients between micro batches.", False),  # a denial
        ("Does the tape keep the gradients between micro batches?", False),  # a question
    ],
)
def test_loose_tags_read_through_the_rules_polarity(rubric, answer: str, found: bool) -> None:  # type: ignore[no-untyped-def]
    row = dataclasses.replace(_row("a"), answer=answer)
    assert (TAG in fln.loose_tags(rubric, row)) is found


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        ("Across micro batches the tape keeps the gradients.", True),  # every role, reordered
        ("The gradients pile up inside the tape over micro batches.", False),  # no verb role
    ],
)
def test_whole_claim_tags_need_every_role(rubric, answer: str, found: bool) -> None:  # type: ignore[no-untyped-def]
    row = dataclasses.replace(_row("a"), answer=answer)
    loose = fln.loose_tags(rubric, row)
    assert TAG in loose
    assert (TAG in fln.whole_claim_tags(rubric, row, loose)) is found


def test_folds_leave_out_each_round_then_each_persona_not_read() -> None:
    rows = [_row("a", persona="x"), _row("b", persona="y"), _row("c", persona="z")]
    found = fln.folds(rows, {"final_r1": frozenset({"x", "y"})}, read={"y"})
    assert [(name, [r.source for r in rows if held(r)]) for name, held in found] == [
        ("LORO final_r1", ["a", "b"]),
        ("LOPO x", ["a"]),
        ("LOPO z", ["c"]),
    ]


def test_spared_slots_name_the_role_left_out(rubric) -> None:  # type: ignore[no-untyped-def]
    row = dataclasses.replace(
        _row("a"), answer="Across micro batches the gradients get held in the tape."
    )
    slots = fln.spared_slots(rubric, row, (TAG,))
    # its first phrasing's whole claim (through the lemma "hold") and each role spared
    assert {f"{TAG}|any|0|{i}" for i in ("w", "0", "1", "2", "3", "4")} <= set(slots)
    assert {fln.tag_of(s) for s in slots} == {TAG}
    assert fln.spared_slots(rubric, row, ()) == ()


def test_chosen_tags_read_a_slot_by_its_tag() -> None:
    slot = f"{TAG}|any|0|1"
    rows = [_row("a"), _row("b")]
    assert fln.chosen_tags(rows, {"a": (slot,), "b": (slot,)}, "any") == {
        (QUESTION, slot): (1.0, 2)
    }
