"""Role synonyms learned from near-misses (round 49, engineer G2): claims.clause_role_spans and
benchmarks/freetext_role_synonyms.py's near-miss, bars, reading and naming, on made-up statements
and rows."""

from __future__ import annotations

import dataclasses

import pytest

from app.grading.freetext.claims import clause_role_spans, parse_claim
from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.normalise import normalise
from tests.grading.benchmark_scripts import load_benchmark

frs = load_benchmark("freetext_role_synonyms.py", "freetext_role_synonyms")

CLAIM = r"(zero|reset)\w* & gradients? & optimizer"
ROLES = (r"(zero|reset)\w*", "gradients?", "optimizer")
CLAIMS = [("t", CLAIM, ROLES)]
SLOT = (ROLES[0], "obliterate")
STAND_IN = {ROLES[0]: "reset"}
QUESTION = "gradient-accumulation"
TAG = "tape-accumulates"
EVIDENCE = Evidence(frozenset({"x"}), 0.5, (), False)


def _row(source: str, *, label: str = "partial", verdict: str = "partial",
         persona: str = "p", named: tuple[str, ...] = ()) -> Row:  # fmt: skip
    return Row(QUESTION, persona, "tune", label, verdict, (TAG,), named, 0.0, "text", source,
               EVIDENCE)  # fmt: skip


def test_clause_role_spans_say_where_each_role_matched() -> None:
    text = "The optimizer obliterates the gradients, but then it resets the optimizer state."
    (first, spans), (second, more) = clause_role_spans(text, parse_claim(CLAIM))
    assert spans[0] is None
    assert text[slice(*spans[1])] == "gradients" and text[slice(*spans[2])] == "optimizer"
    assert text[slice(*first)].startswith("The optimizer") and second[0] > first[1]
    assert more[1] is None and text[slice(*more[0])] == "resets"


def test_clause_role_spans_take_no_word_twice() -> None:
    claim = parse_claim("gradients? & gradients?")
    [(_, spans)] = clause_role_spans("the gradients are summed", claim)
    assert spans[1] is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("the optimizer obliterates the gradients", ["obliterates"]),  # between the others
        ("the optimizer will simply wipe out all gradients", ["wipe"]),  # stop words dropped
        ("gradients the optimizer", []),  # nothing stands there
        ("optimizer gradients said by some dreadful large old engine", []),  # no place
    ],
)
def test_gap_words_stand_where_the_missing_role_would(text: str, words: list[str]) -> None:
    [(clause, spans)] = clause_role_spans(text, parse_claim(CLAIM))
    assert frs.gap_words(text, clause, spans, ROLES) == words


def test_near_misses_learn_the_missing_roles_word_from_the_lemma_twin() -> None:
    stated = normalise("The optimizer obliterated the gradients.")
    assert frs.near_misses(stated, CLAIMS, ["t"]) == {("t", SLOT)}
    assert frs.near_misses(stated, CLAIMS, []) == set()  # not labelled with the tag
    asked = normalise("Does the optimizer obliterate gradients?")
    assert frs.near_misses(asked, CLAIMS, ["t"]) == set()  # a question is no near-miss


def test_substituted_reads_the_synonym_as_its_roles_word() -> None:
    read = frs.substituted(
        normalise("The optimizer obliterated the gradients."), "obliterate", "reset"
    )
    [unit] = read.units
    assert "reset" in unit.lemmas.split() and "obliterate" not in unit.lemmas
    assert frs.substituted(normalise("Obliterates."), "obliterate", "reset").units[0].text == (
        "Obliterates."  # whole words only
    )


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        ("The optimizer obliterates the gradients after each step.", True),
        ("The optimizer resets the gradients after each step.", False),  # no synonym needed
        ("The optimizer does not obliterate the gradients.", False),  # a denial
        ("Does the optimizer obliterate the gradients?", False),  # a question
        ("If the optimizer obliterated the gradients, we would be fine.", False),  # hypothetical
        ("In PyTorch the optimizer obliterates the gradients.", False),  # another framework
        ("The gradients are kept.", False),  # no claim at all
    ],
)
def test_completions_read_through_the_rules_polarity(answer: str, found: bool) -> None:
    assert (frs.completions(normalise(answer), CLAIMS, {SLOT}, STAND_IN) == {("t", SLOT)}) is found


