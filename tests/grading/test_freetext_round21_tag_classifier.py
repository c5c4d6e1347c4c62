"""Round 21 (issue 14, engineer N): the per-tag classifier's bounds (tag_classifier.py).

Each tag's cut is learned in folds of the training writers (None: it never paid, the tag is
never named); a tag is not named against a concept the rules credit that answers stating it
lack; the words that carry it count only where the answer's own prose states them, not in
code and not inside double quotes (docs/freetext-rounds.md "Round 21: the tag classifier, on").
"""

from __future__ import annotations

import json

from app.grading.freetext import chain, grade_freetext
from app.grading.freetext import labelled_tag_classifier as ltc
from app.grading.freetext import neighbours as nb
from app.grading.freetext import tag_classifier as tc
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

MODELS = {"resets": tc.TagModel(0.0, {"optimizer": 0.4, "reset": 2.0, "optimizer|reset": 0.5})}
SAID = "The optimizer resets the gradients after each step for you."


def _named(text: str, **kwargs: object) -> str | None:
    return tc.suggested_tag(MODELS, nb.bag(text), ["resets"], text, **kwargs)  # type: ignore[arg-type]


def test_a_tag_scoring_below_its_own_cut_names_nothing() -> None:
    score = tc.best_tag(MODELS, nb.bag(SAID), ["resets"])
    assert score is not None
    assert _named(SAID, cuts={"resets": score[1] - 0.01}) == "resets"
    assert _named(SAID, cuts={"resets": score[1] + 0.01}) is None


def test_a_tag_whose_cut_never_paid_is_never_named() -> None:
    assert _named(SAID, cuts={"resets": None}) is None
    assert _named(SAID, cuts={"other": None}) == "resets"  # no cut of its own: THRESHOLD


def test_a_tag_is_not_named_against_a_credited_concept() -> None:
    against = {"resets": ["fresh-gradients"]}
    assert _named(SAID, against=against, found=["fresh-gradients"]) is None
    assert _named(SAID, against=against, found=["other"]) == "resets"


def test_carrying_words_only_in_code_are_not_stated() -> None:
    code = "```python\nopt.reset(optimizer)\noptimizer.reset()\n```"
    assert tc.in_own_prose(code, ["reset"]) == {"reset": False}
    assert not tc.reads_as_stated(code, ["reset", "optimizer"])
    assert tc.reads_as_stated(SAID, ["reset", "optimizer"])


def test_carrying_words_only_inside_quotes_are_mentioned() -> None:
    text = '"The optimizer resets the gradients" is wrong: each tape returns fresh ones.'
    assert tc.in_own_prose(text, ["reset"]) == {"reset": False}
    assert _named(text) is None
    assert _named(SAID) == "resets"


def _samples(wrong_score_words: str) -> list[ltc.Sample]:
    """Twelve writers: four state the tag, four say something near it that is true."""
    out = []
    for i in range(12):
        persona = f"writer-{i}"
        out += [ltc.Sample(nb.bag(f"{SAID} case {i}"), ("resets",), persona)]
        out += [ltc.Sample(nb.bag(f"each tape returns fresh gradients {i}"), (), persona)]
        text = f"{wrong_score_words} {i}"
        out += [ltc.Sample(nb.bag(text), (), persona, correct=True)]
    return out


def test_a_cut_is_learned_in_folds_of_the_writers() -> None:
    assert ltc.chosen_cuts(_samples("nothing about it"), ["resets"])["resets"] is not None
    never = ltc.chosen_cuts(_samples("the optimizer never resets gradients"), ["resets", "x"])
    assert never["x"] is None  # no answer's top tag: never named


def test_the_cut_is_the_highest_that_pays_most() -> None:
    # (score, gain): two right, a wrong one on a correct answer (-2), a wrong one (-1)
    scored = [(0.9, 1), (0.7, 1), (0.6, -2), (0.55, -1)]
    assert ltc.best_cut(scored) == 0.7
    assert ltc.best_cut([(0.8, -1), (0.6, -2)]) is None


def test_a_concept_the_tag_s_answers_lack_is_against_it() -> None:
    stated = [ltc.Sample({}, ("t",), concepts=frozenset({"a"})) for _ in range(10)]
    right = [ltc.Sample({}, (), concepts=frozenset({"a", "b"})) for _ in range(10)]
    assert ltc.contradicting([*stated, *right], ["t"]) == {"t": ("b",)}


def test_the_artefact_stores_each_tag_s_cut_and_the_concepts_against_it() -> None:
    data = json.loads(tc.ARTEFACT.read_text(encoding="utf-8"))
    for stored in data["questions"].values():
        for model in stored["tags"].values():
            assert "cut" in model and isinstance(model["against"], list)
    models, cuts, against, _ = tc.models_for(question("tf-function-speedup"))
    assert set(cuts) == set(models) == set(against)


def test_an_artefact_from_before_round_21_reads_the_fixed_threshold() -> None:
    old = {"t": {"bias": 0.1, "weights": {"w": 1}}}
    assert tc.cuts_of(old) == {} and tc.against_of(old) == {}
    assert tc.cuts_of({"t": {"cut": None}, "u": {"cut": 0.6}}) == {"t": None, "u": 0.6}


def test_a_reading_without_the_neighbours_reads_no_learned_tell() -> None:
    """`neighbours=False` (the rules alone, in tests and the benchmark) leaves the classifier
    out too, whatever the setting says."""
    q = question("training-flag")
    text = "You pass training=True so that the tape records gradients; nothing is differentiated."
    alone = grade_freetext(q, text, neighbours=False, second_opinion=False)
    assert "tag_classifier" not in alone.details


def _chain_rows() -> list[Row]:
    """Twelve writers on one question: each states `needs-zero-grad` once (labelled, graded
    partial by the rules with no tell) and writes one true answer."""
    qid, rubric = "no-zero-grad", question("no-zero-grad").rubric
    evidence = Evidence.read(rubric, [], [], False)
    rows = []
    for i in range(12):
        said = f"You must call zero_grad to clear the old gradients every step, writer {i}."
        rows.append(
            Row(qid, f"w{i}", "tune", "incorrect", "partial", ("needs-zero-grad",), (), 0.0,
                said, "x.yaml", evidence)
        )  # fmt: skip
        rows.append(
            Row(qid, f"w{i}", "tune", "partial", "partial", (), (), 0.0,
                f"Each tape returns fresh gradients, writer {i}.", "x.yaml", evidence)
        )  # fmt: skip
    return rows


def test_the_chain_has_the_classifier_where_the_setting_does() -> None:
    rows = _chain_rows()
    rubrics = {"no-zero-grad": question("no-zero-grad").rubric}
    off = chain.chain_rows(rows, chain.prepare(rows, rubrics), chain.by_persona)
    on = chain.chain_rows(rows, chain.prepare(rows, rubrics, classifier=True), chain.by_persona)
    stated = [r for r in rows if r.expected_tags]
    assert all(off[id(r)].named_tags == () for r in stated)
    assert all(on[id(r)].named_tags == ("needs-zero-grad",) for r in stated)
    assert all(on[id(r)].named_tags == () for r in rows if not r.expected_tags)
