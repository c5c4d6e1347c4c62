"""Round 22 (engineer E4): the pure parts of benchmarks/freetext_embedding_tells.py.

The experiment reads a multi-instance tag score over sentence embeddings; these tests hold
its numpy parts and its instance splitting without the scratch folder or a model: the
witness fit finds the one clause that states a tag among clauses that do not, an answer's
score is its best instance's, a cut is chosen as the tag classifier's, and the learned tell
never raises a verdict nor acts where the chain already names a tell or gives no credit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import freetext_embedding_tells as fet

from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _planted(seed: int = 0) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Positive answers: noise clauses plus one clause along `tell`; negatives: noise only."""
    rng = np.random.default_rng(seed)
    dim = 16
    tell = np.zeros(dim)
    tell[0] = 1.0
    noise = lambda n: _unit(rng.normal(size=(n, dim)) * [0.05, *([1.0] * (dim - 1))])  # noqa: E731
    positives = [
        fet.with_bias(np.vstack([noise(3), _unit(tell + 0.2 * rng.normal(size=dim))]))
        for _ in range(20)
    ]
    negatives = [fet.with_bias(noise(4)) for _ in range(60)]
    return positives, negatives, tell


def test_the_witness_fit_scores_the_stating_clause_above_every_other():
    positives, negatives, _ = _planted()
    every = np.vstack([*positives, *negatives])
    weights = fet.fit_tag(fet.gram(every), len(every), positives, penalty=1e-3)
    stating = np.array([p[-1] @ weights for p in positives])
    others = np.concatenate(
        [p[:-1] @ weights for p in positives] + [n @ weights for n in negatives]
    )
    assert stating.min() > others.max()
    pos, neg = fet.bag_scores(weights, positives), fet.bag_scores(weights, negatives)
    assert pos.min() > neg.max()


def test_an_answers_score_is_its_best_instance():
    weights = np.array([1.0, 0.0, 0.0])
    bags = [np.array([[0.1, 0, 1], [0.9, 0, 1]]), np.array([[0.2, 5, 1]])]
    assert fet.bag_scores(weights, bags).tolist() == [0.9, 0.2]


def test_the_top_tag_is_the_highest_score_per_answer():
    scores = {"b": np.array([0.2, 0.9]), "a": np.array([0.5, 0.1])}
    assert fet.top_tags(scores) == [("a", 0.5), ("b", 0.9)]
    assert fet.top_tags({}) == []


def test_the_cut_pays_most_ties_go_higher_and_none_when_nothing_gains():
    scored = [(0.95, 1), (0.85, 1), (0.6, -2), (0.5, 1)]
    assert fet.chosen_cut(scored, (0.5, 0.7, 0.8, 0.9)) == 0.8  # 0.7 and 0.8 both gain 2
    assert fet.chosen_cut([(0.9, -1), (0.6, -2)], (0.5, 0.7)) is None


def test_a_tag_is_named_only_at_its_cut_and_not_against_a_credited_concept():
    models = fet.TagModels(
        {"t": np.array([1.0, 0.0])},
        {"below correct": {"t": 0.5}, "high cut": {"t": None}},
        {"t": ("small-models",)},
    )
    bag = np.array([[0.7, 1.0], [0.1, 1.0]])
    assert models.named(bag, "below correct", frozenset()) == "t"
    assert models.named(bag * [0.5, 1], "below correct", frozenset()) is None
    assert models.named(bag, "high cut", frozenset()) is None
    assert models.named(bag, "below correct", frozenset({"small-models"})) is None


def test_clauses_split_at_semicolons_dashes_and_but_because():
    text = "The tape records the ops; it frees them after one gradient call but you can persist it"
    assert fet.clauses_of(text) == [
        "The tape records the ops",
        "it frees them after one gradient call",
        "but you can persist it",
    ]
    assert fet.clauses_of("Gradients are None because nothing was watched") == [
        "Gradients are None",
        "because nothing was watched",
    ]
    assert fet.clauses_of("A plain sentence with no break.") == []


def test_instances_drop_quoted_spans_and_padding_and_keep_code():
    answer = (
        'People say "you must call tape.watch on every variable" and that is wrong. '
        "Trainable variables are watched automatically.\n\n"
        "```python\nwith tf.GradientTape() as tape:\n    y = model(x)\n```"
    )
    found = fet.instances(answer)
    assert not any("tape.watch on every" in f for f in found)
    assert any(f.endswith("are watched automatically.") for f in found)  # normalised words
    assert any(f.startswith("with tf.GradientTape()") for f in found)
    padded = "The tape records operations. gradient tape watch persistent variable jacobian "
    assert all("jacobian" not in f for f in fet.instances(padded + "loss optimizer apply"))


def test_instances_are_bounded():
    answer = " ".join(f"Sentence number {i} says something here." for i in range(200))
    assert len(fet.instances(answer)) == fet.MAX_INSTANCES


def _row(verdict: str, named: tuple[str, ...] = (), no_credit: bool = False) -> Row:
    evidence = Evidence(frozenset(), 0.5, (), no_credit)
    return Row("q", "p", "tune", "partial", verdict, (), named, 0.0, "a", "s", evidence)


@pytest.mark.parametrize(
    ("row", "variant", "acts"),
    [
        (_row("partial"), "below correct", True),
        (_row("correct"), "below correct", False),
        (_row("correct"), "high cut", True),
        (_row("partial", ("some-tell",)), "high cut", False),
        (_row("partial", no_credit=True), "below correct", False),
    ],
)
def test_it_acts_only_where_the_chain_names_no_tell_and_gives_credit(row, variant, acts):
    assert fet.may_name(row, variant) is acts


def test_a_tag_never_raises_the_verdict():
    assert fet._lower("partial", "correct") == "partial"
    assert fet._lower("correct", "incorrect") == "incorrect"