def test_completions_gain_nothing_from_keyword_padding() -> None:
    # the same words as a run of terms (signals.without_padding) state nothing
    salad = "optimizer obliterate gradients tape persistent watch apply variables graph session"
    padded = f"The tape is fine; {salad} eager keras."
    assert frs.completions(normalise(padded), CLAIMS, {SLOT}, STAND_IN) == set()
    stated = "The tape is fine; the optimizer will obliterate the gradients."
    assert frs.completions(normalise(stated), CLAIMS, {SLOT}, STAND_IN) == {("t", SLOT)}


def _found(misses: dict, completed: dict):  # type: ignore[no-untyped-def]
    return frs.Found(misses, completed)


def test_kept_slots_need_two_rounds_and_none_on_correct() -> None:
    rounds = {"a": "final_r1", "b": "final_r2", "c": "final_r2"}
    rows = [_row("1", persona="a"), _row("2", persona="b"), _row("3", persona="c")]
    misses = {"1": {("t", SLOT)}, "2": {("t", SLOT)}, "3": {("t", ("x", "y"))}}
    found = _found(misses, {})
    assert frs.kept_slots(rows, found, rounds, lambda r: True) == {SLOT: 2}
    # trained without round two: one round left
    assert frs.kept_slots(rows, found, rounds, lambda r: r.persona == "a") == {}
    # completing a claim on a training answer labelled correct drops it
    correct = _row("4", label="correct", persona="z")
    dropped = _found(misses, {"4": {("t", SLOT)}})
    assert frs.kept_slots([*rows, correct], dropped, rounds, lambda r: True) == {}
    # ... unless that answer is the fold's (not trained on)
    assert frs.kept_slots([*rows, correct], dropped, rounds, lambda r: r.source != "4") == {SLOT: 2}


@pytest.fixture(scope="module")
def rubric():  # type: ignore[no-untyped-def]
    return free_text_rubrics(core_labelled().pack)[QUESTION]


def test_named_takes_the_cap_and_never_raises(rubric) -> None:  # type: ignore[no-untyped-def]
    found = _found({}, {"a": {(TAG, SLOT)}, "b": {(TAG, SLOT)}, "c": {(TAG, SLOT)}})
    kept = {SLOT: 2}
    partial = frs.named(_row("a"), rubric, found, kept, "below")
    assert (partial.verdict, partial.named_tags) == ("incorrect", (TAG,))
    graded_correct = _row("c", verdict="correct")
    assert frs.named(graded_correct, rubric, found, kept, "below") == graded_correct
    assert frs.named(graded_correct, rubric, found, kept, "all").verdict == "incorrect"
    low = _row("b", verdict="incorrect")
    assert frs.named(low, rubric, found, kept, "all").verdict == "incorrect"
    assert frs.named(_row("a"), rubric, found, {}, "all") == _row("a")  # no slot kept
    already = _row("a", named=(TAG,))
    assert frs.named(already, rubric, found, kept, "all") == already


def test_named_needs_some_credit(rubric) -> None:  # type: ignore[no-untyped-def]
    found = _found({}, {"a": {(TAG, SLOT)}})
    none = dataclasses.replace(_row("a"), evidence=dataclasses.replace(EVIDENCE, no_credit=True))
    assert frs.named(none, rubric, found, {SLOT: 2}, "all") == none


def test_whole_claims_only_forgets_a_claim_loosened_before() -> None:
    two_roles = normalise("The optimizer touches the gradients.")
    assert frs.states("t", CLAIM, two_roles)  # one of three roles spared, as learned parts read
    with frs.whole_claims_only():
        assert not frs.states("t", CLAIM, two_roles)  # not the remembered loose reading
    assert frs.states("t", CLAIM, two_roles)


def test_stand_ins_take_a_word_the_role_reads_in_an_answer_to_its_question() -> None:
    rows = [_row("x"), _row("y")]
    read = {"x": normalise("Nothing here."), "y": normalise("The gradients are reset.")}
    claims = {QUESTION: CLAIMS, "other": [("u", "optimizer & slots?", ("optimizer", "slots?"))]}
    assert frs.stand_ins(claims, read, rows, [ROLES[0], "slots?"]) == {ROLES[0]: "reset"}


def test_completions_need_a_stand_in() -> None:
    answer = normalise("The optimizer obliterates the gradients after each step.")
    assert frs.completions(answer, CLAIMS, {SLOT}, {}) == set()
