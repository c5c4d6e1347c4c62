"""The whole shipped chain read as a fresh set meets it (issue 14, round 19).

Grading is the rules, then what is learned from the labelled tune answers: the neighbours'
tell (neighbours.py), the per-tag classifier's tell where the setting has it on
(tag_classifier.py, round 21), tell caps from precedent (tell_caps.py, with round 18's cap
beside a complete answer) and the second opinion (second_opinion.py). Each has its own
leave-one-persona-out reading in benchmarks/freetext.py, but a fresh set meets them all at
once, each learned without it. This module reads the chain that way: the tune rows are split
into folds (one per persona, or one per earlier final set: four unseen voices together), and
each fold is graded with all three learned from the other tune rows only; held-out rows with
all three learned from every tune row. Until round 19 this reading was a one-off script
outside the repository (docs/freetext-rounds.md, "Round 18: the partial line (engineer V)").

The web process never imports it: it works on graded labelled rows (`evaluation.Row`, rules
as written) and is run by `benchmarks/freetext.py --chain`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from app.grading.freetext import embedding_verdict as ev
from app.grading.freetext import second_opinion as so
from app.grading.freetext import tell_caps
from app.grading.freetext.evaluation import Row, figures
from app.grading.freetext.fitting import Line, line_verdict
from app.grading.freetext.labelled_neighbours import _suggested_row
from app.grading.freetext.labelled_tag_classifier import (
    Trained,
    classified_row,
    sample_of,
)
from app.grading.freetext.labelled_tag_classifier import train as train_classifier
from app.grading.freetext.neighbours import Bag, Entry, Index, bag, build_index
from app.packs.rubric import Rubric

# label > verdict: the six ways a verdict misses, in round 18's order
CELLS = (
    ("incorrect", "partial"),
    ("partial", "incorrect"),
    ("partial", "correct"),
    ("correct", "partial"),
    ("incorrect", "correct"),
    ("correct", "incorrect"),
)
Fold = Callable[[Row], "str | None"]  # a tune row's fold; None: only ever learned from
Derived = dict[tuple[str, str], dict[str, Any]]
Models = dict[str, tuple["so.Model | None", "so.Model | None"]]
T = TypeVar("T")  # what fold_readings reads of each row


@dataclass(frozen=True)
class Prepared:
    """What every fold reads of a row, computed once: words, features, complete core; and
    whether the chain has the tag classifier (the setting `freetext_tag_classifier`) and the
    embedding verdict (`freetext_embedding_verdict`, round 22: each row's vector, else {})."""

    rubrics: Mapping[str, Rubric]
    bags: dict[int, Bag]
    feats: dict[int, so.Features]
    complete: dict[int, bool]
    classifier: bool = False
    vectors: Mapping[int, Sequence[float]] = dataclasses.field(default_factory=dict)
    # tell_caps.required_core of each row (round 28)
    required: Mapping[int, bool] = dataclasses.field(default_factory=dict)
    # tell_caps.no_required_core of each row (round 45)
    nothing: Mapping[int, bool] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Learned:
    """The chain's learned parts, from one set of tune rows."""

    index: Index
    caps: Derived
    beside: Derived
    models: Models
    classifier: Mapping[str, Trained]
    heads: Mapping[str, ev.Head] = dataclasses.field(default_factory=dict)
    required: Derived = dataclasses.field(default_factory=dict)  # round 28's beside_required_core
    bare: Derived = dataclasses.field(default_factory=dict)  # round 28's without_required_core
    together: Mapping[str, dict[str, Any]] = dataclasses.field(default_factory=dict)  # round 44
    nothing: Mapping[str, dict[str, Any]] = dataclasses.field(default_factory=dict)  # round 45
    # round 47: `together` over the answers crediting every required concept
    together_core: Mapping[str, dict[str, Any]] = dataclasses.field(default_factory=dict)


def by_persona(row: Row) -> str | None:
    return row.persona


def by_round(groups: Mapping[str, frozenset[str]]) -> Fold:
    """Each final set (`final_*` in meta/sides.yaml) one fold; other personas only learned from."""
    return lambda row: next((g for g, ps in groups.items() if row.persona in ps), None)


def final_groups(sides_file: Path) -> dict[str, frozenset[str]]:
    raw = yaml.safe_load(sides_file.read_text(encoding="utf-8")) or {}
    return {str(k): frozenset(v) for k, v in raw.items() if str(k).startswith("final_")}


def prepare(
    rows: Sequence[Row],
    rubrics: Mapping[str, Rubric],
    classifier: bool = False,
    vectors: Mapping[int, Sequence[float]] | None = None,
) -> Prepared:
    """`vectors`: id(row) -> the encoder's vector of its `embedded_text`, for the embedding
    verdict (none: the chain without it, as by default)."""
    return Prepared(
        rubrics,
        {id(r): bag(r.answer) for r in rows},
        {id(r): so.features(r.answer, r.evidence) for r in rows if r.evidence},
        {id(r): tell_caps.complete_core(rubrics[r.question_id], r.evidence) for r in rows},
        classifier,
        vectors or {},
        {id(r): tell_caps.required_core(rubrics[r.question_id], r.evidence) for r in rows},
        {id(r): tell_caps.no_required_core(rubrics[r.question_id], r.evidence) for r in rows},
    )


def _rules_feats(r: Row) -> so.Features:
    return ev.evidence_features(r.answer, r.verdict, r.named_tags, r.evidence)


def chain_rows(rows: Sequence[Row], prepared: Prepared, fold: Fold) -> dict[int, Row]:
    """id(row) -> the row as the chain grades it: a tune row with fold key k, with the chain
    learned from the tune rows whose key is not k; a held-out row, learned from every tune
    row. Tune rows whose key is None are only learned from (not in the answer)."""
    return fold_readings(rows, prepared, fold, graded)


def fold_readings(
    rows: Sequence[Row],
    prepared: Prepared,
    fold: Fold,
    grade: Callable[[Row, Learned, Prepared], T],
) -> dict[int, T]:
    """`chain_rows` with what is read of each row given: `grade(row, learned, prepared)` with
    the parts learned as `chain_rows` learns them (round 36: a benchmark that also reads the
    row before the second opinion folds the rows the same way, not with its own loop)."""
    tune = [r for r in rows if r.side == "tune"]
    keys = {id(r): fold(r) for r in tune}
    out: dict[int, T] = {}
    for key in sorted({k for k in keys.values() if k is not None}):
        learned = learn([r for r in tune if keys[id(r)] != key], prepared)
        out.update({id(r): grade(r, learned, prepared) for r in tune if keys[id(r)] == key})
    held = [r for r in rows if r.side != "tune"]
    if held:
        learned = learn(tune, prepared)
        out.update({id(r): grade(r, learned, prepared) for r in held})
    return out


def learn(train: Sequence[Row], prepared: Prepared) -> Learned:
    index = build_index(
        [
            Entry(r.question_id, prepared.bags[id(r)], r.expected_tags, r.answer, r.persona)
            for r in train
        ]
    )
    classifier = (
        train_classifier(
            [(r.question_id, sample_of(r, prepared.bags[id(r)])) for r in train], prepared.rubrics
        )
        if prepared.classifier
        else {}
    )
    heads = _heads(train, prepared) if prepared.vectors else {}
    models = _models(train, prepared)
    return Learned(
        index, models=models, classifier=classifier, heads=heads, **learn_caps(train, prepared)
    )


def learn_caps(train: Sequence[Row], prepared: Prepared) -> dict[str, Any]:
    """`Learned`'s tell caps, by name: per tag, by the core beside it (rounds 18 and 28), of
    tells together (round 44; and beside every required concept, round 47) and of tells with no
    required concept (round 45), from the labels of `train` (public:
    benchmarks/freetext_caps_by_core.py reads the caps step alone)."""
    caps = tell_caps.derive((r.question_id, r.expected_tags, r.label) for r in train)
    beside = tell_caps.derive_beside_core(
        (r.question_id, r.expected_tags, r.label, prepared.complete[id(r)], r.persona)
        for r in train
    )
    required, bare = (
        tell_caps.derive_beside_core(
            ((r.question_id, r.expected_tags, r.label, kept(id(r)), r.persona) for r in train),
            tell_caps.stable_cap,
        )
        for kept in (
            lambda k: prepared.required.get(k, False) and not prepared.complete[k],
            lambda k: not (prepared.required.get(k, False) or prepared.complete[k]),
        )
    )
    mine = {q: tell_caps.question_caps(rubric, caps, q) for q, rubric in prepared.rubrics.items()}
    together, together_core = (
        tell_caps.derive_together(
            ((r.question_id, r.expected_tags, r.label, r.persona) for r in train if kept(id(r))),
            mine,
        )
        for kept in (
            lambda k: True,
            lambda k: prepared.required.get(k, False) or prepared.complete[k],
        )
    )
    nothing = tell_caps.derive_no_required(
        (
            (r.question_id, r.expected_tags, r.label, r.persona, prepared.nothing.get(id(r), False))
            for r in train
        ),
        mine,
    )
    return {
        "caps": caps,
        "beside": beside,
        "required": required,
        "bare": bare,
        "together": together,
        "nothing": nothing,
        "together_core": together_core,
    }


def _heads(train: Sequence[Row], prepared: Prepared) -> dict[str, ev.Head]:
    """The embedding verdict's model per question, as `embedding_verdict.build_artefact`."""
    import numpy as np

    out: dict[str, ev.Head] = {}
    for qid in sorted({r.question_id for r in train}):
        mine = [r for r in train if r.question_id == qid]
        examples = [ev.Example(qid, r.persona, r.label, str(id(r)), _rules_feats(r)) for r in mine]
        x, columns = ev.design(examples, {str(id(r)): prepared.vectors[id(r)] for r in mine})
        y = np.array([ev.VERDICTS.index(r.label) for r in mine])
        fitted = ev.head_of(ev.fit(x, y, [r.persona for r in mine]), columns)
        out[qid] = ev.Head(fitted["columns"], fitted["rows"], fitted["bias"])
    return out


def _models(train: Sequence[Row], prepared: Prepared) -> Models:
    """The second opinion's two models per question, as `second_opinion.build_artefact`."""
    out: Models = {}
    for qid in sorted({r.question_id for r in train}):
        mine = [
            r
            for r in train
            if r.question_id == qid and r.evidence and so.eligible(r.evidence, r.verdict)
        ]
        partial = [
            (prepared.feats[id(r)], r.label == "incorrect") for r in mine if r.verdict == "partial"
        ]
        correct = [(prepared.feats[id(r)], r.label == "correct") for r in mine]
        out[qid] = (so.train(correct), so.train(partial))
    return out


def graded(row: Row, learned: Learned, prepared: Prepared) -> Row:
    """The rules' row -> the neighbours' tell -> the classifier's (if on) -> derived caps ->
    the second opinion -> the embedding verdict (if on)."""
    chained = up_to_second_opinion(row, learned, prepared)
    head = learned.heads.get(row.question_id)
    if head is None or not ev.could_move(chained.verdict, chained.named_tags, chained.evidence):
        return chained
    verdict = ev.moved_verdict(
        head,
        prepared.vectors[id(row)],
        _rules_feats(row),
        chained.verdict,
        chained.named_tags,
        chained.evidence,
    )
    return dataclasses.replace(chained, verdict=verdict)


def up_to_second_opinion(row: Row, learned: Learned, prepared: Prepared) -> Row:
    """The chain up to and including the second opinion (no embedding verdict): what a
    benchmark reads to tell the second opinion's moves from the rules' (round 35)."""
    rubric, key = prepared.rubrics[row.question_id], id(row)
    row = _suggested_row(learned.index, rubric, row, prepared.bags[key])
    trained = learned.classifier.get(row.question_id)
    row = classified_row(trained, rubric, row, prepared.bags[key])
    if row.evidence is None or row.evidence.empty:
        return row
    row = recapped(
        row,
        rubric,
        learned,
        prepared.complete[key],
        required=prepared.required.get(key),
        nothing=prepared.nothing.get(key),
    )
    if row.named_tags or row.evidence is None:
        return row
    correct, incorrect = learned.models.get(row.question_id, (None, None))
    if correct is None:
        return row
    feats = prepared.feats[key]
    verdict = so.second_verdict(correct, feats, row.evidence, row.verdict, incorrect)
    return dataclasses.replace(row, verdict=verdict)


def recapped(
    row: Row,
    rubric: Rubric,
    learned: Learned,
    complete: bool,
    *,
    required: bool | None = None,
    nothing: bool | None = None,
) -> Row:
    """The row's verdict under the caps learned in this fold for the tells it names (public:
    benchmarks/freetext_embedding_tells.py caps the tells it adds the chain's way); `required`
    and `nothing` as `row_caps`."""
    assert row.evidence is not None
    mine = row_caps(row, rubric, learned, complete, required=required, nothing=nothing)
    evidence = dataclasses.replace(
        row.evidence, caps=tuple(mine.get(t, "partial") for t in row.named_tags)
    )
    verdict = line_verdict(rubric, evidence, Line.of(rubric))
    return dataclasses.replace(row, verdict=verdict, evidence=evidence)


def row_caps(
    row: Row,
    rubric: Rubric,
    learned: Learned,
    complete: bool,
    *,
    required: bool | None = None,
    nothing: bool | None = None,
) -> dict[str, str]:
    """Tag -> cap for the row's question's tells, as learned in this fold: by precedent, by
    the core beside them and for the tells the row names together (tell_caps.CoreCaps).
    `required` / `nothing`: the row's `tell_caps.required_core` / `no_required_core` where the
    caller holds them (`Prepared`, round 46: the learned tells replace a row's verdict and tags,
    never its evidence), else read from the row's evidence."""
    mine = tell_caps.question_caps(rubric, learned.caps, row.question_id)
    core = learned_core_caps(learned, row.question_id)
    if required is None:
        required = tell_caps.required_core(rubric, row.evidence)
    if nothing is None:
        nothing = tell_caps.no_required_core(rubric, row.evidence)
    mine = core.for_core(mine, complete=complete, required=required, nothing=nothing)
    return core.for_tells_together(mine, row.named_tags, core=complete or required)


def learned_core_caps(learned: Learned, question_id: str) -> tell_caps.CoreCaps:
    """The fold's caps by the core beside a tell, for one question (tell_caps.CoreCaps; public:
    benchmarks/freetext_caps_by_core.py reports them)."""
    complete, required, bare = (
        {t: cap for (q, t), e in derived.items() if q == question_id and e["cap"] == cap}
        for derived, cap in (
            (learned.beside, "partial"),
            (learned.required, "partial"),
            (learned.bare, "incorrect"),
        )
    )
    together = learned.together.get(question_id, {}).get("cap")
    nothing = learned.nothing.get(question_id, {}).get("cap")
    together_core = learned.together_core.get(question_id, {}).get("cap")
    return tell_caps.CoreCaps(complete, required, bare, together, nothing, together_core)


def cells(rows: Sequence[Row]) -> tuple[int, ...]:
    """How many rows fall in each of `CELLS` (label > verdict)."""
    return tuple(sum((r.label, r.verdict) == c for r in rows) for c in CELLS)


def summary(rows: Sequence[Row]) -> str:
    """exact, correct-vs-not, named, false tells on correct; the six cells."""
    f = figures(list(rows))
    return (
        f"{f.total:>4}  exact {f.exact}, correct-vs-not {f.binary}, named {f.tags_named} of "
        f"{f.tags_expected}, false tells {f.false_tells_on_correct} of {f.correct_labelled}; "
        + " ".join(str(n) for n in cells(rows))
    )


def tell_features(rules: Row, chained: Row) -> so.Features:
    """What a tell-bearing answer's verdict could be learned from: the tells named and their
    caps (after the chain), the rules' concepts and score, the answer's length."""
    assert rules.evidence is not None and chained.evidence is not None
    found: so.Features = {f"t:{t}": 1.0 for t in chained.named_tags}
    found.update({f"c:{c}": 1.0 for c in rules.evidence.found})
    found.update({f"cap:{c}": 1.0 for c in chained.evidence.caps})
    found["score"] = rules.evidence.score
    found["tells"] = float(len(chained.named_tags))
    found["length"] = so.length_feature(len(rules.answer.split()))
    return found


def _tell_eligible(row: Row | None) -> bool:
    return bool(
        row is not None
        and row.named_tags
        and row.verdict in ("partial", "incorrect")
        and row.evidence is not None
        and not row.evidence.no_credit
        and not row.evidence.empty
    )


def tell_line(
    rows: Sequence[Row], after: Mapping[int, Row], fold: Fold, raise_at: float = so.RAISE
) -> dict[int, Row]:
    """Round 19's candidate, measured and not shipped: per question, a logistic model of
    "labelled partial or correct" over `tell_features` of the chain's tell-bearing answers
    graded incorrect or partial, trained on the other folds' chain rows; an answer the chain
    grades incorrect goes to partial at p >= `raise_at`. Never to correct, never a tag."""
    tune = [r for r in rows if r.side == "tune" and _tell_eligible(after.get(id(r)))]
    feats = {id(r): tell_features(r, after[id(r)]) for r in tune}
    keys = {id(r): fold(r) for r in tune}
    out = dict(after)
    for key in sorted({k for k in keys.values() if k is not None}):
        train = [r for r in tune if keys[id(r)] != key]
        for qid in sorted({r.question_id for r in tune if keys[id(r)] == key}):
            model = so.train(
                [(feats[id(r)], r.label != "incorrect") for r in train if r.question_id == qid]
            )
            for r in tune:
                chained = after[id(r)]
                if keys[id(r)] != key or r.question_id != qid or chained.verdict != "incorrect":
                    continue
                if model is not None and model.probability(feats[id(r)]) >= raise_at:
                    out[id(r)] = dataclasses.replace(chained, verdict="partial")
    return out
