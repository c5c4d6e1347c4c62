"""The labelled answers as per-tag classifiers (round 19): training tag_classifier.json,
and the benchmark's readings with a writer (or a final round) left out.

Per question, the features seen in at least `MIN_DF` training answers; per tag with at
least `MIN_SUPPORT` training answers carrying it, a ridge regression of the tag's 0/1
column (numpy, solved exactly, so a build is reproducible). Weights below `KEEP` are
dropped and the rest rounded to `DIGITS`.
The web process never imports this module (numpy).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from app.grading.freetext.neighbours import (
    Bag,
    Entry,
    bag,
    build_index,
    eligible,
    nearest_tag,
    prompt_key,
    suggested_verdict,
)
from app.grading.freetext.tag_classifier import THRESHOLD, TagModel, suggested_tag
from app.packs.rubric import Rubric
from app.packs.schema import FreeText

MIN_DF = 3  # a feature seen in fewer training answers of the question is not read
MIN_SUPPORT = 8  # a tag carried by fewer training answers gets no model
RIDGE = 1.0  # each answer's vector has unit length: one answer's worth of shrinkage
KEEP, DIGITS = 0.05, 3

Sample = tuple[Bag, tuple[str, ...]]  # an answer's words and its (rubric) tags


def train_question(samples: Sequence[Sample], tags: Sequence[str]) -> dict[str, TagModel]:
    """One model per rubric tag (of `tags`) with enough support in `samples`."""
    support = {t: sum(t in s[1] for s in samples) for t in tags}
    chosen = sorted(t for t, n in support.items() if n >= MIN_SUPPORT)
    if not chosen:
        return {}
    df: dict[str, int] = {}
    for words, _ in samples:
        for w in words:
            df[w] = df.get(w, 0) + 1
    vocab = sorted(w for w, n in df.items() if n >= MIN_DF)
    column = {w: i for i, w in enumerate(vocab)}
    x = np.zeros((len(samples), len(vocab)), dtype=np.float64)
    for i, (words, _) in enumerate(samples):
        scale = 1.0 / np.sqrt(len(words)) if words else 0.0
        for w in words:
            if w in column:
                x[i, column[w]] = scale
    y = np.array([[t in s[1] for t in chosen] for s in samples], dtype=np.float64)
    weights, bias = _fit(x, y)
    return {
        t: TagModel(
            round(float(bias[j]), DIGITS),
            {
                vocab[i]: round(float(weights[i, j]), DIGITS)
                for i in range(len(vocab))
                if abs(weights[i, j]) >= KEEP
            },
        )
        for j, t in enumerate(chosen)
    }


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ridge regression of the 0/1 tag columns, solved in its dual (n x n: ~0.1 s a
    question, where logistic regression by gradient descent took ~18 s on the shared
    machine, ~3.5 h leave one persona out). The bias is the training rate of the tag."""
    bias = y.mean(axis=0)
    dual = np.linalg.solve(x @ x.T + RIDGE * np.eye(len(x)), y - bias)
    return x.T @ dual, bias


def train(
    samples: Sequence[tuple[str, Bag, tuple[str, ...]]], rubrics: Mapping[str, Rubric]
) -> dict[str, dict[str, TagModel]]:
    """Per question id: its tag models, from (question id, words, tags) samples."""
    return {
        qid: train_question(
            [(w, t) for q, w, t in samples if q == qid], [m.tag for m in rubric.misconceptions]
        )
        for qid, rubric in sorted(rubrics.items())
    }


