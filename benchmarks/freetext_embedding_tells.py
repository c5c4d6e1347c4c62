"""Experiment (round 22, engineer E4): naming misconceptions with a frozen sentence embedding.

Question: held-out sets name 58-62% of stated misconceptions (target 95%); the rules and the
lemma-bag tag classifier (tag_classifier.py, off by default) do not carry to new voices.
Does a frozen all-MiniLM-L6-v2 embedding of the answer's sentences and clauses name the
right tell better?

Measured, not wired: nothing under app/ reads it. The answer is multi-instance (a tag is
stated by one clause): its instances are its prose sentences after the padding cut
(signals.without_padding), double-quoted spans taken out, plus the clauses of a sentence
(split at ";", " - ", and before but/because/whereas/...), plus its code blocks. Per
question and rubric tag (carried by >= MIN_SUPPORT training answers), a ridge score over an
instance's embedding, fitted multi-instance: negatives every instance of the answers that
do not carry the tag, positives first every instance of the answers that do (each answer
weighted as one), then only each such answer's best-scoring instance (its witness), refit
(WITNESS_ROUNDS); both classes weigh the same. An answer's tag score is the max over its
instances. Per tag, the cut is chosen inside the training writers' folds as round 21's tag
classifier chooses it (labelled_tag_classifier.chosen_cuts: +1 right tag, -1 wrong, -cost on
an answer labelled correct, ties to the higher cut, none if no cut gains), and no tag is
named against a concept the rules credit (labelled_tag_classifier.contradicting).

Read as an addition to the chain, in exactly its folds (LOPO, LORO; tune personas only):
- "below correct": it names its top tag only on answers the chain graded below correct,
  naming no tell, with credit (no keyword list, injection or empty answer); the tag's cap
  (the chain's derived caps) may lower the verdict, never raise it;
- "below correct, strict": the same, cuts chosen at a cost of HIGH_COST on a correct answer;
- "high cut": the same on any answer the chain names no tell on, correct ones too, with
  cuts chosen at a cost of HIGH_COST on a correct answer (so false tells stay where they are).
Beside, in the same run: the chain as shipped (classifier off) and the chain with the
lemma-bag tag classifier on, and the embedding on top of that. Then the repo's held true
statements (tests built with tests/grading/held_statements.py), a padding attack and the
cost per answer.

Scratch installs only (E's and E2's, round 21):

    cd WORKTREE && PYTHONPATH=$PWD nice -n 5 /work/main/.venv/bin/python \\
        benchmarks/freetext_embedding_tells.py --cache /tmp/e4/instances.npz

Round 23: instances are encoded by app/grading/freetext/encoder.py (the `embedding` extra and
its int8 file; word pieces in pure Python), one at a time as the grader encodes, through
freetext_embedding_onnx.OnnxEmbedder; round 22 batched 32 padded instances with `tokenizers`.

Only tune personas are loaded into the readings; nothing is printed answer by answer.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one thread: the machine is shared, the cost is per core

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import hashlib  # noqa: E402
import importlib  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext.evaluation import Row, free_text_questions  # noqa: E402
from app.grading.freetext.labelled_tag_classifier import Sample, contradicting  # noqa: E402
from app.packs.rubric import Rubric  # noqa: E402
from benchmarks._measure import final_groups, tune_folds  # noqa: E402

MIN_SUPPORT = 8  # as the tag classifier: a tag carried by fewer training answers gets no model
PENALTY = 1e-3  # ridge, on class-normalised Gram matrices (fixed before reading)
WITNESS_ROUNDS = 1  # refits on each positive answer's best instance
INNER_FOLDS = 5  # training writers, round robin in name order (as chosen_cuts)
CUTS = tuple(round(0.3 + 0.05 * i, 2) for i in range(19))  # 0.30 .. 1.20
WRONG_ON_CORRECT = 2  # "below correct": as the tag classifier
HIGH_COST = 10  # "high cut": a wrong tag on a correct answer costs this (fixed before reading)
MAX_INSTANCES = 48  # instances read per answer: linear in the answer, bounded encoder calls
VERDICT_ORDER = {"incorrect": 0, "partial": 1, "correct": 2}

# ---------------------------------------------------------------- instances (pure)

_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|\s+-{1,2}\s+|,?\s+(?=(?:but|because|whereas|although|though|while|so that|"
    r"since|which means|instead of)\b)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"\"[^\"\n]{0,400}\"|\u201c[^\u201d\n]{0,400}\u201d")
_WORD = re.compile(r"[A-Za-z_][\w.]*")


def clauses_of(sentence: str) -> list[str]:
    """A prose sentence's clauses of at least three words (none if it has one)."""
    parts = [p.strip(" ,") for p in _CLAUSE_BREAK.split(sentence)]
    parts = [p for p in parts if len(_WORD.findall(p)) >= 3]
    return parts if len(parts) > 1 else []


