"""A bounded verdict over the answer's sentence embedding (issue 14, round 22; optional item 5).

Round 21 measured it (docs/freetext-rounds.md, "Round 21: an embedding verdict, measured
(engineer E)" and "... a cheaper encoder, measured (engineer E2)"): per question, a
multinomial logistic regression over [the all-MiniLM-L6-v2 embedding of the prose left after
the padding cut (encoder.py) + the rules' evidence: their verdict, concepts found, score,
tells named and their caps, no-credit, empty, length] reads more verdicts right than the
shipped chain leave one persona out and leave one round out, in one shape only, the one this
module ships: after the whole chain, on an answer the chain names no tell in and the rules read
no keyword list, injection or empty answer in, it moves the chain's verdict only where its top
probability is at least `SURE` (0.7, fixed before reading), and only along the second
opinion's moves (partial <-> correct, partial -> incorrect). It never raises an answer that
names a misconception. The grader applies it with the setting `freetext_embedding_verdict`
(off by default).

`python -m app.grading.freetext.embedding_verdict train` fits one model per question of the
core pack on the labelled tune personas (meta/sides.yaml) and writes `embedding_verdict.json`
(weights with the standardisation folded in, rounded). The fit runs onnxruntime's int8
kernels, whose last digits may differ between CPUs, so `train --check` does not retrain: it
checks the artefact's `inputs`, a hash of what a training reads (the tune answers, labels and
the rules' evidence of each, the encoder file's and tokenizer's sha256, the trainer's
constants).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.artefacts import artefact_questions, dump_artefact, read_artefact
from app.grading.freetext.budget import uncounted
from app.grading.freetext.encoder import DIMENSIONS, INT8_SHA256, MAX_PIECES, TOKENIZER_SHA256
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.normalise import normalise
from app.grading.freetext.second_opinion import length_feature, may_raise, rubric_key
from app.grading.freetext.signals import without_padding
from app.packs.rubric import Rubric

log = logging.getLogger(__name__)

ARTEFACT = Path(__file__).with_name("embedding_verdict.json")
VERDICTS = ("incorrect", "partial", "correct")
SURE = 0.7  # the top probability needed to move a verdict (round 21, fixed before reading)
MOVES = frozenset({("partial", "correct"), ("correct", "partial"), ("partial", "incorrect")})
# The trainer (round 21's): the penalty per question picked from PENALTIES (x 1/100) by the
# most exact verdicts over INNER_SPLITS groups of the training personas, then refit.
PENALTIES = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0)
INNER_SPLITS = 4
STEPS = 150
SEED = 21
DIGITS = 5

Features = dict[str, float]


def embedded_text(answer: str) -> str:
    """The answer as the model reads it: prose after the padding cut (signals.without_padding),
    code units as written - words appended as padding never reach the encoder."""
    units = normalise(answer).units
    kept = [u.text if u.is_code else without_padding(u.text) for u in units]
    return " ".join(" ".join(kept).split()) or answer


def evidence_features(
    answer: str, verdict: str, tags: Iterable[str], evidence: Evidence | None
) -> Features:
    """What the rules read in the answer: their verdict, tells and caps, concepts, score."""
    named = list(tags)
    out = {f"v:{verdict}": 1.0, "length": length_feature(len(answer.split()))}
    out.update({f"t:{t}": 1.0 for t in named})
    out["tells"] = float(len(named))
    if evidence is not None:
        out.update({f"c:{c}": 1.0 for c in evidence.found})
        out.update({f"cap:{c}": 1.0 for c in evidence.caps})
        out["score"] = evidence.score
        out["no_credit"] = float(evidence.no_credit)
        out["empty"] = float(evidence.empty)
    return out


def may_move(tags: Sequence[str], evidence: Evidence | None) -> bool:
    """Only where the chain names no tell and the rules read no keyword list, injection or
    empty answer."""
    return not tags and evidence is not None and not evidence.no_credit and not evidence.empty


def could_move(verdict: str, tags: Sequence[str], evidence: Evidence | None) -> bool:
    """Whether any model output could move this verdict (else the answer is not encoded)."""
    return may_move(tags, evidence) and any(before == verdict for before, _ in MOVES)


@dataclass(frozen=True)
class Head:
    """One question's model: scores = bias + vector . rows[:384] + evidence . rows[columns]."""

    columns: dict[str, int]  # evidence feature -> its row after the embedding's
    rows: list[list[float]]  # (384 + len(columns)) x 3
    bias: list[float]

    def probabilities(self, vector: Sequence[float], feats: Features) -> list[float]:
        scores = list(self.bias)
        for value, row in zip(vector, self.rows[:DIMENSIONS], strict=False):
            for k in range(3):
                scores[k] += value * row[k]
        for key, value in feats.items():
            if (i := self.columns.get(key)) is not None:
                for k in range(3):
                    scores[k] += value * self.rows[DIMENSIONS + i][k]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        return [e / sum(exps) for e in exps]


