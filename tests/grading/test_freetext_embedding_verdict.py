"""benchmarks/freetext_embedding_verdict.py (round 21, E): its numpy parts, no model needed.

The experiment's embedding needs TensorFlow and a scratch folder; what decides its figures
does not: where the learned verdict may move an answer, the bounded moves, and the ridge
classifier whose penalty is picked inside the training rows.
"""

from __future__ import annotations

import sys

import numpy as np

from app.config import REPO_ROOT
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import freetext_embedding_verdict as ev


def _row(verdict: str, tags: tuple[str, ...] = (), no_credit: bool = False) -> Row:
    evidence = Evidence(frozenset({"records"}), 0.5, ("partial",) * len(tags), no_credit)
    return Row("q", "p", "tune", "correct", verdict, (), tags, 0.0, "text", "src", evidence)


def test_never_moves_an_answer_that_names_a_tell_or_earns_no_credit() -> None:
    assert ev.may_move(_row("partial"))
    assert not ev.may_move(_row("partial", ("persistent-forever",)))
    assert not ev.may_move(_row("partial", no_credit=True))
    named, clean = _row("incorrect", ("persistent-forever",)), _row("partial")
    versions = ev.variants(
        [named, clean],
        {id(named): named, id(clean): clean},
        {id(named): "correct", id(clean): "correct"},
        {id(named): "correct", id(clean): "correct"},
        {id(named): 0.99, id(clean): 0.99},
    )
    assert versions["chain + emb decides"][id(named)].verdict == "incorrect"
    assert versions["chain + emb decides"][id(clean)].verdict == "correct"
    chained = [v for k, v in versions.items() if k.startswith(("chain + ", "bounded"))]
    assert len(chained) == 3 and all(v[id(named)].verdict == "incorrect" for v in chained)


def test_bounded_moves_are_the_shipped_second_opinions() -> None:
    assert ev.bounded("partial", "correct") == "correct"
    assert ev.bounded("correct", "partial") == "partial"
    assert ev.bounded("partial", "incorrect") == "incorrect"
    assert ev.bounded("incorrect", "correct") == "incorrect"
    assert ev.bounded("incorrect", "partial") == "incorrect"
    assert ev.bounded("correct", "incorrect") == "correct"


def test_ridge_picks_its_penalty_inside_the_training_rows_and_separates_verdicts() -> None:
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 60)
    x = rng.normal(size=(180, 20))
    x[:, 0] += 3 * (y == 1)  # class centres apart in two columns (a ridge on one-hot
    x[:, 1] += 3 * (y == 2)  # targets cannot place a middle class on a single column)
    groups = [f"persona-{i % 9}" for i in range(180)]
    model = ev.fit(x, y, groups)
    assert model.penalty in ev.PENALTIES
    assert (model.scores(x).argmax(1) == y).mean() > 0.8


def test_logistic_places_a_middle_verdict_on_one_column() -> None:
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 60)
    x = rng.normal(size=(180, 5))
    x[:, 0] += 4 * y  # incorrect < partial < correct along one column
    groups = [f"persona-{i % 9}" for i in range(180)]
    model = ev.fit(x, y, groups, ev.FITTERS["logistic"])
    assert (model.scores(x).argmax(1) == 1).sum() > 40