def instances(answer: str) -> list[str]:
    """What the answer states, one instance each: prose sentences after the padding cut with
    quoted spans out, their clauses, and code blocks; at most MAX_INSTANCES, first ones first."""
    from app.grading.freetext.normalise import normalise
    from app.grading.freetext.signals import without_padding

    out: list[str] = []
    for unit in normalise(answer).units:
        if unit.is_code:
            found = [unit.text.strip()]
        else:
            sentence = " ".join(_QUOTED.sub(" ", without_padding(unit.text)).split())
            if len(_WORD.findall(sentence)) < 2:
                continue
            found = [sentence, *clauses_of(sentence)]
        out += [f for f in found if f and f not in out]
        if len(out) >= MAX_INSTANCES:
            return out[:MAX_INSTANCES]
    return out or [" ".join(answer.split())[:400] or "."]


# ---------------------------------------------------------------- the tag model (numpy, pure)


def with_bias(x: np.ndarray) -> np.ndarray:
    return np.concatenate([x, np.ones((len(x), 1), dtype=x.dtype)], 1)


def gram(x: np.ndarray) -> np.ndarray:
    return x.T @ x


def fit_tag(
    train_gram: np.ndarray,
    train_count: int,
    positives: Sequence[np.ndarray],
    penalty: float = PENALTY,
    rounds: int = WITNESS_ROUNDS,
) -> np.ndarray:
    """Weights (with bias) of one tag's instance score. `train_gram`: the Gram matrix of every
    training instance (bias column included), `train_count` how many; `positives`: the
    instances of each training answer carrying the tag. Negatives: every other instance."""
    inside = sum(len(p) for p in positives)
    negatives = (train_gram - sum(gram(p) for p in positives)) / max(1, train_count - inside)
    ridge = penalty * np.eye(len(train_gram))
    share = [np.full(len(p), 1 / (len(p) * len(positives))) for p in positives]
    chosen = [np.ones(len(p), dtype=bool) for p in positives]
    weights = np.zeros(len(train_gram))
    for r in range(rounds + 1):
        picked = np.concatenate([p[c] for p, c in zip(positives, chosen, strict=True)])
        w = np.concatenate([s[c] for s, c in zip(share, chosen, strict=True)])
        pos_gram = picked.T @ (picked * w[:, None])
        weights = np.linalg.solve(negatives + pos_gram + ridge, picked.T @ w)
        if r < rounds:  # each positive answer: only its best instance, weighted as the answer
            chosen = [np.arange(len(p)) == int(np.argmax(p @ weights)) for p in positives]
            share = [np.full(len(p), 1 / len(positives)) for p in positives]
    return weights


def bag_scores(weights: np.ndarray, bags: Sequence[np.ndarray]) -> np.ndarray:
    """Each answer's score: the max over its instances."""
    return np.array([float((b @ weights).max()) for b in bags])


def top_tags(scores: Mapping[str, np.ndarray]) -> list[tuple[str, float] | None]:
    """Per answer, its top tag and score (ties: the tag first in name order)."""
    tags = sorted(scores)
    if not tags:
        return []
    table = np.stack([scores[t] for t in tags], 1)
    best = table.argmax(1)
    return [(tags[int(j)], float(table[i, j])) for i, j in enumerate(best)]


def chosen_cut(scored: Sequence[tuple[float, int]], cuts: Sequence[float] = CUTS) -> float | None:
    """The cut where naming pays most (ties: the higher cut); None when no cut gains."""
    gain, cut = max((sum(g for s, g in scored if s >= c), c) for c in cuts)
    return cut if gain > 0 else None


# ---------------------------------------------------------------- per question, in folds