def moved_verdict(
    head: Head,
    vector: Sequence[float],
    feats: Features,
    verdict: str,
    tags: Sequence[str],
    evidence: Evidence | None,
) -> str:
    """The chain's verdict, or the model's where it may move it, is at least `SURE` and the
    move is one of `MOVES`."""
    if not could_move(verdict, tags, evidence):
        return verdict
    p = head.probabilities(vector, feats)
    best = max(range(3), key=p.__getitem__)
    if p[best] < SURE or (verdict, VERDICTS[best]) not in MOVES:
        return verdict
    if VERDICTS[best] == "correct" and evidence is not None and not may_raise(evidence):
        return verdict  # round 27: no raise with a required concept missing (second_opinion)
    return VERDICTS[best]


# ---------------------------------------------------------------- the shipped artefact


@lru_cache(maxsize=128)
def _head(question_id: str, key: str) -> Head | None:
    entry = artefact_questions(ARTEFACT).get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key or not entry.get("rows"):
        return None
    return Head(dict(entry["columns"]), [list(r) for r in entry["rows"]], list(entry["bias"]))


def head_for(question_id: str, rubric: Rubric) -> Head | None:
    """The shipped model of this question, if trained on exactly this rubric and this encoder."""
    if not _artefact_matches_encoder():
        return None
    return _head(question_id, rubric_key(rubric))


@lru_cache(maxsize=1)
@uncounted()
def _artefact_matches_encoder() -> bool:
    encoder = read_artefact(ARTEFACT).get("encoder_sha256")
    if encoder != INT8_SHA256:
        log.warning(
            "free-text embedding verdict off: %s is missing or was trained for another encoder "
            "(python -m app.grading.freetext.embedding_verdict train)",
            ARTEFACT.name,
        )
        return False
    return True


# ---------------------------------------------------------------- training (numpy)


@dataclass(frozen=True)
class Fitted:
    mean: Any
    scale: Any
    weights: Any  # (features, 3), on standardised columns
    bias: Any
    penalty: float

    def scores(self, x: Any) -> Any:
        return ((x - self.mean) / self.scale) @ self.weights + self.bias


