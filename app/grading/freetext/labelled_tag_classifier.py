"""The labelled answers as per-tag classifiers (round 19): training tag_classifier.json,
and the benchmark's readings with a writer (or a final round) left out.

Per question, the features seen in at least `MIN_DF` training answers; per tag with at
least `MIN_SUPPORT` training answers carrying it, a ridge regression of the tag's 0/1
column (numpy, solved exactly, so a build is reproducible). Weights below `KEEP` are
dropped and the rest rounded to `DIGITS`. Per tag, the cut its score must reach (round
21): chosen in `INNER_FOLDS` folds of the training writers, each scored by models trained
without it (`chosen_cuts`).
The web process never imports this module (numpy).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.grading.freetext.grader import has_evidence
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
from app.grading.freetext.tag_classifier import (
    TagModel,
    best_tag,
    cuts_that_apply,
    on_correct,
    scale_of,
    suggested_tag,
)
from app.packs.rubric import Rubric

MIN_DF = 3  # a feature seen in fewer training answers of the question is not read
MIN_SUPPORT = 8  # a tag carried by fewer training answers gets no model
RIDGE = 1.0  # each answer's vector has unit length: one answer's worth of shrinkage
KEEP, DIGITS = 0.05, 3

INNER_FOLDS = 5  # writers, round robin in name order: the folds a question's cut is read in
CUTS = tuple(round(0.5 + 0.05 * i, 2) for i in range(11))  # 0.5 .. 1.0
WRONG_ON_CORRECT = 2  # what a wrong tag costs on an answer labelled correct (else 1)
AGAINST_SHARE = 0.25  # a concept whose answers carry the tag this much of its rate: against it
MARGINS = tuple(
    round(0.05 * i, 2) for i in range(11)
)  # above a tag's cut, on answers graded correct


@dataclass(frozen=True)
class Sample:
    """One labelled training answer: its words, its (rubric) tags, its writer, its label."""

    words: Bag
    tags: tuple[str, ...]
    persona: str = ""
    correct: bool = False
    eligible: bool = True  # the rules graded it below correct and named no tell
    concepts: frozenset[str] = frozenset()  # the concepts the rules credited
    graded_correct: bool = False  # the rules graded it correct, no tell (round 33)


@dataclass(frozen=True)
class Trained:
    """One question's tag models and each tag's cut (None: no cut paid, never named)."""

    models: dict[str, TagModel]
    cuts: Mapping[str, float | None]
    against: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    cuts_on_correct: Mapping[str, float | None] = dataclasses.field(default_factory=dict)


Scored = dict[str, list[tuple[float, int]]]  # tag -> (its score, gain) per answer it tops
Cuts = Mapping[str, float | None]


def train_question(samples: Sequence[Sample], tags: Sequence[str]) -> dict[str, TagModel]:
    """One model per rubric tag (of `tags`) with enough support in `samples`."""
    support = {t: sum(t in s.tags for s in samples) for t in tags}
    chosen = sorted(t for t, n in support.items() if n >= MIN_SUPPORT)
    if not chosen:
        return {}
    df: dict[str, int] = {}
    for sample in samples:
        for w in sample.words:
            df[w] = df.get(w, 0) + 1
    vocab = sorted(w for w, n in df.items() if n >= MIN_DF)
    floor = median_size(samples)
    column = {w: i for i, w in enumerate(vocab)}
    x = np.zeros((len(samples), len(vocab)), dtype=np.float64)
    for i, sample in enumerate(samples):
        words = sample.words
        scale = scale_of(words, floor)
        for w in words:
            if w in column:
                x[i, column[w]] = scale
    y = np.array([[t in s.tags for t in chosen] for s in samples], dtype=np.float64)
    weights, bias = _fit(x, y)
    return {
        t: TagModel(
            round(float(bias[j]), DIGITS),
            {
                vocab[i]: round(float(weights[i, j]), DIGITS)
                for i in range(len(vocab))
                if abs(weights[i, j]) >= KEEP
            },
            floor,
        )
        for j, t in enumerate(chosen)
    }


def median_size(samples: Sequence[Sample]) -> int:
    """The median number of features of the question's training answers (the lower middle
    one): the `floor` of `tag_classifier.scale_of`, learned from the answers, not chosen."""
    sizes = sorted(len(s.words) for s in samples)
    return sizes[(len(sizes) - 1) // 2] if sizes else 0


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ridge regression of the 0/1 tag columns, solved in its dual (n x n: ~0.1 s a
    question, where logistic regression by gradient descent took ~18 s on the shared
    machine, ~3.5 h leave one persona out). The bias is the training rate of the tag."""
    bias = y.mean(axis=0)
    dual = np.linalg.solve(x @ x.T + RIDGE * np.eye(len(x)), y - bias)
    return x.T @ dual, bias


