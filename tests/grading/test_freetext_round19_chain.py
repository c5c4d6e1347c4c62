"""The whole shipped chain read leave one fold out (chain.py, docs/freetext-rounds.md "Round
19: the partial line, learned (engineer M)"): each fold is graded with the neighbours' tell,
tell caps and the second opinion learned from the other tune rows only."""

from __future__ import annotations

from pathlib import Path

from app.grading.freetext import chain
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

QID = "persistent-tape"
TAG = "persistent-by-default"  # the rubric caps it `incorrect`


def _row(persona: str, n: int, side: str = "tune", label: str = "partial") -> Row:
    """A complete answer that names TAG (rubric cap: incorrect), labelled `label`."""
    rubric = question(QID).rubric
    found = [c.id for c in rubric.concepts]
    evidence = Evidence.read(rubric, found, ["incorrect"], False)
    return Row(
        QID, persona, side, label, "incorrect", (TAG,), (TAG,), 0.0,
        f"answer {n} of {persona}", f"{persona}.yaml", evidence,
    )  # fmt: skip


def _rows() -> list[Row]:
    return [_row("many", n) for n in range(6)] + [_row("one", 0), _row("fresh", 0, "held-out")]


def _verdicts(rows: list[Row], fold: chain.Fold) -> dict[str, set[str]]:
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    after = chain.chain_rows(rows, prepared, fold)
    out: dict[str, set[str]] = {}
    for r in rows:
        if id(r) in after:
            out.setdefault(r.persona, set()).add(after[id(r)].verdict)
    return out


def test_a_persona_is_read_without_its_own_precedent() -> None:
    # "many"'s six partial labels make the tag's cap partial for the others; "many" itself
    # is read from "one"'s single answer, too few for a precedent: the rubric's cap stands
    assert _verdicts(_rows(), chain.by_persona) == {
        "many": {"incorrect"},
        "one": {"partial"},
        "fresh": {"partial"},
    }


def test_a_round_left_out_reads_only_its_personas() -> None:
    fold = chain.by_round({"final_x": frozenset({"many"})})
    assert _verdicts(_rows(), fold) == {"many": {"incorrect"}, "fresh": {"partial"}}


def test_cells_count_label_against_verdict() -> None:
    rows = _rows()
    assert chain.cells(rows) == (0, 8, 0, 0, 0, 0)  # every row: partial graded incorrect
    assert chain.summary(rows).endswith("false tells 0 of 0; 0 8 0 0 0 0")


def test_final_groups_are_the_final_sets(tmp_path: Path) -> None:
    sides = tmp_path / "sides.yaml"
    sides.write_text("tune: [a, b, c]\nread: [a]\nfinal_r1: [b]\nfinal_r2: [c]\n")
    assert chain.final_groups(sides) == {"final_r1": frozenset("b"), "final_r2": frozenset("c")}


def _told(persona: str, n: int, tag: str, label: str) -> Row:
    """An answer the chain grades incorrect for naming `tag`, with no concept credited."""
    rubric = question(QID).rubric
    evidence = Evidence.read(rubric, [], ["incorrect"], False)
    return Row(
        QID, persona, "tune", label, "incorrect", (tag,), (tag,), 0.0,
        f"answer {n} of {persona}", f"{persona}.yaml", evidence,
    )  # fmt: skip


def _tell_rows() -> list[Row]:
    side = "list-target-separate-grads"  # partial to these labels
    wrong = "gradient-consumes-target"  # incorrect to these labels
    rows = []
    for persona in ("a", "b", "c", "d"):
        rows += [_told(persona, n, side, "partial") for n in range(4)]
        rows += [_told(persona, n + 4, wrong, "incorrect") for n in range(4)]
    return rows


def test_tell_line_raises_to_partial_what_other_folds_label_partial() -> None:
    rows = _tell_rows()
    after = chain.tell_line(rows, {id(r): r for r in rows}, chain.by_persona)
    moved = {(r.named_tags, after[id(r)].verdict) for r in rows}
    assert moved == {
        (("list-target-separate-grads",), "partial"),
        (("gradient-consumes-target",), "incorrect"),
    }


def test_tell_line_leaves_rows_outside_every_fold() -> None:
    rows = _tell_rows()
    fold = chain.by_round({"final_x": frozenset({"a"})})
    after = chain.tell_line(rows, {id(r): r for r in rows}, fold)
    raised = {r.persona for r in rows if after[id(r)].verdict == "partial"}
    assert raised == {"a"}
