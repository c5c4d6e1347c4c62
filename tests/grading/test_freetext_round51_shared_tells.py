"""Round 51 (S1): the shared-tells benchmark widens only the chosen tags, counts moves per tag."""

from __future__ import annotations

from pathlib import Path

from app.grading.freetext.evaluation import Row
from app.packs.loader import load_pack
from app.packs.rubric import Misconception
from app.packs.schema import FreeText
from benchmarks.freetext_shared_tells import (
    moves,
    shared_tags,
    tally,
    union_of,
    widened,
    with_phrasing,
)

CORE = Path(__file__).resolve().parents[2] / "questions" / "gradient-tape"


def _tell(*phrasings: str) -> Misconception:
    return Misconception(tag="t", correction="c", any=list(phrasings))


def _row(label: str, verdict: str, expected: tuple[str, ...], named: tuple[str, ...]) -> Row:
    return Row("q", "p", "tune", label, verdict, expected, named, 0.0, "", "s")


def test_union_keeps_each_phrasing_once_in_copy_order() -> None:
    union = union_of([_tell("a", "b"), _tell("b", "c")])
    assert union == {"any": ["a", "b", "c"], "negated": []}


def test_widened_pack_changes_only_the_chosen_tags() -> None:
    pack = load_pack(CORE).pack
    assert pack is not None
    tag = "grads-stored-on-variables"  # five copies, not shared in round 51
    assert len(shared_tags(pack)[tag]) == 5
    wide = widened(pack, {tag})
    grown = 0
    for before, after in zip(pack.questions, wide.questions, strict=True):
        if not isinstance(before.question, FreeText):
            continue
        assert isinstance(after.question, FreeText)
        for old, new in zip(
            before.question.rubric.misconceptions, after.question.rubric.misconceptions, strict=True
        ):
            if old.tag == tag:
                assert set(old.any) <= set(new.any)
                grown += set(old.any) < set(new.any)
            else:
                assert old == new
    assert grown > 0


def test_moves_counts_a_wrong_tag_added_on_a_correct_answer_that_lowered_it() -> None:
    found = moves(_row("correct", "correct", (), ()), _row("correct", "partial", (), ("t",)), {"t"})
    assert dict(found["t"]) == {"wrong+": 1, "on-correct+": 1, "moved": 1}


def test_tally_counts_a_verdict_moved_with_no_tag_changed_apart() -> None:
    pairs = [(_row("partial", "partial", (), ()), _row("partial", "correct", (), ()))]
    per_tag, unattributed, moved = tally(pairs, {"t"})
    assert (dict(per_tag), unattributed, moved) == ({}, 1, 1)


def test_with_phrasing_adds_one_phrasing_to_the_tags_copy_only() -> None:
    pack = load_pack(CORE).pack
    assert pack is not None
    (question,) = [i.question for i in pack.questions if i.question.id == "gradient-vs-apply"]
    assert isinstance(question, FreeText)
    tag = "grads-stored-on-variables"
    assert tag in {m.tag for m in question.rubric.misconceptions}
    changed = with_phrasing(question, tag, r"\bzzz\b", "negated")
    for old, new in zip(question.rubric.misconceptions, changed.rubric.misconceptions, strict=True):
        assert new == (
            old.model_copy(update={"negated": [*old.negated, r"\bzzz\b"]})
            if old.tag == tag
            else old
        )
