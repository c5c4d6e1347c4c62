"""A learned second opinion on the partial/correct call only (issue 14 round 5, step 3).

Per question, a logistic regression (pure Python, L2-regularised) over the answer's word
lemmas, the rubric concepts the rules found and their score, trained on labelled answers
the rules graded partial or correct without naming a misconception. It may move such an
answer across the partial/correct line when it is confident (probability of "correct" at
least `RAISE` or at most `LOWER`); it never touches an answer with a named misconception,
a keyword list, an injection or an incorrect verdict. It is read leave-one-persona-out by
`benchmarks/freetext.py --second-opinion` (docs/freetext.md, "Round 5").

Shipped (issue 14, "Second opinion, shipped"): `python -m app.grading.freetext.second_opinion
train` trains one model per question of the core pack on the labelled tune personas
(meta/sides.yaml), exactly as the benchmark does for held-out personas, and writes
`second_opinion.json` beside this file (weights rounded, keys sorted, with the data it came
from). The grader applies it when the setting `freetext_second_opinion` is on, only to a
question whose rubric is byte-for-byte the one it was trained on (an uploaded pack reusing a
question id gets none).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.fitting import Evidence
from app.grading.freetext.lemmas import lemma
from app.packs.rubric import Rubric

ARTEFACT = Path(__file__).with_name("second_opinion.json")
DIGITS = 4  # weights are rounded to this many decimals in the artefact
RAISE = 0.8  # probability of "correct" needed to raise a partial
LOWER = 0.2  # at most this to lower a correct
_WORD = re.compile(r"[A-Za-z_][A-Za-z_.]+")
_STOP = frozenset(
    """the a an and or of to in on is are be it this that for with as by at from you we i
    they was were so if then than but not no do does can will would should""".split()  # noqa: SIM905
)

Features = dict[str, float]


def features(text: str, evidence: Evidence) -> Features:
    """Word lemmas present (binary), rule concepts found, the rules' score and length."""
    words = [w.lower() for w in _WORD.findall(text[:5_000])]
    found: Features = {f"w:{lemma(w)}": 1.0 for w in words if w not in _STOP and len(w) > 2}
    found.update({f"c:{c}": 1.0 for c in evidence.found})
    found["score"] = evidence.score
    found["length"] = math.log1p(len(words)) / 5
    return found


def eligible(evidence: Evidence, verdict: str) -> bool:
    return verdict in ("partial", "correct") and not evidence.caps and not evidence.no_credit


@dataclass(frozen=True)
class Model:
    weights: dict[str, float]
    bias: float

    def probability(self, feats: Features) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def train(
    examples: Sequence[tuple[Features, bool]], l2: float = 1.0, epochs: int = 200, rate: float = 0.5
) -> Model | None:
    """Full-batch gradient descent on the log loss; None without both classes."""
    if len({y for _, y in examples}) < 2:
        return None
    weights: dict[str, float] = {}
    bias, n = 0.0, len(examples)
    for _ in range(epochs):
        grad: dict[str, float] = {}
        grad_bias = 0.0
        model = Model(weights, bias)
        for feats, label in examples:
            error = model.probability(feats) - (1.0 if label else 0.0)
            grad_bias += error
            for key, value in feats.items():
                grad[key] = grad.get(key, 0.0) + error * value
        for key in set(grad) | set(weights):
            w = weights.get(key, 0.0)
            weights[key] = w - rate * (grad.get(key, 0.0) / n + l2 * w / n)
        bias -= rate * grad_bias / n
    return Model(dict(weights), bias)


def second_verdict(model: Model | None, feats: Features, evidence: Evidence, verdict: str) -> str:
    """The rules' verdict, or the other side of the partial/correct line when the model is
    confident; never for an answer with a named misconception."""
    if model is None or not eligible(evidence, verdict):
        return verdict
    p = model.probability(feats)
    if verdict == "partial" and p >= RAISE:
        return "correct"
    if verdict == "correct" and p <= LOWER:
        return "partial"
    return verdict


def rubric_key(rubric: Rubric) -> str:
    """A fingerprint of the rubric a model was trained for (any edit changes it)."""
    return hashlib.sha256(rubric.model_dump_json().encode()).hexdigest()[:16]


def _rounded(model: Model | None) -> dict[str, Any] | None:
    if model is None:
        return None
    weights = {k: round(w, DIGITS) for k, w in model.weights.items()}
    return {"bias": round(model.bias, DIGITS), "weights": {k: w for k, w in weights.items() if w}}


def build_artefact() -> dict[str, Any]:
    """Train one model per free-text question of the core pack on the labelled tune
    personas (the rules' verdicts, the second opinion off) and describe the data."""
    from app.config import REPO_ROOT
    from app.grading.freetext.evaluation import (
        grade_rows,
        load_persona_answers,
        load_sides,
        load_tag_map,
    )
    from app.packs.loader import load_pack
    from app.packs.schema import FreeText

    labelled = REPO_ROOT / "tests" / "grading" / "freetext_labelled"
    pack = load_pack(REPO_ROOT / "questions" / "gradient-tape").pack
    if pack is None:
        raise RuntimeError("the core pack does not load")
    answers, _ = load_persona_answers(labelled)
    sides = load_sides(labelled / "meta" / "sides.yaml")
    tag_map = load_tag_map(labelled / "meta" / "tag-map.yaml")
    rows, _ = grade_rows(pack, answers, tag_map=tag_map, sides=sides)
    tune = sorted(
        (r for r in rows if r.side == "tune" and r.evidence),
        key=lambda r: (r.question_id, r.persona, r.source, r.answer),
    )
    rubrics = {
        q.question.id: q.question.rubric for q in pack.questions if isinstance(q.question, FreeText)
    }
    questions: dict[str, Any] = {}
    for qid in sorted({r.question_id for r in rows}):
        rubric = rubrics[qid]
        examples = [
            (features(r.answer, r.evidence), r.label == "correct")
            for r in tune
            if r.question_id == qid and r.evidence and eligible(r.evidence, r.verdict)
        ]
        questions[qid] = {
            "rubric": rubric_key(rubric),
            "examples": len(examples),
            "model": _rounded(train(examples)),
        }
    return {
        "about": "issue 14 second opinion; python -m app.grading.freetext.second_opinion train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({r.persona for r in tune}),
            "answers": len(tune),
            "examples": sum(q["examples"] for q in questions.values()),
        },
        "raise_at": RAISE,
        "lower_at": LOWER,
        "questions": questions,
    }


def dumps(artefact: dict[str, Any]) -> str:
    return json.dumps(artefact, sort_keys=True, indent=1) + "\n"


@lru_cache
def _loaded() -> dict[str, Any]:
    try:
        data = json.loads(ARTEFACT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=64)
def _model(question_id: str, key: str) -> Model | None:
    entry = _loaded().get("questions", {}).get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key or not entry.get("model"):
        return None
    return Model(dict(entry["model"]["weights"]), float(entry["model"]["bias"]))


def model_for(question_id: str, rubric: Rubric) -> Model | None:
    """The shipped model of this question, if it was trained on exactly this rubric."""
    return _model(question_id, rubric_key(rubric))


def main(argv: list[str]) -> int:
    if argv[:1] != ["train"]:
        print("usage: python -m app.grading.freetext.second_opinion train [--check]")
        return 2
    text = dumps(build_artefact())
    if "--check" in argv:
        same = ARTEFACT.is_file() and ARTEFACT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{ARTEFACT} is out of date: retrain")
        return 0 if same else 1
    ARTEFACT.write_text(text, encoding="utf-8")
    print(f"wrote {ARTEFACT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