@dataclass(frozen=True)
class Answer:
    """A tune answer as the model reads it."""

    persona: str
    tags: tuple[str, ...]
    correct: bool
    below: bool  # the rules graded it below correct, named no tell, with credit
    untold: bool  # the rules named no tell, with credit (any verdict)
    concepts: frozenset[str]
    bag: np.ndarray  # (instances, 385): embeddings with the bias column


@dataclass(frozen=True)
class TagModels:
    """One question's tag weights, cuts per variant and the concepts against each tag."""

    weights: dict[str, np.ndarray]
    cuts: dict[str, dict[str, float | None]]  # variant -> tag -> cut
    against: dict[str, tuple[str, ...]]

    def named(self, bag: np.ndarray, variant: str, credited: frozenset[str]) -> str | None:
        scores = {t: bag_scores(w, [bag]) for t, w in self.weights.items()}
        top = top_tags(scores)
        if not top or top[0] is None:
            return None
        tag, score = top[0]
        cut = self.cuts[variant].get(tag)
        if cut is None or score < cut or credited & set(self.against.get(tag, ())):
            return None
        return tag


VARIANTS = {"below correct": WRONG_ON_CORRECT, "below correct, strict": HIGH_COST,
            "high cut": HIGH_COST}  # fmt: skip


def _acts(a: Answer, variant: str) -> bool:
    return a.untold if variant == "high cut" else a.below


def fit_question(
    answers: Sequence[Answer], grams: Mapping[str, np.ndarray], counts: Mapping[str, int],
    tags: Sequence[str], cuts: bool = True,
) -> TagModels:  # fmt: skip
    """Tag weights from `answers` (their personas' Gram sums in `grams`), with cuts chosen in
    INNER_FOLDS folds of their writers."""
    personas = sorted({a.persona for a in answers})
    total = sum(grams[p] for p in personas)
    count = sum(counts[p] for p in personas)
    weights = _weights(answers, total, count, tags)
    chosen: dict[str, dict[str, float | None]] = {v: {} for v in VARIANTS}
    if cuts and weights:
        fold = {p: i % INNER_FOLDS for i, p in enumerate(personas)}
        scored: dict[str, dict[str, list[tuple[float, int]]]] = {v: {} for v in VARIANTS}
        for k in range(INNER_FOLDS):
            out = [p for p in personas if fold[p] == k]
            inner = [a for a in answers if fold[a.persona] != k]
            test = [a for a in answers if fold[a.persona] == k and a.untold]
            if not out or not test:
                continue
            models = _weights(
                inner, total - sum(grams[p] for p in out), count - sum(counts[p] for p in out),
                tags,
            )  # fmt: skip
            scores = {t: bag_scores(w, [a.bag for a in test]) for t, w in models.items()}
            for a, top in zip(test, top_tags(scores), strict=False):
                if top is None:
                    continue
                for variant, cost in VARIANTS.items():
                    if _acts(a, variant):
                        gain = 1 if top[0] in a.tags else -(cost if a.correct else 1)
                        scored[variant].setdefault(top[0], []).append((top[1], gain))
        chosen = {v: {t: chosen_cut(scored[v].get(t, [])) for t in weights} for v in VARIANTS}
    samples = [Sample(frozenset(), a.tags, a.persona, a.correct, True, a.concepts) for a in answers]
    return TagModels(weights, chosen, contradicting(samples, list(weights)))


def _weights(
    answers: Sequence[Answer], total: np.ndarray, count: int, tags: Sequence[str]
) -> dict[str, np.ndarray]:
    out = {}
    for tag in tags:
        positives = [a.bag for a in answers if tag in a.tags]
        if len(positives) >= MIN_SUPPORT:
            out[tag] = fit_tag(total, count, positives)
    return out


# ---------------------------------------------------------------- embeddings


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class Cache:
    """instance text -> embedding, kept in a file by sha1 (computed on a miss, batched)."""

    def __init__(self, path: Path, embedder: Callable[[], Any]) -> None:
        self.path, self.embedder, self._model = path, embedder, None
        self.stored: dict[str, np.ndarray] = {}
        if path.is_file():
            with np.load(path) as f:
                self.stored = {k: f[k] for k in f.files}

    def fill(self, texts: Sequence[str], save: bool = False) -> int:
        """Embed what is missing; `save`: write the file (atomically) when anything was."""
        missing = sorted({t for t in texts if _sha(t) not in self.stored}, key=len)
        if missing:
            if self._model is None:
                self._model = self.embedder()
            for i in range(0, len(missing), 32):
                batch = missing[i : i + 32]
                for t, e in zip(batch, self._model(batch), strict=True):
                    self.stored[_sha(t)] = e.astype(np.float32)
        if missing and save:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(self.path.stem + ".partial.npz")
            np.savez(partial, **self.stored)
            partial.replace(self.path)
        return len(missing)

    def bag(self, texts: Sequence[str]) -> np.ndarray:
        return with_bias(np.stack([self.stored[_sha(t)] for t in texts]).astype(np.float64))


