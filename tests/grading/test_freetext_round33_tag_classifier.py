"""Round 33 (issue 14, engineer L3): the tag classifier's scale floor and its reading of
answers the rules graded correct (tag_classifier.py, labelled_tag_classifier.py).

A one-sentence answer spread at unit length gave each of its few words two or three times
the value a typical training answer did, and the classifier named tells on held true
statements in the tag's own words; a question's answers now share a floor (the median
feature count of its training answers). Answers graded correct with no tell may be read too,
at each tag's cut plus one margin learned in the inner folds (docs/freetext-rounds.md
"Round 33: the tag classifier on answers graded correct (engineer L3)").
"""

from __future__ import annotations

import math

from app.grading.freetext import labelled_tag_classifier as ltc
from app.grading.freetext import neighbours as nb
from app.grading.freetext import tag_classifier as tc
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

TAG = "optimizer-clears-grads"
WEIGHTS = {"optimizer": 0.4, "reset": 2.0, "optimizer|reset": 0.5}
SAID = "The optimizer resets the gradients after each step for you."


def test_a_short_answer_is_spread_over_the_floor() -> None:
    words = nb.bag(SAID)
    assert tc.scale_of(words) == 1 / math.sqrt(len(words))
    assert tc.scale_of(words, 4 * len(words)) == 1 / math.sqrt(4 * len(words))
    assert tc.scale_of(words, 1) == tc.scale_of(words)  # a long answer: unit length as before
    assert tc.scale_of(frozenset(), 50) == 0.0


def test_a_floor_lowers_a_short_answer_s_score_toward_the_base_rate() -> None:
    words = nb.bag(SAID)
    plain = tc.best_tag({TAG: tc.TagModel(0.2, WEIGHTS)}, words, [TAG])
    floored = tc.best_tag({TAG: tc.TagModel(0.2, WEIGHTS, 4 * len(words))}, words, [TAG])
    assert plain is not None and floored is not None
    assert 0.2 < floored[1] < plain[1]
    assert math.isclose(floored[1] - 0.2, (plain[1] - 0.2) / 2)


def test_the_floor_is_the_median_feature_count_and_is_stored() -> None:
    samples = [ltc.Sample(frozenset(str(i) for i in range(n)), ()) for n in (3, 5, 40, 41)]
    assert ltc.median_size(samples) == 5
    assert ltc.median_size([]) == 0
    stored = {TAG: {"bias": 0.1, "weights": {"w": 1.0}, "floor": 30}}
    assert tc.models_of(stored)[TAG].floor == 30
    assert tc.models_of({TAG: {"bias": 0.1, "weights": {}}})[TAG].floor == 0  # before round 33


def test_training_shares_the_question_s_floor() -> None:
    samples = [
        ltc.Sample(nb.bag(f"{SAID} writer {i} {'and more words ' * i}"), (TAG,) * (i % 2), f"w{i}")
        for i in range(24)
    ]
    models = ltc.train_question(samples, [TAG])
    assert models[TAG].floor == ltc.median_size(samples) > 0


def _evidence(**changes: object) -> Evidence:
    import dataclasses

    base = Evidence.read(question("no-zero-grad").rubric, [], [], False)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_answers_graded_correct_are_read_only_without_a_tell_or_a_keyword_list() -> None:
    assert tc.on_correct(_evidence(), "correct", [])
    assert not tc.on_correct(_evidence(), "correct", ["needs-zero-grad"])
    assert not tc.on_correct(_evidence(), "partial", [])
    assert not tc.on_correct(_evidence(no_credit=True), "correct", [])


def test_the_margin_on_correct_answers_is_learned_pooled_over_questions() -> None:
    # question one: the tag tops two correct-graded answers, one carries it (+1), one is
    # labelled correct (-2); question two: one more that carries it, scoring high
    one = ({"t": 0.6}, {"t": [(0.62, -2), (0.9, 1)]})
    two = ({"u": 0.5}, {"u": [(0.8, 1)]})
    assert ltc.margin_on_correct([one, two]) == 0.3  # the highest margin that pays most
    assert ltc.margin_on_correct([({"t": 0.6}, {"t": [(0.9, -2)]})]) is None
    assert ltc.margin_on_correct([({"t": None}, {"t": [(0.9, 1)]})]) is None  # never named


def _row(verdict: str, evidence: Evidence) -> Row:
    return Row(
        "no-zero-grad", "w", "tune", "partial", verdict, (TAG,), (), 0.0, SAID, "x", evidence
    )


def test_an_answer_graded_correct_is_named_only_at_its_cut_on_correct_answers() -> None:
    rubric = question("no-zero-grad").rubric
    models = {TAG: tc.TagModel(0.0, WEIGHTS)}
    score = tc.best_tag(models, nb.bag(SAID), [TAG])
    assert score is not None
    below_cut = {TAG: score[1] - 0.05}
    words = nb.bag(SAID)
    for on_correct, named in ((None, ()), (score[1] + 0.05, ()), (score[1] - 0.01, (TAG,))):
        trained = ltc.Trained(models, below_cut, {}, {TAG: on_correct})
        got = ltc.classified_row(trained, rubric, _row("correct", _evidence()), words)
        assert got.named_tags == named
    trained = ltc.Trained(models, below_cut, {}, {TAG: 0.0})
    salad = ltc.classified_row(trained, rubric, _row("correct", _evidence(no_credit=True)), words)
    assert salad.named_tags == ()


def test_an_artefact_without_cuts_on_correct_answers_names_none_there() -> None:
    stored = {TAG: {"bias": 0.1, "weights": {}, "cut": 0.6}}
    assert tc.cuts_of(stored, "cut_on_correct") == {TAG: None}
    assert tc.cuts_of({TAG: {"cut": 0.6, "cut_on_correct": 0.8}}, "cut_on_correct") == {TAG: 0.8}
    assert tc.cuts_of(stored) == {TAG: 0.6}
