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