# ---------------------------------------------------------------- the chain, with it


def _lower(a: str, b: str) -> str:
    return a if VERDICT_ORDER[a] <= VERDICT_ORDER[b] else b


def with_tag(chained: Row, tag: str, rubric: Rubric, learned: chain.Learned, complete: bool) -> Row:
    """The chain's row with `tag` named: its cap as the chain derives it (never raises)."""
    tagged = dataclasses.replace(chained, named_tags=(tag,))
    capped = chain.recapped(tagged, rubric, learned, complete)  # the chain's own caps
    return dataclasses.replace(tagged, verdict=_lower(chained.verdict, capped.verdict))


def may_name(chained: Row, variant: str) -> bool:
    ev = chained.evidence
    if chained.named_tags or ev is None or ev.no_credit or ev.empty:
        return False
    return variant == "high cut" or chained.verdict != "correct"


Fold = Callable[[Row], "str | None"]


def readings(
    rows: Sequence[Row], prepared: chain.Prepared, fold: Fold, cache: Cache,
    answers: Mapping[int, Answer], tags: Mapping[str, list[str]],
) -> tuple[dict[str, dict[int, Row]], dict[tuple[str, str], TagModels]]:  # fmt: skip
    """id(row) -> row, per reading, each fold graded with everything learned without it."""
    keys = {id(r): fold(r) for r in rows}
    folds = sorted({k for k in keys.values() if k is not None})
    grams: dict[str, dict[str, np.ndarray]] = {}
    counts: dict[str, dict[str, int]] = {}
    for qid in tags:
        grams[qid], counts[qid] = {}, {}
        for r in (r for r in rows if r.question_id == qid):
            b = answers[id(r)].bag
            g = grams[qid].setdefault(r.persona, np.zeros((b.shape[1], b.shape[1])))
            g += gram(b)
            counts[qid][r.persona] = counts[qid].get(r.persona, 0) + len(b)
    names = [
        "chain",
        *(f"chain + emb, {v}" for v in VARIANTS),
        "chain + classifier",
        *(f"chain + classifier + emb, {v}" for v in VARIANTS if v != "high cut"),
    ]
    out: dict[str, dict[int, Row]] = {n: {} for n in names}
    models: dict[tuple[str, str], TagModels] = {}
    for key in folds:
        train = [r for r in rows if keys[id(r)] != key]
        learned_on = chain.learn(train, prepared)
        learned_off = dataclasses.replace(learned_on, classifier={})
        for qid in tags:
            mine = [answers[id(r)] for r in train if r.question_id == qid]
            models[(qid, key)] = fit_question(mine, grams[qid], counts[qid], tags[qid])
        for r in (r for r in rows if keys[id(r)] == key):
            rubric, complete = prepared.rubrics[r.question_id], prepared.complete[id(r)]
            model, a = models[(r.question_id, key)], answers[id(r)]
            credited = r.evidence.found if r.evidence is not None else frozenset()
            for base, learned, extra in (
                ("chain", learned_off, tuple(VARIANTS)),
                ("chain + classifier", learned_on, ("below correct", "below correct, strict")),
            ):
                c = chain.graded(r, learned, prepared)
                out[base][id(r)] = c
                for variant in extra:
                    name = f"{base} + emb, {variant}"
                    tag = model.named(a.bag, variant, credited) if may_name(c, variant) else None
                    out[name][id(r)] = with_tag(c, tag, rubric, learned, complete) if tag else c
    return out, models


