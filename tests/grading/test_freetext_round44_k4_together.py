"""Tells together, round 44 (docs/freetext-rounds.md "Round 44: where the incorrect line falls
(engineer K4)"): where a question's tune answers labelled with two or more tells, each capped
`partial`, are a sure `incorrect` that stands with each writer's answers left out
(tell_caps.derive_together), an answer naming two or more tells, each capped `partial`, has them
capped `incorrect` (tell_caps.CoreCaps.for_tells_together): in the grader and in the chain's
leave-one-out reading alike."""

from __future__ import annotations

import json

import pytest

from app.grading.freetext import chain, grader, tell_caps
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers): the graph named, then two
# beliefs (the speed comes from the GPU; big models gain most), each capped `partial`
TWO_BELIEFS = (
    "tf.function traces the Python function into a graph once and reruns the graph. It is "
    "faster because the graph runs on the GPU. The gain is largest for big models with huge "
    "matrix multiplications."
)
ONE_BELIEF = (
    "tf.function traces the step into a graph, so each op no longer goes back to Python. The "
    "gain is largest for big models with huge matrix multiplications."
)
SURE_TOGETHER = tell_caps.CoreCaps({}, {}, {}, "incorrect")
CAPS = {"a": "partial", "b": "partial", "c": "incorrect"}


def _grade(text: str, core: tell_caps.CoreCaps, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(grader, "shipped_core_caps", lambda *_: core)
    result = grader.grade_freetext(
        question("tf-function-speedup"), text, second_opinion=False, neighbours=False
    )
    return result.verdict, sorted(result.misconceptions)


def test_two_partial_tells_are_incorrect_where_the_precedent_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    beliefs = ["big-models-gain-most", "tf-function-uses-gpu"]
    assert _grade(TWO_BELIEFS, SURE_TOGETHER, monkeypatch) == ("incorrect", beliefs)
    assert _grade(TWO_BELIEFS, tell_caps.CoreCaps({}, {}), monkeypatch) == ("partial", beliefs)


def test_one_partial_tell_keeps_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _grade(ONE_BELIEF, SURE_TOGETHER, monkeypatch)
    assert verdict == ("partial", ["big-models-gain-most"])


@pytest.mark.parametrize(
    ("together", "named", "capped"),
    [
        ("incorrect", ["a", "b"], {"a": "incorrect", "b": "incorrect", "c": "incorrect"}),
        ("incorrect", ["a"], CAPS),  # one tell: its own cap
        ("incorrect", ["a", "a"], CAPS),  # one tell named twice
        ("incorrect", ["a", "c"], CAPS),  # one already incorrect: nothing to lower
        ("incorrect", ["a", "unknown"], CAPS),  # a tag with no cap: not read as partial
        ("partial", ["a", "b"], CAPS),  # only ever lowers
        (None, ["a", "b"], CAPS),
    ],
)
def test_for_tells_together(together: str | None, named: list[str], capped: dict) -> None:
    core = tell_caps.CoreCaps({}, {}, {}, together)
    assert core.for_tells_together(CAPS, named) == capped


def _precedents(labels: str, writers: str, tags: tuple[str, ...] = ("a", "b")) -> list:
    names = {"i": "incorrect", "p": "partial", "c": "correct"}
    return [("q", tags, names[v], w) for v, w in zip(labels, writers, strict=True)]


def test_derive_together_reads_answers_with_two_partial_tags_only() -> None:
    caps = {"q": CAPS}
    precedents = _precedents("iiiiiip", "uvwxyzu")
    assert tell_caps.derive_together(precedents, caps) == {
        "q": {"answers": 7, "incorrect": 6, "cap": "incorrect"}
    }
    # a tag capped incorrect, a single tag or an unknown tag: not this precedent
    for tags in [("a", "c"), ("a",), ("a", "unknown")]:
        assert tell_caps.derive_together(_precedents("iiiiiip", "uvwxyzu", tags), caps) == {}


def test_derive_together_needs_a_sure_majority_that_stands_without_each_writer() -> None:
    caps = {"q": CAPS}
    unsure = tell_caps.derive_together(_precedents("iiipp", "uvwxy"), caps)
    assert unsure["q"]["cap"] is None
    one_writer = tell_caps.derive_together(_precedents("iiiiiipp", "uuuuuuvw"), caps)
    assert one_writer["q"]["cap"] is None  # without writer u: two answers, too few
    assert tell_caps.derive_together(_precedents("iiii", "uvwx"), caps) == {}  # too few


def _row(named: tuple[str, ...]) -> Row:
    evidence = Evidence(frozenset({"compiles-graph"}), 1 / 3, ("partial",) * len(named), False)
    return Row(
        "tf-function-speedup", "w", "tune", "incorrect", "partial", named, named, 0.0, "", "s",
        evidence,
    )  # fmt: skip


def test_the_chain_caps_tells_together_as_learned_in_its_fold() -> None:
    rubric = question("tf-function-speedup").rubric
    named = ("big-models-gain-most", "tf-function-uses-gpu")
    partial = {("tf-function-speedup", t): {"cap": "partial"} for t in named}
    learned = chain.Learned(None, partial, {}, {}, {})  # type: ignore[arg-type]
    assert chain.recapped(_row(named), rubric, learned, complete=False).verdict == "partial"
    sure = {"tf-function-speedup": {"answers": 9, "incorrect": 9, "cap": "incorrect"}}
    learned = chain.Learned(None, partial, {}, {}, {}, together=sure)  # type: ignore[arg-type]
    assert chain.recapped(_row(named), rubric, learned, complete=False).verdict == "incorrect"
    assert chain.recapped(_row(named[:1]), rubric, learned, complete=False).verdict == "partial"


def test_the_shipped_artefact_caps_tf_function_speedups_tells_together() -> None:
    # fails until tell_caps.json is retrained after round 44 (the lead retrains artefacts): 122
    # of the 123 tune answers labelled with two or more of its tells, each capped partial,
    # are labelled incorrect
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    assert data["questions"]["tf-function-speedup"][tell_caps.TOGETHER]["cap"] == "incorrect"
