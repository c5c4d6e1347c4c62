"""The verdict line, round 16 (docs/freetext-rounds.md "Round 16: the verdict line (engineer
V)"): a cap read from labelled precedent stands only when one answer more or fewer, labelled
either way, would not flip it (else the rubric's cap), and a tell the nearest labelled
answers suggest takes the cap grading gives that tag when the rules state it."""

from __future__ import annotations

import json

import pytest

from app.grading.freetext import grader, neighbours, tell_caps
from app.grading.freetext.fitting import Line, evidence_of, line_verdict
from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers); partial by the rules, no tell
TF_PARTIAL = "tf.function compiles the step into a graph."
NONE_PARTIAL = "The gradients are None because the tape did not record the loss."


@pytest.mark.parametrize(
    ("wrong", "answers", "cap"),
    [
        (5, 5, "incorrect"),
        (4, 5, "incorrect"),  # 4/6 and 3/4 still >= 60%
        (3, 5, None),  # one more answer labelled partial: 3/6 = 50%
        (6, 10, None),  # 6/11 < 60%
        (7, 10, "incorrect"),  # 7/11, 6/9, 8/11, 7/9
        (2, 5, None),  # round 24: 40% of five is no sure minority (was partial)
        (25, 49, None),  # numpy-kills-all-gradients on round 16's tune side: round 24, a split
        (0, 7, "partial"),
    ],
)
def test_a_cap_one_answer_can_flip_is_no_precedent(
    wrong: int, answers: int, cap: str | None
) -> None:
    assert tell_caps.stable_cap(wrong, answers) == cap


def test_an_unstable_cap_leaves_the_rubric_cap() -> None:
    precedents = [("training-flag", ("training-flag-is-persistent-mode",), v) for v in "iiipp"]
    names = {"i": "incorrect", "p": "partial"}
    derived = tell_caps.derive((q, t, names[v]) for q, t, v in precedents)
    entry = derived[("training-flag", "training-flag-is-persistent-mode")]
    assert entry == {"answers": 5, "incorrect": 3, "cap": None}
    rubric = question("training-flag").rubric
    caps = tell_caps.caps_from(rubric, {"training-flag-is-persistent-mode": entry})
    assert caps["training-flag-is-persistent-mode"] == "partial"  # its rubric cap


def test_the_shipped_artefact_keeps_the_rubric_cap_where_one_answer_flips_it() -> None:
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    entry = data["questions"]["training-flag"]["tells"]["training-flag-is-persistent-mode"]
    # A straddling precedent (3 of 5 in round 16, 4 of 6 after round 31 joined tune): no cap of
    # its own, so the rubric's stands.
    assert entry["answers"] >= 5
    assert entry["cap"] is None
    assert tell_caps.stable_cap(entry["incorrect"], entry["answers"]) is None
    q = question("training-flag")
    assert tell_caps.shipped_caps(q.id, q.rubric)["training-flag-is-persistent-mode"] == "partial"


def _suggesting(monkeypatch: pytest.MonkeyPatch, tag: str) -> None:
    """The neighbours suggest `tag` for any answer, and the answer's evidence of it is taken
    as read (both are tested elsewhere: round 26's learned_evidence)."""
    monkeypatch.setattr(neighbours, "index_for", lambda q: object())
    monkeypatch.setattr(neighbours, "nearest_tag", lambda *a: tag)
    monkeypatch.setattr(grader, "has_evidence", lambda *a: True)


@pytest.mark.parametrize(
    ("question_id", "text", "tag", "rubric_verdict", "shipped_verdict"),
    [
        # rubric cap incorrect, 57 of 183 labelled incorrect: partial (round 49: was
        # numpy-kills-all-gradients, whose rubric cap is the labellers' partial since; engineer C44)
        ("tf-function-speedup", TF_PARTIAL, "big-models-gain-most", "incorrect", "partial"),
        # rubric cap partial, 49 of 58 labelled incorrect: incorrect
        ("why-none-gradients", NONE_PARTIAL, "must-watch-variables", "partial", "incorrect"),
    ],
)
def test_a_suggested_tell_takes_the_cap_of_a_stated_one(
    monkeypatch: pytest.MonkeyPatch,
    question_id: str,
    text: str,
    tag: str,
    rubric_verdict: str,
    shipped_verdict: str,
) -> None:
    q = question(question_id)
    alone = grade_freetext(q, text, second_opinion=False, neighbours=False)
    assert (alone.verdict, alone.misconceptions) == ("partial", [])
    _suggesting(monkeypatch, tag)
    for caps, verdict in ((False, rubric_verdict), (True, shipped_verdict)):
        result = grade_freetext(q, text, second_opinion=False, neighbours=True, tell_caps=caps)
        assert (result.verdict, result.misconceptions) == (verdict, [tag])
        assert result.details["neighbours"] == tag
        # the evidence read back gives the grader's verdict
        assert line_verdict(q.rubric, evidence_of(q.rubric, result), Line.of(q.rubric)) == verdict
    shipped = grade_freetext(q, text, second_opinion=False, neighbours=True)
    assert shipped.details["caps"] == {tag: shipped_verdict}
