"""Two tells together beside every required concept, round 47 (docs/freetext-rounds.md "Round 47:
partial answers graded correct (engineer K7)"). Round 44's `together` precedent caps two or more
named tells `incorrect` where the question's answers labelled with two or more are a sure
`incorrect`; labellers grade the same beliefs beside a right core as partial (no-zero-grad over
tune: 6 of 40 labelled incorrect where the rules credit every required concept, 54 of 65 where they
do not; pooled 60 of 105, a sure `incorrect`). So the same precedent over the answers with every
required concept (`together_core`): where it is a sure `partial`, `together` does not reach an
answer with that core. It only ever keeps an answer at its own tells' caps."""

from __future__ import annotations

from typing import Any

import pytest

from app.grading.freetext import chain, grader, tell_caps
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question

QUESTION = "no-zero-grad"
TELLS = ("tape-accumulates", "tape-reset-is-zero-grad")
PARTIAL = dict.fromkeys(TELLS, "partial")


@pytest.mark.parametrize(
    ("core", "together_core", "cap"),
    [
        (True, "partial", "partial"),
        (False, "partial", "incorrect"),
        (True, None, "incorrect"),
        (True, "incorrect", "incorrect"),
    ],
)
def test_together_stops_beside_the_core_only_where_its_precedent_there_is_partial(
    core: bool, together_core: str | None, cap: str
) -> None:
    caps = tell_caps.CoreCaps({}, {}, together="incorrect", together_core=together_core)
    assert caps.for_tells_together(PARTIAL, TELLS, core=core) == dict.fromkeys(TELLS, cap)


def _row(found: set[str], label: str = "partial", writer: str = "w") -> Row:
    evidence = Evidence(frozenset(found), 0.4, ("partial", "partial"), False)
    return Row(QUESTION, writer, "tune", label, "partial", TELLS, TELLS, 0.0, "", "s", evidence)


def _learned(together_core: str | None) -> chain.Learned:
    sure = {QUESTION: {"answers": 9, "incorrect": 9, "cap": "incorrect"}}
    core = {QUESTION: {"answers": 9, "incorrect": 1, "cap": together_core}}
    return chain.Learned(
        None,  # type: ignore[arg-type]
        {},
        {},
        {},
        {},
        together=sure,
        together_core=core if together_core else {},
    )


@pytest.mark.parametrize(
    ("found", "together_core", "cap"),
    [
        ({"fresh-gradients"}, "partial", "partial"),
        ({"not-needed"}, "partial", "incorrect"),
        ({"fresh-gradients"}, None, "incorrect"),
    ],
)
def test_the_chain_reads_the_core_beside_two_tells(
    found: set[str], together_core: str | None, cap: str
) -> None:
    rubric = question(QUESTION).rubric
    row = _row(found)
    caps = chain.row_caps(row, rubric, _learned(together_core), False)
    assert {t: caps[t] for t in TELLS} == dict.fromkeys(TELLS, cap)


def test_the_chain_learns_the_precedent_over_answers_with_the_core() -> None:
    """Six writers' answers with the core labelled partial, six without labelled incorrect: the
    pooled precedent is unsure, the one beside the core a sure `partial`."""
    with_core = [_row({"fresh-gradients"}, "partial", f"a{i}") for i in range(6)]
    without = [_row({"not-needed"}, "incorrect", f"b{i}") for i in range(6)]
    rows = with_core + without
    rubrics = {QUESTION: question(QUESTION).rubric}
    prepared = chain.prepare(rows, rubrics)
    learned: dict[str, Any] = chain.learn_caps(rows, prepared)
    assert learned["together_core"][QUESTION]["cap"] == "partial"
    assert learned["together_core"][QUESTION]["answers"] == 6
    assert learned["together"].get(QUESTION, {}).get("cap") is None


TEXT = (
    "Each tape.gradient call returns fresh gradients for this step. The tape accumulates "
    "gradients across steps though, so call tape.reset() every step; resetting the tape is "
    "what zero_grad does."
)


@pytest.mark.parametrize(
    ("together_core", "verdict"), [("partial", "partial"), (None, "incorrect")]
)
def test_the_grader_reads_the_core_beside_two_tells(
    monkeypatch: pytest.MonkeyPatch, together_core: str | None, verdict: str
) -> None:
    """Every tell capped `partial` (the shipped caps patched): the rules credit the required
    `fresh-gradients` and name three tells."""
    rubric = question(QUESTION).rubric
    every = {m.tag: "partial" for m in rubric.misconceptions}
    core_caps = tell_caps.CoreCaps({}, {}, together="incorrect", together_core=together_core)
    monkeypatch.setattr(grader, "shipped_caps", lambda question_id, rubric: every)
    monkeypatch.setattr(grader, "shipped_core_caps", lambda question_id, rubric: core_caps)
    result = grade_freetext(question(QUESTION), TEXT, second_opinion=False, neighbours=False,
                            tag_classifier=False, embedding_verdict=False)  # fmt: skip
    assert len(result.misconceptions) >= 2
    assert "fresh-gradients" in result.details["concepts_found"]
    assert result.verdict == verdict