def fit_logistic(x: Any, y: Any, penalties: Sequence[float]) -> list[Fitted]:
    """Multinomial logistic regression, accelerated gradient descent warm-started from the
    strongest penalty down (round 21's, benchmarks/freetext_embedding_verdict.py)."""
    import numpy as np

    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = np.concatenate([(x - mean) / scale, np.ones((len(x), 1))], 1)
    target = np.eye(3)[y]
    lipschitz = 0.5 * float(np.linalg.eigvalsh(z.T @ z / len(z))[-1])
    w = np.zeros((z.shape[1], 3))
    out: list[Fitted] = []
    for p in sorted(penalties, reverse=True):
        alpha = p / 100
        step = 1 / (lipschitz + alpha)
        ahead, previous = w.copy(), w.copy()
        for t in range(1, (STEPS if not out else STEPS // 3) + 1):
            logits = z @ ahead
            prob = np.exp(logits - logits.max(1, keepdims=True))
            prob /= prob.sum(1, keepdims=True)
            grad = z.T @ (prob - target) / len(z)
            grad[:-1] += alpha * ahead[:-1]
            w = ahead - step * grad
            ahead = w + (t - 1) / (t + 2) * (w - previous)
            previous = w
        out.append(Fitted(mean, scale, w[:-1].copy(), w[-1].copy(), p))
    return sorted(out, key=lambda m: PENALTIES.index(m.penalty))


def fit(x: Any, y: Any, groups: Sequence[str]) -> Fitted:
    """The penalty with the most exact verdicts on inner held-out persona groups, then refit."""
    import random

    import numpy as np

    names = sorted(set(groups))
    random.Random(SEED).shuffle(names)  # noqa: S311 - inner folds, not secrets
    split = {g: i % INNER_SPLITS for i, g in enumerate(names)}
    inner = np.array([split[g] for g in groups])
    right = np.zeros(len(PENALTIES))
    for k in range(INNER_SPLITS):
        train, test = inner != k, inner == k
        if test.sum() == 0 or len(set(y[train].tolist())) < 2:
            continue
        for i, model in enumerate(fit_logistic(x[train], y[train], PENALTIES)):
            right[i] += (model.scores(x[test]).argmax(1) == y[test]).sum()
    return fit_logistic(x, y, [PENALTIES[int(right.argmax())]])[0]


@dataclass(frozen=True)
class Example:
    """One tune answer as training reads it."""

    question_id: str
    persona: str
    label: str
    text: str  # embedded_text(answer)
    feats: Features


def design(examples: Sequence[Example], vectors: Mapping[str, Sequence[float]]) -> Any:
    """Rows: the embedding, then the evidence columns (every feature name seen, sorted)."""
    import numpy as np

    keys = sorted({k for e in examples for k in e.feats})
    column = {k: i for i, k in enumerate(keys)}
    ev = np.zeros((len(examples), len(keys)))
    for i, e in enumerate(examples):
        for k, v in e.feats.items():
            ev[i, column[k]] = v
    emb = np.array([vectors[e.text] for e in examples], dtype=float)
    return np.concatenate([emb, ev], 1), column


def head_of(model: Fitted, columns: dict[str, int]) -> dict[str, Any]:
    """The fitted model with the standardisation folded into its weights, rounded."""
    rows = model.weights / model.scale[:, None]
    bias = model.bias - model.mean @ rows
    return {
        "columns": columns,
        "rows": [[round(float(v), DIGITS) for v in r] for r in rows],
        "bias": [round(float(v), DIGITS) for v in bias],
        "penalty": model.penalty,
    }


def tune_examples() -> tuple[list[Example], dict[str, Rubric]]:
    """Every tune answer of the core pack with the rules' reading (rules as written)."""
    from app.grading.freetext.evaluation import core_labelled, core_rules_rows, free_text_rubrics

    core = core_labelled()
    rows = core_rules_rows()  # graded once per process, shared with the other builds
    tune = sorted(
        (r for r in rows if r.side == "tune"),
        key=lambda r: (r.question_id, r.persona, r.source, r.answer),
    )
    rubrics = free_text_rubrics(core.pack)
    examples = [
        Example(
            r.question_id,
            r.persona,
            r.label,
            embedded_text(r.answer),
            evidence_features(r.answer, r.verdict, r.named_tags, r.evidence),
        )
        for r in tune
    ]
    return examples, rubrics


def inputs_hash(examples: Sequence[Example]) -> str:
    """What a training reads, hashed: fresh iff equal (no float retrain needed to check)."""
    digest = hashlib.sha256()
    constants = [INT8_SHA256, TOKENIZER_SHA256, MAX_PIECES, PENALTIES, INNER_SPLITS, STEPS, SEED]
    digest.update(json.dumps(constants).encode())
    for e in examples:
        row = [e.question_id, e.persona, e.label, e.text, sorted(e.feats.items())]
        digest.update(json.dumps(row).encode() + b"\n")
    return digest.hexdigest()


def build_artefact(
    examples: Sequence[Example],
    rubrics: Mapping[str, Rubric],
    vectors: Mapping[str, Sequence[float]],
) -> dict[str, Any]:
    import numpy as np

    questions: dict[str, Any] = {}
    for qid in sorted({e.question_id for e in examples}):
        mine = [e for e in examples if e.question_id == qid]
        x, columns = design(mine, vectors)
        y = np.array([VERDICTS.index(e.label) for e in mine])
        model = fit(x, y, [e.persona for e in mine])
        questions[qid] = {"rubric": rubric_key(rubrics[qid]), "examples": len(mine)}
        questions[qid].update(head_of(model, columns))
    return {
        "about": "issue 14 embedding verdict; python -m app.grading.freetext.embedding_verdict "
        "train",
        "encoder_sha256": INT8_SHA256,
        "inputs": inputs_hash(examples),
        "sure_at": SURE,
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({e.persona for e in examples}),
            "answers": len(examples),
        },
        "questions": questions,
    }


def embed_all(texts: Iterable[str], cache: Path | None = None) -> dict[str, list[float]]:
    """text -> vector with the shipped encoder; `cache`: an .npz of vectors by sha1 of the text
    (round 21's format), read and filled."""
    import numpy as np

    from app.grading.freetext.encoder import Encoder, configured_path

    stored: dict[str, Any] = {}
    if cache is not None and cache.is_file():
        with np.load(cache) as f:
            stored = {k: f[k] for k in f.files}
    out: dict[str, list[float]] = {}
    encoder: Encoder | None = None
    for text in sorted(set(texts)):
        key = hashlib.sha1(text.encode("utf-8")).hexdigest()  # noqa: S324 - a cache key
        if key not in stored:
            encoder = encoder or Encoder(configured_path())
            stored[key] = np.array(encoder(text), dtype=np.float32)
        out[text] = [float(v) for v in stored[key]]
    if cache is not None and encoder is not None:
        np.savez(cache, **stored)
    return out


def main(argv: list[str]) -> int:
    """`train [--check] [--cache FILE.npz]`."""
    if argv[:1] != ["train"]:
        print("usage: python -m app.grading.freetext.embedding_verdict train [--check] [--cache F]")
        return 2
    examples, rubrics = tune_examples()
    if "--check" in argv:
        same = read_artefact(ARTEFACT).get("inputs") == inputs_hash(examples)
        print("up to date" if same else f"{ARTEFACT} is out of date: retrain")
        return 0 if same else 1
    cache = Path(argv[argv.index("--cache") + 1]) if "--cache" in argv else None
    vectors = embed_all((e.text for e in examples), cache)
    ARTEFACT.write_text(dump_artefact(build_artefact(examples, rubrics, vectors)), "utf-8")
    print(f"wrote {ARTEFACT}")
    return 0


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import embedding_verdict

    raise SystemExit(embedding_verdict.main(sys.argv[1:]))