def build_artefact() -> dict[str, Any]:
    """The models trained on every labelled tune answer of the core pack's questions."""
    from app.grading.freetext.evaluation import core_labelled, mapped_tags

    core = core_labelled()
    questions = {
        q.question.id: q.question for q in core.pack.questions if isinstance(q.question, FreeText)
    }
    tune = sorted(
        (a for a in core.answers if core.sides.side(a.persona or "original") == "tune"),
        key=lambda a: (a.question_id, a.persona, a.source, a.answer),
    )
    samples = [
        (a.question_id, bag(a.answer), mapped_tags(core.tag_map, a.question_id, a.misconceptions))
        for a in tune
        if a.question_id in questions
    ]
    models = train(samples, {q: v.rubric for q, v in questions.items()})
    return {
        "about": "issue 14 round 19 tag classifier; "
        "python -m app.grading.freetext.tag_classifier train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({a.persona or "original" for a in tune}),
            "answers": len(samples),
        },
        "min_df": MIN_DF,
        "min_support": MIN_SUPPORT,
        "threshold": THRESHOLD,
        "questions": {
            qid: {
                "prompt": prompt_key(questions[qid]),
                "tags": {
                    t: {"bias": m.bias, "weights": dict(sorted(m.weights.items()))}
                    for t, m in tagged.items()
                },
            }
            for qid, tagged in models.items()
        },
    }


def dumps(artefact: dict[str, Any]) -> str:
    return json.dumps(artefact, sort_keys=True, indent=0) + "\n"


# -- the benchmark's readings ------------------------------------------------------------

Suggest = Callable[[Any, Bag], str | None]  # (row, words) -> a tag, or None


def folds_by_persona(rows: Sequence[Any]) -> dict[str, str]:
    return {r.persona: r.persona for r in rows if r.side == "tune"}


def left_out_readings(
    rows: Sequence[Any], rubrics: Mapping[str, Rubric], folds: Mapping[str, str]
) -> dict[str, list[Any]]:
    """Tune rows read with their fold (`folds`: persona -> fold) left out of training,
    rules alone -> with: "neighbours", "classifier", "neighbours, then classifier" (where
    neighbours is silent), "classifier, then neighbours". Rows of no fold stay as graded."""
    bags = {id(r): bag(r.answer) for r in rows}
    out: dict[str, dict[int, Any]] = {name: {} for name in ORDERS}
    for fold in sorted(set(folds.values())):
        train_rows = [r for r in rows if r.side == "tune" and folds.get(r.persona) != fold]
        suggesters = _suggesters(train_rows, rubrics, bags)
        for row in (r for r in rows if folds.get(r.persona) == fold):
            if row.evidence is None or not eligible(row.evidence, row.verdict, row.named_tags):
                continue
            found = {s: suggest(row, bags[id(row)]) for s, suggest in suggesters.items()}
            for name, order in ORDERS.items():
                tag = next((found[s] for s in order if found[s] is not None), None)
                out[name][id(row)] = _suggested(rubrics[row.question_id], row, tag)
    return {name: [got.get(id(r), r) for r in rows] for name, got in out.items()}


def _suggesters(
    train_rows: Sequence[Any], rubrics: Mapping[str, Rubric], bags: Mapping[int, Bag]
) -> dict[str, Suggest]:
    """The neighbours' vote ("n") and the classifier ("c"), trained on `train_rows`."""
    index = build_index(
        [Entry(r.question_id, bags[id(r)], r.expected_tags, r.answer, r.persona)
         for r in train_rows]
    )  # fmt: skip
    models = train([(r.question_id, bags[id(r)], r.expected_tags) for r in train_rows], rubrics)

    def by_neighbours(row: Any, words: Bag) -> str | None:
        tells = [m.tag for m in rubrics[row.question_id].misconceptions]
        return nearest_tag(index, row.question_id, words, tells, row.answer)

    def by_classifier(row: Any, words: Bag) -> str | None:
        tells = [m.tag for m in rubrics[row.question_id].misconceptions]
        return suggested_tag(models.get(row.question_id, {}), words, tells, row.answer)

    return {"n": by_neighbours, "c": by_classifier}


ORDERS = {
    "neighbours (today)": "n",
    "classifier alone": "c",
    "neighbours, then classifier": "nc",
    "classifier, then neighbours": "cn",
}


def _suggested(rubric: Rubric, row: Any, tag: str | None) -> Any:
    if tag is None:
        return row
    tells = {m.tag: m for m in rubric.misconceptions}
    verdict = suggested_verdict(rubric, row.evidence, tells[tag])
    return dataclasses.replace(row, verdict=verdict, named_tags=(tag,))
