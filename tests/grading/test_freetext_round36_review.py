"""Round 36's two review items (docs/freetext-rounds.md "Round 36: learned parts that flip
between retrains (engineer K4)"): a claim keeps its roles as written, so the one-role reading
does not split the pattern again; and the chain's fold loop takes what to read of each row, so
a benchmark that reads more than the chained row folds the rows the way chain_rows does."""

from __future__ import annotations

from app.grading.freetext import chain
from app.grading.freetext.claims import claim_parts, parse_claim
from app.grading.freetext.evaluation import Row
from tests.grading.core_questions import question
from tests.grading.test_freetext_round19_chain import QID, _row

ONE_ROLE = r"(loss|model) ~ (outside|before) & !(inside|within)"


def test_a_claim_keeps_its_roles_as_written() -> None:
    for pattern in (ONE_ROLE, r"tape\.gradient & updates? & weights & !(not)"):
        assert parse_claim(pattern).written == claim_parts(pattern)[0]


def _rows() -> list[Row]:
    return [_row("a", n) for n in range(3)] + [_row("b", 0), _row("c", 0, "held-out")]


def test_fold_readings_reads_each_fold_with_parts_learned_without_it() -> None:
    rows = _rows()
    prepared = chain.prepare(rows, {QID: question(QID).rubric})

    def taught(row: Row, learned: chain.Learned, _: chain.Prepared) -> tuple[str, int]:
        return row.persona, len(learned.index.tags.get(QID, ()))  # answers learned from

    read = chain.fold_readings(rows, prepared, chain.by_persona, taught)
    assert sorted(read.values()) == [("a", 1), ("a", 1), ("a", 1), ("b", 3), ("c", 4)]


def test_chain_rows_is_fold_readings_with_the_chain() -> None:
    rows = _rows()
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    shipped = chain.chain_rows(rows, prepared, chain.by_persona)
    given = chain.fold_readings(rows, prepared, chain.by_persona, chain.graded)
    assert shipped == given and len(shipped) == len(rows)