def print_reading(
    title: str, groups: Sequence[tuple[str, Sequence[Row]]], versions: Mapping[str, dict[int, Row]]
) -> None:
    cells = " ".join(f"{a[0]}>{b[0]}" for a, b in chain.CELLS)
    print(f"== {title}; n, figures; label>verdict {cells}")
    for name, mine in groups:
        print(f"   {name}")
        for version, graded in versions.items():
            print(f"     {version:<40} {chain.summary([graded[id(r)] for r in mine])}")
        for version, graded in versions.items():
            added = [graded[id(r)] for r in mine if graded[id(r)].named_tags
                     and not versions["chain"][id(r)].named_tags]  # fmt: skip
            if added:
                right = sum(any(t in g.expected_tags for t in g.named_tags) for g in added)
                on_correct = sum(g.label == "correct" for g in added)
                print(
                    f"       {version}: tells added {len(added)}, right {right}, on answers "
                    f"labelled correct {on_correct}"
                )


# ---------------------------------------------------------------- held statements


def held_true_statements() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """(question id, text) of every true statement, (question id, tag, text) of every wrong
    one, of the test tables built with tests/grading/held_statements.py."""
    import tests.grading.held_statements as held

    true: list[tuple[str, str]] = []
    wrong: list[tuple[str, str, str]] = []
    originals = held.names_nothing, held.names_the_tell

    def nothing(cases: Any, **kw: Any) -> Any:
        found = _as_cases(cases, kw.get("fields", "question_id answer"))
        true.extend((q, t) for q, _, t in map(held._read, found))
        return originals[0](cases, **kw)

    def tell(cases: Any, **kw: Any) -> Any:
        wrong.extend(
            held._read(c) for c in _as_cases(cases, kw.get("fields", "question_id tag answer"))
        )
        return originals[1](cases, **kw)

    held.names_nothing, held.names_the_tell = nothing, tell  # type: ignore[assignment]
    try:
        for path in sorted((ROOT / "tests" / "grading").glob("test_*.py")):
            text = path.read_text(encoding="utf-8")
            if "held_statements" in text:
                importlib.import_module(f"tests.grading.{path.stem}")
    finally:
        held.names_nothing, held.names_the_tell = originals
    return sorted(set(true)), sorted(set(wrong))


def _as_cases(cases: Any, fields: str) -> list[dict[str, str]]:
    """A table's cases as {field: value} (a case is a tuple or a pytest.param)."""
    names = fields.split()
    out = []
    for c in cases:
        values = c.values if hasattr(c, "values") else c  # pytest.param
        out.append(dict(zip(names, values, strict=False)))
    return out


# ---------------------------------------------------------------- main


def main() -> int:
    from app.grading.freetext.evaluation import (
        grade_rows,
        load_persona_answers,
        load_sides,
        load_tag_map,
    )
    from app.packs.loader import load_pack

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/e4/instances.npz"))
    parser.add_argument(
        "--onnx", type=Path, default=None, help="an ONNX export (default: encoder.py's int8 file)"
    )
    parser.add_argument("--skip", default="", help="comma list: lopo,loro,held,padding,cost")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    labelled = ROOT / "tests" / "grading" / "freetext_labelled"
    sides_file = labelled / "meta" / "sides.yaml"
    loaded = load_pack(ROOT / "questions" / "gradient-tape")
    assert loaded.pack is not None
    pack = loaded.pack
    sides = load_sides(sides_file)
    found, _ = load_persona_answers(labelled)
    tune_answers = [a for a in found if (a.persona or "original") in sides.tune]  # tune only
    rows, _ = grade_rows(
        pack, tune_answers, tag_map=load_tag_map(sides_file.with_name("tag-map.yaml")), sides=sides
    )
    rows = [r for r in rows if r.side == "tune"]
    questions = free_text_questions(pack)
    rubrics = {qid: q.rubric for qid, q in questions.items()}

    def embedder() -> Any:
        from freetext_embedding_onnx import OnnxEmbedder

        return OnnxEmbedder(args.onnx)

    cache = Cache(args.cache, embedder)
    start = time.process_time()
    split = {id(r): instances(r.answer) for r in rows}
    computed = cache.fill([t for ts in split.values() for t in ts], save=True)
    per = [len(v) for v in split.values()]
    print(
        f"tune answers {len(rows)} ({len({r.persona for r in rows})} personas); instances per "
        f"answer p50 {statistics.median(per):.0f}, max {max(per)}, {sum(per)} in all; "
        f"{computed} embedded now ({time.process_time() - start:.0f} s CPU); encoder "
        f"{args.onnx or 'encoder.py (shipped int8)'}"
    )
    answers = {id(r): answer_of(r, cache.bag(split[id(r)])) for r in rows}
    tags = {
        qid: sorted(m.tag for m in rubric.misconceptions) for qid, rubric in sorted(rubrics.items())
    }
    prepared = chain.prepare(rows, rubrics, classifier=True)
    lopo, loro = tune_folds(rows, sides.read, final_groups(sides_file, sides.tune))
    lopo_models: dict[tuple[str, str], TagModels] = {}
    if "lopo" not in skip:
        start = time.process_time()
        versions, lopo_models = readings(rows, prepared, lopo.fold, cache, answers, tags)
        print(f"   ({lopo.name}: {time.process_time() - start:.0f} s CPU)")
        print_reading(lopo.name, lopo.parts, versions)
        _print_cuts(lopo_models)
    if "loro" not in skip:
        start = time.process_time()
        versions, _ = readings(rows, prepared, loro.fold, cache, answers, tags)
        print(f"   ({loro.name}: {time.process_time() - start:.0f} s CPU)")
        print_reading(loro.name, loro.parts, versions)
    full = None
    if not {"held", "padding"} <= skip:
        full = {qid: _full_model(rows, answers, qid, tags[qid]) for qid in tags}
    if "padding" not in skip and lopo_models:
        padding_attack(questions, rows, answers, lopo_models, cache)
    if "cost" not in skip:
        print_cost(rows, cache, full)
    if "held" not in skip and full is not None:
        held_reading(questions, full, cache)
    return 0