def chosen_cuts(samples: Sequence[Sample], tags: Sequence[str]) -> dict[str, float | None]:
    """Per tag, the cut (of `CUTS`) at which naming it pays most on the answers it may act on
    (`Sample.eligible`): `inner_scores`. Ties go to the higher cut; None when no cut gains (the
    tag is never named)."""
    scored = inner_scores(samples, tags)[0]
    return {tag: best_cut(scored.get(tag, [])) for tag in tags}


def inner_scores(samples: Sequence[Sample], tags: Sequence[str]) -> tuple[Scored, Scored]:
    """Read in `INNER_FOLDS` folds of the writers: each answer the classifier may act on
    (`Sample.eligible`; second: `Sample.graded_correct`) scored by models trained without its
    fold; where the tag is its top tag it counts +1 if the answer carries the tag, -1 if not
    (-`WRONG_ON_CORRECT` on an answer labelled correct)."""
    personas = sorted({s.persona for s in samples})
    fold = {p: i % INNER_FOLDS for i, p in enumerate(personas)}
    below: Scored = {}
    correct: Scored = {}
    for k in range(INNER_FOLDS):
        models = train_question([s for s in samples if fold[s.persona] != k], tags)
        for s in samples:
            if fold[s.persona] != k or not (s.eligible or s.graded_correct):
                continue
            best = best_tag(models, s.words, tags)
            if best is not None and best[1] >= CUTS[0]:
                gain = 1 if best[0] in s.tags else -(WRONG_ON_CORRECT if s.correct else 1)
                (below if s.eligible else correct).setdefault(best[0], []).append((best[1], gain))
    return below, correct


def margin_on_correct(
    readings: Sequence[tuple[Mapping[str, float | None], Scored]],
) -> float | None:
    """The margin (of `MARGINS`) above each tag's cut at which naming tags on answers the rules
    graded correct pays most, pooled over every question's inner folds (`readings`: each
    question's cuts and its `inner_scores` on answers graded correct; round 33). One margin
    for all: too few such answers top any one tag to learn a cut per tag. Ties go to the
    higher margin; None when none gains (never named on an answer graded correct)."""

    def gain(margin: float) -> int:
        total = 0
        for cuts, scored in readings:
            for tag, pairs in scored.items():
                cut = cuts.get(tag)
                if cut is not None:
                    total += sum(g for p, g in pairs if p >= cut + margin)
        return total

    best, margin = max((gain(m), m) for m in MARGINS)
    return margin if best > 0 else None


def best_cut(scored: Sequence[tuple[float, int]]) -> float | None:
    gain, cut = max((sum(g for p, g in scored if p >= cut), cut) for cut in CUTS)
    return cut if gain > 0 else None


