"""No required concept beside a tell, round 45 (docs/freetext-rounds.md "Round 45: the
partial/incorrect line with more labels (engineer K5)"): where a question's tune answers labelled
with one or more tells, each capped `partial`, whose rules credit none of the rubric's required
concepts, are a sure `incorrect` that stands with each writer's answers left out
(tell_caps.derive_no_required, artefact key `no_required_core`), such an answer's `partial` caps
are `incorrect` (tell_caps.CoreCaps.for_core, `nothing`): in the grader and in the chain's
leave-one-out reading alike. Only ever lowers."""

from __future__ import annotations

import pytest

from app.grading.freetext import chain, grader, tell_caps
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers): the graph named (not required),
# then a belief capped `partial` (big models gain most); and the same belief beside a required
# concept (the Python overhead per op)
GRAPH_AND_BELIEF = (
    "tf.function traces the Python function into a graph once and reruns the graph. The gain "
    "is largest for big models with huge matrix multiplications."
)
OVERHEAD_AND_BELIEF = (
    "tf.function traces the step into a graph, so each op no longer goes back to Python. The "
    "gain is largest for big models with huge matrix multiplications."
)
TAG = "big-models-gain-most"
SURE_WITHOUT = tell_caps.CoreCaps({}, {}, nothing="incorrect")


