"""The partial line, round 18 (docs/freetext-rounds.md "Round 18: the partial line (engineer
V)"): a tell capped `incorrect` by precedent is capped `partial` beside an answer the rules
read as otherwise complete, where the tag's precedent among such answers says partial and
stays so with each writer's answers left out (tell_caps.derive_beside_core)."""

from __future__ import annotations

import json

import pytest

from app.grading.freetext import tell_caps
from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers)
COMPLETE = (
    "A default tape is non-persistent: it frees its recording after the first gradient call, "
    "so the second call raises. Create it with persistent=True to take both gradients, and "
    "del the tape when you are done."
)
LIST_TELL = "Or pass both losses as a list to tape.gradient and you get two sets of gradients."
LIST_ALONE = "Pass both losses as a list to tape.gradient and you get two sets of gradients."


def _grade(text: str, **kwargs: bool) -> tuple[str, list[str]]:
    result = grade_freetext(
        question("persistent-tape"), text, second_opinion=False, neighbours=False, **kwargs
    )
    return result.verdict, result.misconceptions


def test_an_incorrect_cap_beside_a_complete_answer_is_partial() -> None:
    assert _grade(COMPLETE + " " + LIST_TELL) == ("partial", ["list-target-separate-grads"])


def test_the_same_tell_without_the_rest_stays_incorrect() -> None:
    assert _grade(LIST_ALONE) == ("incorrect", ["list-target-separate-grads"])


def test_the_complete_answer_alone_stays_correct() -> None:
    assert _grade(COMPLETE) == ("correct", [])


def test_the_rubric_as_written_is_untouched() -> None:
    # tell_caps=False: the rubric's own cap (partial) and no precedent at all
    assert _grade(COMPLETE + " " + LIST_TELL, tell_caps=False)[0] == "partial"


def test_the_precedent_cap_still_applies_beside_a_complete_answer_elsewhere() -> None:
    # none-means-zero-signal's cap alone is `incorrect` by precedent, 30 of 30 beside a complete
    # answer say partial. (Until round 54 this test read list-target-separate-grads: with round
    # 53's set in tune its precedent is 51 of 94 incorrect, no stable cap; see the last test.)
    q = question("why-none-gradients")
    assert tell_caps.shipped_caps(q.id, q.rubric)["none-means-zero-signal"] == "incorrect"
    core = tell_caps.shipped_core_caps(q.id, q.rubric)
    assert core.complete["none-means-zero-signal"] == "partial"


def test_a_tag_whose_precedent_beside_a_complete_answer_is_incorrect_keeps_its_cap() -> None:
    derived = {"t": {"cap": "incorrect", "beside_full_core": {"cap": "incorrect"}}}
    assert tell_caps.core_caps_from(derived) == {}
    derived = {"t": {"cap": "incorrect", "beside_full_core": {"cap": None}}}
    assert tell_caps.core_caps_from(derived) == {}
    derived = {"t": {"cap": "incorrect", "beside_full_core": {"cap": "partial"}}}
    assert tell_caps.core_caps_from(derived) == {"t": "partial"}


def _precedents(labels: str, writers: str) -> list[tuple[str, tuple[str, ...], str, bool, str]]:
    names = {"i": "incorrect", "p": "partial"}
    return [("q", ("t",), names[v], True, w) for v, w in zip(labels, writers, strict=True)]


@pytest.mark.parametrize(
    ("labels", "writers", "cap"),
    [
        ("pppppp", "abcdef", "partial"),  # any writer left out: 5 answers, all partial
        ("pppppp", "aaabcd", None),  # without writer a: 3 answers, no precedent
        ("pppppi", "abcdef", "partial"),
        ("pppiiiii", "abcdefgh", None),  # 5/8 incorrect, one more partial: 5/9 (stable_cap)
        ("iiiiii", "abcdef", "incorrect"),
    ],
)
def test_a_cap_beside_a_complete_answer_stands_without_any_one_writer(
    labels: str, writers: str, cap: str | None
) -> None:
    derived = tell_caps.derive_beside_core(_precedents(labels, writers))
    assert derived[("q", "t")]["cap"] == cap


def test_only_answers_read_as_complete_are_precedent() -> None:
    precedents = [*_precedents("pppppp", "abcdef"), ("q", ("t",), "incorrect", False, "g")]
    assert tell_caps.derive_beside_core(precedents)[("q", "t")]["answers"] == 6


def test_the_shipped_artefact_lowers_an_incorrect_cap_beside_a_complete_answer() -> None:
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    entry = data["questions"]["why-none-gradients"]["tells"]["none-means-zero-signal"]
    assert entry["cap"] == "incorrect"
    assert entry["beside_full_core"]["cap"] == "partial"
    # round 54: list-target-separate-grads (this test's tag until then) has no cap of its own
    # any more, 51 of 94 incorrect; beside a complete answer its precedent is still partial
    listed = data["questions"]["persistent-tape"]["tells"]["list-target-separate-grads"]
    assert (listed["cap"], listed["beside_full_core"]["cap"]) == (None, "partial")