def answer_of(r: Row, bag: np.ndarray) -> Answer:
    ev = r.evidence
    credit = ev is not None and not ev.no_credit and not ev.empty
    untold = credit and not r.named_tags
    return Answer(
        r.persona, r.expected_tags, r.label == "correct", untold and r.verdict != "correct",
        untold, ev.found if ev is not None else frozenset(), bag,
    )  # fmt: skip


def _full_model(
    rows: Sequence[Row], answers: Mapping[int, Answer], qid: str, tags: Sequence[str]
) -> TagModels:
    mine = [answers[id(r)] for r in rows if r.question_id == qid]
    grams: dict[str, np.ndarray] = {}
    counts: dict[str, int] = {}
    for a in mine:
        grams[a.persona] = grams.get(a.persona, 0) + gram(a.bag)
        counts[a.persona] = counts.get(a.persona, 0) + len(a.bag)
    return fit_question(mine, grams, counts, tags)


def _print_cuts(models: Mapping[tuple[str, str], TagModels]) -> None:
    for variant in VARIANTS:
        cuts = [c for m in models.values() for c in m.cuts[variant].values()]
        some = [c for c in cuts if c is not None]
        print(
            f"   cuts ({variant}), over folds and tags: {len(some)} of {len(cuts)} with a cut"
            + (f", median {statistics.median(some):.2f}" if some else "")
        )


def _graded(question: Any, text: str, classifier: bool) -> Any:
    """The text graded as shipped (second opinion, neighbours, caps), classifier on or off."""
    from app.grading.freetext.fitting import evidence_of
    from app.grading.freetext.grader import grade_freetext

    result = grade_freetext(question, text, tag_classifier=classifier)
    return result, evidence_of(question.rubric, result)


def _any_tag(model: TagModels, text: str, cache: Cache, variant: str) -> str | None:
    """What the model names with no eligibility check (its own reading of the words)."""
    parts = instances(text)
    cache.fill(parts)
    return model.named(cache.bag(parts), variant, frozenset())