def _grade(text: str, core: tell_caps.CoreCaps, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(grader, "shipped_core_caps", lambda *_: core)
    monkeypatch.setattr(grader, "shipped_caps", lambda _q, rubric: {TAG: "partial"})
    result = grader.grade_freetext(
        question("tf-function-speedup"), text, second_opinion=False, neighbours=False
    )
    return result.verdict, result.misconceptions


def test_a_belief_with_no_required_concept_is_incorrect_where_the_precedent_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _grade(GRAPH_AND_BELIEF, SURE_WITHOUT, monkeypatch) == ("incorrect", [TAG])
    assert _grade(GRAPH_AND_BELIEF, tell_caps.CoreCaps({}, {}), monkeypatch) == ("partial", [TAG])


def test_a_required_concept_beside_the_belief_keeps_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _grade(OVERHEAD_AND_BELIEF, SURE_WITHOUT, monkeypatch) == ("partial", [TAG])


CAPS = {"a": "partial", "b": "incorrect"}


@pytest.mark.parametrize(
    ("cap", "nothing", "capped"),
    [
        ("incorrect", True, {"a": "incorrect", "b": "incorrect"}),
        ("incorrect", False, CAPS),  # some required concept credited
        ("partial", True, CAPS),  # only ever lowers
        (None, True, CAPS),  # no sure precedent
    ],
)
def test_for_core_reads_no_required_concept(cap: str | None, nothing: bool, capped: dict) -> None:
    core = tell_caps.CoreCaps({}, {}, nothing=cap)
    assert core.for_core(CAPS, complete=False, required=False, nothing=nothing) == capped


def test_a_tags_own_precedent_still_applies_where_the_questions_is_unsure() -> None:
    core = tell_caps.CoreCaps({}, {}, {"a": "incorrect"})
    capped = core.for_core({"a": "partial"}, complete=False, required=False, nothing=True)
    assert capped == {"a": "incorrect"}


def test_a_complete_or_required_core_is_not_read_as_nothing() -> None:
    core = tell_caps.CoreCaps({}, {}, nothing="incorrect")
    for complete, required in [(True, False), (False, True)]:
        capped = core.for_core({"a": "partial"}, complete=complete, required=required)
        assert capped == {"a": "partial"}


def _evidence(found: set[str], no_credit: bool = False) -> Evidence:
    return Evidence(frozenset(found), 1 / 3, ("partial",), no_credit)


def test_no_required_core() -> None:
    rubric = question("tf-function-speedup").rubric
    assert tell_caps.no_required_core(rubric, _evidence({"compiles-graph"}))
    assert tell_caps.no_required_core(rubric, _evidence(set()))
    assert tell_caps.no_required_core(rubric, _evidence({"python-overhead"}, no_credit=True))
    assert not tell_caps.no_required_core(rubric, _evidence({"compiles-graph", "small-models"}))
    assert not tell_caps.no_required_core(rubric, None)
    empty = Evidence(frozenset(), 0.0, (), False, empty=True)
    assert not tell_caps.no_required_core(rubric, empty)


def _row(found: set[str]) -> Row:
    return Row(
        "tf-function-speedup", "w", "tune", "incorrect", "partial", (TAG,), (TAG,), 0.0, "", "s",
        _evidence(found),
    )  # fmt: skip


def test_the_chain_applies_it_as_learned_in_its_fold() -> None:
    rubric = question("tf-function-speedup").rubric
    partial = {("tf-function-speedup", TAG): {"cap": "partial"}}
    sure = {"tf-function-speedup": {"answers": 9, "incorrect": 9, "cap": "incorrect"}}
    learned = chain.Learned(None, partial, {}, {}, {})  # type: ignore[arg-type]
    assert chain.recapped(_row({"compiles-graph"}), rubric, learned, False).verdict == "partial"
    learned = chain.Learned(None, partial, {}, {}, {}, nothing=sure)  # type: ignore[arg-type]
    assert chain.recapped(_row({"compiles-graph"}), rubric, learned, False).verdict == "incorrect"
    lowered = chain.recapped(_row({"compiles-graph", "python-overhead"}), rubric, learned, False)
    assert lowered.verdict == "partial"


def _precedents(labels: str, writers: str, nothing: str, tags: tuple[str, ...] = ("a",)) -> list:
    names = {"i": "incorrect", "p": "partial", "c": "correct"}
    return [
        ("q", tags, names[v], w, n == "y") for v, w, n in zip(labels, writers, nothing, strict=True)
    ]


def test_derive_no_required_reads_answers_with_partial_tells_and_no_required_concept() -> None:
    caps = {"q": {"a": "partial", "b": "partial", "c": "incorrect"}}
    # six answers with no required concept, labelled incorrect by six writers; four with some
    # required concept, labelled partial: read the first six only
    precedents = _precedents("iiiiiipppp", "uvwxyzuvwx", "yyyyyynnnn")
    assert tell_caps.derive_no_required(precedents, caps) == {
        "q": {"answers": 6, "incorrect": 6, "cap": "incorrect"}
    }
    both = _precedents("iiiiii", "uvwxyz", "yyyyyy", ("a", "b"))
    assert tell_caps.derive_no_required(both, caps)["q"]["cap"] == "incorrect"
    # a tag capped incorrect, an unknown tag or no tag at all: not this precedent
    for tags in [("a", "c"), ("unknown",), ()]:
        assert (
            tell_caps.derive_no_required(_precedents("iiiiii", "uvwxyz", "yyyyyy", tags), caps)
            == {}
        )


def test_derive_no_required_needs_a_sure_majority_that_stands_without_each_writer() -> None:
    caps = {"q": {"a": "partial"}}
    unsure = tell_caps.derive_no_required(_precedents("iiipp", "uvwxy", "yyyyy"), caps)
    assert unsure["q"]["cap"] is None
    one_writer = tell_caps.derive_no_required(_precedents("iiiiiipp", "uuuuuuvw", "yyyyyyyy"), caps)
    assert one_writer["q"]["cap"] is None


def test_the_chain_learns_it_from_the_rules_reading_of_each_row() -> None:
    rows = [
        Row("q", w, "tune", v, "partial", ("a",), ("a",), 0.0, "", f"s{i}", _evidence(set()))
        for i, (v, w) in enumerate(
            zip(["incorrect"] * 6 + ["partial"] * 4, "uvwxyzuvwx", strict=True)
        )
    ]
    nothing = {id(r): i < 6 for i, r in enumerate(rows)}
    rubrics = {
        "q": question("tf-function-speedup").rubric.model_copy(update={"misconceptions": []})
    }
    prepared = chain.Prepared(
        rubrics,
        {},
        {},
        {id(r): False for r in rows},
        nothing=nothing,  # type: ignore[arg-type]
    )
    learned = chain.learn_caps(rows, prepared)
    assert learned["nothing"] == {}  # `a` is no tell of the rubric: not capped partial
