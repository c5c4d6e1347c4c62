"""Round 21 (docs/freetext-rounds.md, "Round 21: the verdict cells (engineer P)"): the chain's
misses counted by cause (chain_misses.py), and a correct answer the second opinion lowers read
on by its partial model, which may lower it to incorrect at the same cut."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from app.grading.freetext import chain, chain_misses, grader
from app.grading.freetext import second_opinion as so
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.grader import LOWERED_TO_INCORRECT_MESSAGE, grade_freetext
from tests.conftest import env_setting
from tests.grading.core_questions import question
from tests.grading.test_freetext_second_opinion import LOWERED

CLEAN = Evidence(frozenset({"a"}), 0.8, (), False)
SURE_NOT_CORRECT, SURE_INCORRECT = so.Model({}, -30.0), so.Model({}, 30.0)


def _p(p: float) -> so.Model:
    return so.Model({}, math.log(p / (1 - p)))


def test_a_lowered_correct_the_partial_model_is_sure_of_is_incorrect() -> None:
    # before round 21 a lowered correct stopped at partial whatever the partial model said
    assert so.second_verdict(SURE_NOT_CORRECT, {}, CLEAN, "correct", SURE_INCORRECT) == "incorrect"


@pytest.mark.parametrize(("p_incorrect", "verdict"), [(0.56, "incorrect"), (0.54, "partial")])
def test_the_same_cut_as_a_partial(p_incorrect: float, verdict: str) -> None:
    lowered = so.second_verdict(SURE_NOT_CORRECT, {}, CLEAN, "correct", _p(p_incorrect))
    assert lowered == verdict
    assert so.second_verdict(_p(0.5), {}, CLEAN, "partial", _p(p_incorrect)) == verdict


def test_only_a_correct_the_first_model_lowers() -> None:
    assert so.second_verdict(_p(0.3), {}, CLEAN, "correct", SURE_INCORRECT) == "correct"
    assert so.second_verdict(SURE_NOT_CORRECT, {}, CLEAN, "correct", None) == "partial"
    told = Evidence(frozenset({"a"}), 0.8, ("partial",), False)
    no_credit = Evidence(frozenset({"a"}), 0.8, (), True)
    for evidence in (told, no_credit):
        assert so.second_verdict(SURE_NOT_CORRECT, {}, evidence, "correct", SURE_INCORRECT) == (
            "correct"
        )


@pytest.fixture
def setting_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from env_setting(monkeypatch, "TAPEQUIZ_FREETEXT_SECOND_OPINION", "true")


def test_the_grader_lowers_it_to_incorrect_and_says_why(
    setting_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    qid, text = LOWERED  # correct by the rules, lowered by the shipped model
    monkeypatch.setattr(grader, "incorrect_model_for", lambda *_: SURE_INCORRECT)
    rubric = question(qid).rubric
    rules = grade_freetext(question(qid), text, second_opinion=False)
    result = grade_freetext(question(qid), text)
    assert (rules.verdict, rules.misconceptions, result.verdict) == ("correct", [], "incorrect")
    assert result.details["second_opinion"] == "lowered"
    assert result.score < rubric.thresholds.partial
    assert result.feedback == [*rules.feedback, result.feedback[-1]]
    assert result.feedback[-1].message == LOWERED_TO_INCORRECT_MESSAGE


QID = "persistent-tape"
TAG = "persistent-by-default"  # the rubric caps it `incorrect`
OTHER = "persistent-is-free"


def _row(persona: str, label: str, tags: tuple[str, ...], named: tuple[str, ...]) -> Row:
    rubric = question(QID).rubric
    caps = ["incorrect" if t == TAG else "partial" for t in named]
    evidence = Evidence.read(rubric, [c.id for c in rubric.concepts], caps, False)
    verdict = "incorrect" if "incorrect" in caps else "partial" if caps else "correct"
    return Row(
        QID, persona, "tune", label, verdict, tags, named, 0.0, f"{persona} {label} {tags}",
        f"{persona}.yaml", evidence,
    )  # fmt: skip


def test_each_miss_gets_one_cause_from_labels_tags_and_precedent() -> None:
    rows = [
        *(_row("precedent", "incorrect", (TAG,), (TAG,)) for _ in range(6)),
        _row("fresh", "partial", (TAG,), (TAG,)),  # labelled tell, capped by precedent
        _row("fresh", "partial", (), (TAG,)),  # a tell the labellers did not give
        _row("fresh", "partial", (OTHER,), (TAG,)),  # another tell than theirs
        _row("fresh", "correct", (), (OTHER,)),  # a false tell capped partial
    ]
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    after = {id(r): r for r in rows}  # read as the rules read them
    counted = chain_misses.causes(rows, after, prepared, chain.by_persona)
    assert counted == {
        (("partial", "incorrect"), "the labelled tell, capped incorrect by precedent "
         "(incorrect) [rules]; core correct"): 1,
        (("partial", "incorrect"), "a tell not labelled (the labellers gave none), capped "
         "incorrect [rules]; core correct"): 1,
        (("partial", "incorrect"), "a tell not labelled (they gave another), capped "
         "incorrect [rules]; core correct"): 1,
        (("correct", "partial"), "a tell not labelled (the labellers gave none), capped "
         "partial [rules]; core correct"): 1,
    }  # fmt: skip
    table = chain_misses.table(counted, [("partial", "incorrect"), ("correct", "partial")])
    assert "partial graded incorrect: 3" in table and "correct graded partial: 1" in table


def test_a_fold_reads_the_precedent_of_the_other_folds_only() -> None:
    # "precedent"'s own six answers are no precedent for themselves: read alone, the cap
    # they carry is the rubric's; "other" is read with their six
    rows = [_row("precedent", "partial", (TAG,), (TAG,)) for _ in range(6)]
    rows.append(_row("other", "partial", (TAG,), (TAG,)))
    prepared = chain.prepare(rows, {QID: question(QID).rubric})
    counted = chain_misses.causes(rows, {id(r): r for r in rows}, prepared, chain.by_persona)
    cell = ("partial", "incorrect")
    assert counted == {
        (cell, "the labelled tell, capped incorrect by its rubric (precedent thin or "
         "unstable) [rules]; core correct"): 6,
        (cell, "the labelled tell, capped incorrect by precedent (partial) [rules]; core "
         "correct"): 1,
    }  # fmt: skip


def test_a_miss_without_a_tell_says_what_moved_it() -> None:
    rubric = question(QID).rubric
    rules = Row(
        QID, "p", "tune", "correct", "correct", (), (), 0.0, "a", "p.yaml",
        Evidence.read(rubric, [c.id for c in rubric.concepts], [], False),
    )  # fmt: skip
    lowered = chain_misses.cause(rules, _replace(rules, "partial"), {}, "correct")
    assert lowered == "no tell: the second opinion, correct -> partial"
    bare = Row(
        QID, "p", "tune", "partial", "incorrect", (), (), 0.0, "b", "p.yaml",
        Evidence.read(rubric, [], [], False),
    )  # fmt: skip
    assert chain_misses.cause(bare, bare, {}, "incorrect") == "no tell: no concept credited"


def _replace(row: Row, verdict: str) -> Row:
    import dataclasses

    return dataclasses.replace(row, verdict=verdict)


def test_a_partial_core_says_whether_a_required_concept_is_missing() -> None:
    rubric = question(QID).rubric  # three required concepts of weight 1, use-case 0.5
    prepared = chain.prepare([], {QID: rubric})

    def core(found: list[str]) -> str:
        evidence = Evidence.read(rubric, found, [], False)
        row = Row(QID, "p", "tune", "correct", "partial", (), (), 0.0, "a", "p.yaml", evidence)
        return chain_misses.core_verdict(prepared, row)

    assert core(["released-after-first", "persistent-true"]) == (
        "partial, a required concept missed"
    )
    assert core(["persistent-true"]) == "partial, a required concept missed"
    # round 44 (engineer K4): the fix weighs 2, the error explained alone is below partial
    assert core(["released-after-first"]) == "incorrect"
    assert core(["released-after-first", "persistent-true", "delete-tape"]) == "correct"
    assert core([]) == "incorrect"