def held_reading(questions: Mapping[str, Any], full: Mapping[str, TagModels], cache: Cache) -> None:
    """The repo's held statements graded as shipped, and with the embedding's tag (trained on
    every tune answer) where the shipped grading names none. (The lemma-bag classifier's
    reading of them is round 21's, engineer N: one grading each keeps this a few minutes.)"""
    true, wrong = held_true_statements()
    print(f"== held statements (tests built with held_statements.py): {len(true)} true, "
          f"{len(wrong)} wrong; named (true: any tell; wrong: its tag)")  # fmt: skip
    for label, cases in (("true", [(q, "", t) for q, t in true]), ("wrong", wrong)):
        counts: dict[str, int] = {}
        fired: dict[str, list[str]] = {}
        for qid, tag, text in cases:
            if qid not in questions:
                continue
            q = questions[qid]
            off, ev = _graded(q, text, False)
            found = {"shipped (classifier off)": list(off.misconceptions)}
            for variant in VARIANTS:
                emb = None
                credit = ev is not None and not ev.no_credit and not ev.empty
                if (
                    credit
                    and not off.misconceptions
                    and (variant == "high cut" or off.verdict != "correct")
                ):
                    parts = instances(text)
                    cache.fill(parts)
                    emb = full[qid].named(cache.bag(parts), variant, ev.found)
                found[f"shipped + emb, {variant}"] = [*off.misconceptions, *([emb] if emb else [])]
            found["emb alone, below-correct cuts, any statement"] = [
                t for t in [_any_tag(full[qid], text, cache, "below correct")] if t
            ]
            for name, got in found.items():
                hit = (tag in got) if tag else bool(got)
                counts[name] = counts.get(name, 0) + int(hit)
                if hit and not tag and name != "shipped (classifier off)":
                    fired.setdefault(name, []).append(f"{qid}:{got[-1]}")
        for name, n in counts.items():
            print(f"   {label:<5} {name:<46} {n}")
        for name, where in fired.items():
            print(f"         {name}: {', '.join(sorted(where))}")


# ---------------------------------------------------------------- padding attack


def padding_attack(
    questions: Mapping[str, Any], rows: Sequence[Row], answers: Mapping[int, Answer],
    models: Mapping[tuple[str, str], TagModels], cache: Cache, limit: int = 300,
) -> None:  # fmt: skip
    """(a) Answers labelled correct on which the LOPO model names nothing, padded: how many
    the model now names a tag on. (b) Answers where it names the right tag, padded: how many
    it still names. Padding read with no eligibility check (the model's own words)."""
    from freetext_embedding_verdict import PADDINGS

    rng = random.Random(22)
    variant = "below correct"

    def named(r: Row, text: str) -> str | None:
        return _any_tag(models[(r.question_id, r.persona)], text, cache, variant)

    plain = {id(r): named(r, r.answer) for r in rows}
    correct = [r for r in rows if r.label == "correct" and plain[id(r)] is None]
    stated = [r for r in rows if plain[id(r)] is not None and plain[id(r)] in r.expected_tags]
    correct = rng.sample(correct, min(limit, len(correct)))
    stated = rng.sample(stated, min(limit, len(stated)))
    print(
        f"== padding attack (LOPO models, {variant} cuts, read with no eligibility check): "
        f"(a) {len(correct)} answers labelled correct it names nothing on; (b) {len(stated)} it "
        f"names the right tag on"
    )
    for name, pad in PADDINGS.items():
        fired = sum(named(r, r.answer.rstrip() + " " + pad(questions[r.question_id])) is not None
                    for r in correct)  # fmt: skip
        kept = sum(
            named(r, r.answer.rstrip() + " " + pad(questions[r.question_id])) == plain[id(r)]
            for r in stated
        )
        print(f"   {name:<30} (a) now names a tag {fired:>3}; (b) still names it {kept:>3}")


# ---------------------------------------------------------------- cost


def print_cost(rows: Sequence[Row], cache: Cache, full: Mapping[str, TagModels] | None) -> None:
    """CPU per answer: instances, encoder (one batch per answer, one thread), the tag scores."""
    from freetext_embedding_onnx import OnnxEmbedder  # noqa: F401 - the cache's encoder

    model = cache._model or cache.embedder()
    sample = random.Random(21).sample(list(rows), min(200, len(rows)))
    times, counts = [], []
    for r in sample:
        start = time.process_time()
        parts = instances(r.answer)
        bag = with_bias(np.asarray(model(parts), dtype=np.float64))
        if full is not None:
            full[r.question_id].named(bag, "below correct", frozenset())
        times.append((time.process_time() - start) * 1000)
        counts.append(len(parts))
    times.sort()
    print(
        f"== cost ({len(sample)} tune answers, instances p50 {statistics.median(counts):.0f}, "
        f"max {max(counts)}; one thread, one encoder batch per answer): CPU p50 "
        f"{statistics.median(times):.1f} ms, p95 {times[int(0.95 * len(times))]:.1f} ms, "
        f"max {times[-1]:.1f} ms per answer"
    )


if __name__ == "__main__":
    raise SystemExit(main())