def contradicting(samples: Sequence[Sample], tags: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Per tag, the concepts that answers stating it lack: credited by the rules in at
    least `MIN_SUPPORT` training answers, of which at most `AGAINST_SHARE` of the tag's share
    of all the question's answers carry it ("small models gain most" against "large models
    gain the most"). The classifier names no tag against a concept the answer is credited
    with: its words are the tag's, its claim the correction's."""
    out = {}
    for tag in tags:
        base = sum(tag in s.tags for s in samples) / max(1, len(samples))
        credited: dict[str, list[bool]] = {}
        for s in samples:
            for c in s.concepts:
                credited.setdefault(c, []).append(tag in s.tags)
        out[tag] = tuple(
            sorted(
                c
                for c, has in credited.items()
                if len(has) >= MIN_SUPPORT and sum(has) <= AGAINST_SHARE * base * len(has)
            )
        )
    return out


def train(
    samples: Sequence[tuple[str, Sample]], rubrics: Mapping[str, Rubric]
) -> dict[str, Trained]:
    """Per question id: its tag models, cuts and cuts on answers graded correct (each tag's
    cut + the pooled `margin_on_correct`), from (question id, sample) pairs."""
    out = {}
    readings = []
    for qid, rubric in sorted(rubrics.items()):
        mine = [s for q, s in samples if q == qid]
        tags = [m.tag for m in rubric.misconceptions]
        models = train_question(mine, tags)
        below, correct = inner_scores(mine, tags) if models else ({}, {})
        cuts = {tag: best_cut(below.get(tag, [])) for tag in tags} if models else {}
        readings.append((cuts, correct))
        out[qid] = Trained(models, cuts, contradicting(mine, list(models)))
    margin = margin_on_correct(readings)
    return {
        qid: dataclasses.replace(
            trained,
            cuts_on_correct={
                t: None if c is None or margin is None else round(c + margin, 2)
                for t, c in trained.cuts.items()
            },
        )
        for qid, trained in out.items()
    }


def build_artefact() -> dict[str, Any]:
    """The models trained on every labelled tune answer of the core pack's questions."""
    from app.grading.freetext.evaluation import core_labelled, core_rules_rows, free_text_questions

    core = core_labelled()
    questions = free_text_questions(core.pack)
    # the tune rows of the shared reading (graded once per process with the other builds)
    rows = [r for r in core_rules_rows() if r.side == "tune"]
    tune = sorted(
        (r for r in rows if r.question_id in questions),
        key=lambda r: (r.question_id, r.persona, r.source, r.answer),
    )
    samples = [(r.question_id, sample_of(r, bag(r.answer))) for r in tune]
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
        "cuts": {"inner_folds": INNER_FOLDS, "wrong_on_correct": WRONG_ON_CORRECT},
        "questions": {
            qid: {
                "prompt": prompt_key(questions[qid]),
                "tags": {
                    t: {
                        "against": list(trained.against.get(t, ())),
                        "bias": m.bias,
                        "cut": trained.cuts.get(t),
                        "cut_on_correct": trained.cuts_on_correct.get(t),
                        "floor": m.floor,
                        "weights": dict(sorted(m.weights.items())),
                    }
                    for t, m in trained.models.items()
                },
            }
            for qid, trained in models.items()
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
    models = train([(r.question_id, sample_of(r, bags[id(r)])) for r in train_rows], rubrics)

    def by_neighbours(row: Any, words: Bag) -> str | None:
        tells = [m.tag for m in rubrics[row.question_id].misconceptions]
        return nearest_tag(index, row.question_id, words, tells, row.answer)

    def by_classifier(row: Any, words: Bag) -> str | None:
        tells = [m.tag for m in rubrics[row.question_id].misconceptions]
        trained = models.get(row.question_id, Trained({}, {}))
        found = row.evidence.found if row.evidence is not None else frozenset()
        return suggested_tag(
            trained.models, words, tells, row.answer, trained.cuts, trained.against, found
        )

    return {"n": by_neighbours, "c": by_classifier}


ORDERS = {
    "neighbours (today)": "n",
    "classifier alone": "c",
    "neighbours, then classifier": "nc",
    "classifier, then neighbours": "cn",
}


def sample_of(row: Any, words: Bag) -> Sample:
    """A labelled row (evaluation.Row) as a training sample."""
    return Sample(
        words,
        row.expected_tags,
        row.persona,
        row.label == "correct",
        row.evidence is not None and eligible(row.evidence, row.verdict, row.named_tags),
        row.evidence.found if row.evidence is not None else frozenset(),
        row.evidence is not None and on_correct(row.evidence, row.verdict, row.named_tags),
    )


def classified_row(trained: Trained | None, rubric: Rubric, row: Any, words: Bag) -> Any:
    """The row with the classifier's tag where it is eligible and names one (the chain)."""
    if trained is None or not trained.models:
        return row
    if row.evidence is None:
        return row
    cuts = cuts_that_apply(
        row.evidence, row.verdict, row.named_tags, trained.cuts, trained.cuts_on_correct
    )
    if cuts is None:
        return row
    tells = [m.tag for m in rubric.misconceptions]
    found = row.evidence.found
    tag = suggested_tag(trained.models, words, tells, row.answer, cuts, trained.against, found)
    return _suggested(rubric, row, tag)


def _suggested(rubric: Rubric, row: Any, tag: str | None) -> Any:
    tells = {m.tag: m for m in rubric.misconceptions}
    if tag is None or not has_evidence(tells[tag], row.answer):
        return row
    verdict = suggested_verdict(rubric, row.evidence, tells[tag])
    return dataclasses.replace(row, verdict=verdict, named_tags=(tag,))
