"""A learned second opinion on the partial/correct call only (issue 14 round 5, step 3).

Per question, a logistic regression (pure Python, L2-regularised) over the answer's word
lemmas, the rubric concepts the rules found and their score, trained on labelled answers
the rules graded partial or correct without naming a misconception. It may move such an
answer across the partial/correct line when it is confident (probability of "correct" at
least `RAISE` or at most `LOWER`); it never touches an answer with a named misconception,
a keyword list, an injection or an incorrect verdict. It is read leave-one-persona-out by
`benchmarks/freetext.py --second-opinion` and is not used in grading: it did not pay (see
docs/freetext.md, "Round 5").
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.grading.freetext.fitting import Evidence
from app.grading.freetext.lemmas import lemma

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
