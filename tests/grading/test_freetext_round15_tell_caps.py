"""Tell caps read from labelled precedent (round 15, docs/freetext-rounds.md "Round 15: the
verdict line (engineer V)"): per question, a tag's cap is `incorrect` when at least 60% of
the 5+ tune answers labelled with that tag alone are labelled incorrect, else `partial`;
the rubric's own cap where there are fewer."""

from __future__ import annotations

import pytest

from app.grading.freetext import tell_caps
from app.grading.freetext.fitting import Line, evidence_of, line_verdict
from app.grading.freetext.grader import grade_freetext
from tests.grading.artefact_freshness import assert_fresh
from tests.grading.core_questions import question

# written before the caps were derived; states must-watch-variables beside the right cause.
# Round 19 start: without the recording and the fix, since beside a complete answer the tag
# now caps at partial (round 18's cap beside a full core, its precedent grown by round 18's set)
WATCH_VARIABLES = (
    "The loss is computed after the with block closes, so every gradient is None. You also "
    "must call tape.watch on the model's variables, otherwise the tape ignores them."
)
NUMPY_KILLS_ALL = (
    "A numpy operation inside the tape is not recorded, so the chain is broken and every "
    "gradient comes back None, even for the layers after it. Keep the computation in "
    "TensorFlow ops."
)
BIG_MODELS = (
    "tf.function traces the step into a graph, so the Python overhead of running each op "
    "eagerly is gone; large models gain the most."
)


def _labels(question_id: str, tags: tuple[str, ...], verdicts: str) -> list[tell_caps.Precedent]:
    names = {"i": "incorrect", "p": "partial", "c": "correct"}
    return [(question_id, tags, names[v]) for v in verdicts]


def test_cap_is_incorrect_from_four_of_five_incorrect() -> None:
    # round 15 read 3 of 5 as incorrect; since round 16 a cap one answer flips is no
    # precedent (test_freetext_round16_verdict_line.py)
    derived = tell_caps.derive(_labels("q", ("t",), "iiiic"))
    assert derived[("q", "t")] == {"answers": 5, "incorrect": 4, "cap": "incorrect"}


def test_cap_is_partial_below_the_share() -> None:
    # round 24: 2 of 5 ("iippc") is no sure minority any more (the rubric's cap); 1 of 5 is
    assert tell_caps.derive(_labels("q", ("t",), "ipppc"))[("q", "t")]["cap"] == "partial"


def test_too_few_answers_or_a_second_tag_give_no_derived_cap() -> None:
    precedents = _labels("q", ("t",), "iiii") + _labels("q", ("t", "u"), "iiiiii")
    assert tell_caps.derive(precedents) == {}


def test_precedent_is_per_question() -> None:
    derived = tell_caps.derive(_labels("a", ("t",), "iiiii") + _labels("b", ("t",), "ppppp"))
    assert derived[("a", "t")]["cap"] == "incorrect"
    assert derived[("b", "t")]["cap"] == "partial"


def test_caps_from_keeps_the_rubric_cap_without_precedent() -> None:
    rubric = question("why-none-gradients").rubric
    caps = tell_caps.caps_from(rubric, {"must-watch-variables": {"cap": "incorrect"}})
    assert caps["must-watch-variables"] == "incorrect"
    assert caps["loss-outside-is-fine"] == "incorrect"  # its rubric cap
    assert caps["watch-loss-fixes-none"] == "partial"  # its rubric cap


# Round 25: the first reader in a worker grades every labelled answer (core_rules_rows).
@pytest.mark.timeout(1200)
def test_shipped_artefact_is_a_fresh_build() -> None:
    text = tell_caps.ARTEFACT.read_text(encoding="utf-8")
    assert_fresh(
        text, tell_caps.dumps(tell_caps.build_artefact()), f"python -m {tell_caps.__name__} train"
    )


def _graded(question_id: str, text: str, caps: bool) -> tuple[str, list[str], str]:
    q = question(question_id)
    result = grade_freetext(q, text, second_opinion=False, neighbours=False, tell_caps=caps)
    again = line_verdict(q.rubric, evidence_of(q.rubric, result), Line.of(q.rubric))
    return result.verdict, result.misconceptions, again


def test_a_tell_labellers_judge_wrong_caps_at_incorrect() -> None:
    assert _graded("why-none-gradients", WATCH_VARIABLES, False) == (
        "partial",
        ["must-watch-variables"],
        "partial",
    )
    assert _graded("why-none-gradients", WATCH_VARIABLES, True) == (
        "incorrect",
        ["must-watch-variables"],
        "incorrect",  # the evidence read back gives the grader's verdict
    )


def test_a_tell_labellers_judge_half_right_caps_at_partial() -> None:
    # Round 49 (engineer C44): numpy-kills-all-gradients, this test's example until then, has the
    # labellers' `partial` as its rubric cap too; big-models-gain-most (rubric `incorrect`, 57 of
    # 183 labelled incorrect) is the example now.
    assert _graded("tf-function-speedup", BIG_MODELS, False)[0] == "incorrect"
    assert _graded("tf-function-speedup", BIG_MODELS, True) == (
        "partial",
        ["big-models-gain-most"],
        "partial",
    )


def test_a_rubric_cap_that_agrees_with_the_labellers_is_the_cap_either_way() -> None:
    for caps in (False, True):
        assert _graded("numpy-inside-tape", NUMPY_KILLS_ALL, caps) == (
            "partial",
            ["numpy-kills-all-gradients"],
            "partial",
        )


def test_an_edited_rubric_gets_its_own_caps() -> None:
    q = question("why-none-gradients")
    assert tell_caps.shipped_caps(q.id, q.rubric)["must-watch-variables"] == "incorrect"
    other = q.rubric.model_copy(update={"model_answer": q.rubric.model_answer + " (edited)"})
    assert tell_caps.shipped_caps(q.id, other)["must-watch-variables"] == "partial"
    assert tell_caps.shipped_caps("no-such-question", q.rubric)["must-watch-variables"] == "partial"
