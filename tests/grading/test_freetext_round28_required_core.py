"""The partial/incorrect boundary, round 28 (docs/freetext-rounds.md "Round 28: the
partial/incorrect boundary (engineer B)"): a tell capped `incorrect` is capped `partial` beside
an answer whose rules credit every required concept (not complete), where the tag's precedent
among such answers is a sure partial that stands with each writer's answers left out
(tell_caps.CoreCaps, `beside_required_core`)."""

from __future__ import annotations

import json

import pytest

from app.grading.freetext import grader, tell_caps
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers): the required concept
# (loss-outside-block) beside the belief that None is a vanishing gradient
CORE_AND_TELL = (
    "The loss is computed outside the tape context, so nothing connects it to the weights. "
    "Also the gradients vanish because they are too small."
)
TELL_ALONE = "The gradients vanish because they are too small."
SURE_PARTIAL = tell_caps.CoreCaps({}, {"none-means-zero-signal": "partial"})


def _grade(
    text: str,
    core: tell_caps.CoreCaps,
    monkeypatch: pytest.MonkeyPatch,
    question_id: str = "why-none-gradients",
) -> tuple:
    monkeypatch.setattr(grader, "shipped_core_caps", lambda *_: core)
    result = grader.grade_freetext(
        question(question_id), text, second_opinion=False, neighbours=False
    )
    return result.verdict, result.misconceptions


def test_an_incorrect_cap_beside_the_required_core_is_partial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verdict = _grade(CORE_AND_TELL, SURE_PARTIAL, monkeypatch)
    assert verdict == ("partial", ["none-means-zero-signal"])


def test_without_that_precedent_the_cap_stays_incorrect(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _grade(CORE_AND_TELL, tell_caps.CoreCaps({}, {}), monkeypatch)
    assert verdict == ("incorrect", ["none-means-zero-signal"])


def test_the_tell_without_the_required_core_stays_incorrect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _grade(TELL_ALONE, SURE_PARTIAL, monkeypatch)[0] == "incorrect"


@pytest.mark.parametrize(
    ("complete", "required", "cap"),
    [
        (False, True, "partial"),  # the required core: round 28's precedent
        (False, False, "incorrect"),  # no core: the tag's own cap
        (True, True, "incorrect"),  # complete: round 18's precedent only (none here)
    ],
)
def test_a_core_lowers_by_its_own_precedent(complete: bool, required: bool, cap: str) -> None:
    caps = {"none-means-zero-signal": "incorrect", "other": "partial"}
    lowered = SURE_PARTIAL.for_core(caps, complete=complete, required=required)
    assert lowered == {"none-means-zero-signal": cap, "other": "partial"}


def test_a_partial_cap_is_never_raised_or_lowered_further() -> None:
    core = tell_caps.CoreCaps({}, {"t": "partial"})
    assert core.for_core({"t": "partial"}, complete=False, required=True) == {"t": "partial"}


def test_a_keyword_list_or_a_rubric_without_required_concepts_has_no_required_core() -> None:
    rubric = question("why-none-gradients").rubric
    found = frozenset({"loss-outside-block"})
    assert tell_caps.required_core(rubric, Evidence(found, 0.3, (), False))
    assert not tell_caps.required_core(rubric, Evidence(found, 0.3, (), True))
    assert not tell_caps.required_core(rubric, Evidence(frozenset(), 0.0, (), False))


@pytest.mark.parametrize(
    ("labels", "writers", "cap"),
    [
        ("pppppppppp", "abcdefghij", "partial"),
        ("ppppii", "abcdef", None),  # 2 of 6 incorrect: the interval reaches one half
        ("pppppppppp", "aaaaaabcde", None),  # without writer a: 4 answers, no precedent
    ],
)
def test_the_required_core_precedent_is_a_sure_partial_without_any_one_writer(
    labels: str, writers: str, cap: str | None
) -> None:
    names = {"i": "incorrect", "p": "partial"}
    precedents = [("q", ("t",), names[v], True, w) for v, w in zip(labels, writers, strict=True)]
    derived = tell_caps.derive_beside_core(precedents, tell_caps.stable_cap)
    assert derived[("q", "t")]["cap"] == cap


def test_the_shipped_artefact_lowers_none_means_zero_signal_beside_the_required_core() -> None:
    # fails until tell_caps.json is retrained after round 28 (the lead retrains artefacts)
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    entry = data["questions"]["why-none-gradients"]["tells"]["none-means-zero-signal"]
    assert entry["cap"] == "incorrect"
    assert entry[tell_caps.BESIDE_REQUIRED]["cap"] == "partial"


# the mirror: a partial-capped belief with no required concept beside it
XLA_ALONE = (
    "tf.function traces the Python function into a graph, and the graph is also compiled with "
    "XLA, which is where the speed comes from."
)
XLA_BESIDE_CORE = (
    XLA_ALONE + " The gain is largest for small models, where the Python overhead per op "
    "dominates the step."
)
SURE_INCORRECT = tell_caps.CoreCaps({}, {}, {"tf-function-is-xla": "incorrect"})


def _grade_speedup(text: str, core: tell_caps.CoreCaps, monkeypatch: pytest.MonkeyPatch) -> tuple:
    return _grade(text, core, monkeypatch, "tf-function-speedup")


def test_a_partial_cap_without_the_required_core_is_incorrect_where_precedent_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verdict = _grade_speedup(XLA_ALONE, SURE_INCORRECT, monkeypatch)
    assert verdict == ("incorrect", ["tf-function-is-xla"])
    assert _grade_speedup(XLA_ALONE, tell_caps.CoreCaps({}, {}), monkeypatch)[0] == "partial"


def test_the_same_belief_beside_the_required_core_keeps_its_partial_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verdict = _grade_speedup(XLA_BESIDE_CORE, SURE_INCORRECT, monkeypatch)
    assert verdict == ("partial", ["tf-function-is-xla"])


# Round 35's retrain to round 41's: 5 of 7 answers stating it without the required core
# labelled incorrect, no sure share (a strict xfail then). Round 42's retrain after the merge:
# 6 of 8 (the round's rule changes moved one answer labelled incorrect from beside the full
# core to without it), sure again.
def test_the_shipped_artefact_raises_tf_function_is_xla_without_the_required_core() -> None:
    # passed from round 28's retrain to round 34's (5 of 6 incorrect); the precedent moved
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    entry = data["questions"]["tf-function-speedup"]["tells"]["tf-function-is-xla"]
    assert entry["cap"] == "partial"
    assert entry[tell_caps.WITHOUT_CORE]["cap"] == "incorrect"
