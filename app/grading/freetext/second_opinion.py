"""A learned second opinion on the rules' verdict (issue 14 round 5, step 3; round 7).

Per question, a logistic regression (L2-regularised; applied in pure Python) over the answer's word
lemmas, the rubric concepts the rules found and their score, trained on labelled answers
the rules graded partial or correct without naming a misconception. It may move such an
answer across the partial/correct line when it is confident (probability of "correct" at
least `RAISE` or at most `LOWER`); it never touches an answer with a named misconception,
a keyword list, an injection or an incorrect verdict. It is read leave-one-persona-out by
`benchmarks/freetext.py --second-opinion` (docs/freetext-rounds.md, "Round 5").

Shipped (issue 14, "Second opinion, shipped"): `python -m app.grading.freetext.second_opinion
train` trains one model per question of the core pack on the labelled tune personas
(meta/sides.yaml), exactly as the benchmark does for held-out personas, and writes
`second_opinion.json` beside this file (weights rounded, keys sorted, with the data it came
from). The grader applies it when the setting `freetext_second_opinion` is on, only to a
question whose rubric is byte-for-byte the one it was trained on (an uploaded pack reusing a
question id gets none).

Round 7 (docs/freetext-rounds.md, "Round 7: a verdict that resists padding"): words count only from
prose that survives the padding cut (`signals.without_padding`, sentence by sentence; code is
read by the rules' phrasings, not as words), and only words that a run of would be cut as
padding: a word that reads as sentence structure (glue, a verb form) never counts, so the
model's top words appended to an answer are cut before it reads them. A second model per
question, trained on the answers the rules grade partial, may lower a partial answer to
incorrect when it is sure (probability of "incorrect" at least `INCORRECT`); since round 21
also a correct answer the first model lowers (read as partial, then by the second model). A
raise needs the rules' evidence alone (the model with the words left out) at `EVIDENCE_FLOOR`:
words only carry an answer the last stretch, so words a candidate adds cannot make the call.

Round 27 (docs/freetext-rounds.md, "Round 27: the second opinion and required concepts"): no
raise while a `required` concept of the rubric is missing (`Evidence.required_missing`: not
credited by the rules, a near-miss included). Such a partial did not answer what the
interviewer asked, as an answer naming a misconception did not; only the answer's other
concepts, short of the correct threshold, are the second opinion's to weigh.
"""

from __future__ import annotations

import hashlib
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.artefacts import artefact_main, artefact_questions, dump_artefact
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.lemmas import lemma
from app.grading.freetext.normalise import Unit, normalise
from app.grading.freetext.signals import MIN_PADDING_WORDS, is_padding, without_padding
from app.packs.rubric import Rubric

ARTEFACT = Path(__file__).with_name("second_opinion.json")
DIGITS = 4  # weights are rounded to this many decimals in the artefact
RAISE = 0.8  # probability of "correct" needed to raise a partial
# At most this p(correct) to lower a correct: 0.2 in rounds 7-15; round 16 refitted it leave-
# one-persona-out as the highest cut whose under-credit is no higher than 0.2's (every fold).
LOWER = 0.25
# Probability of "incorrect" needed to lower a partial: 0.7 in rounds 7-13; round 14 (docs/
# freetext-rounds.md, "Round 14: the verdict line") refitted it leave-one-persona-out as the
# lowest cut whose under-credit on the other personas is no higher than 0.7's (every fold: 0.575).
# Round 16 ("Round 16: the verdict line (engineer V)"), retrained with round 15's set in tune:
# the lowest cut whose under-credit is no higher than 0.575's is 0.55 in every fold.
INCORRECT = 0.55
EVIDENCE_FLOOR = 0.7  # p(correct) from the rules' evidence alone (no words) needed to raise
RAISE_NEEDS_REQUIRED = True  # round 27: no raise with a required concept missing (benchmark: off)
_WORD = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]")  # as signals.py: identifiers stay whole
_STOP = frozenset(
    """the a an and or of to in on is are be it this that for with as by at from you we i
    they was were so if then than but not no do does can will would should""".split()  # noqa: SIM905
)

Features = dict[str, float]


def length_feature(words: int) -> float:
    """An answer's length as every learned part reads it: log1p of its words, scaled to ~1."""
    return math.log1p(words) / 5


def features(text: str, evidence: Evidence, units: Sequence[Unit] | None = None) -> Features:
    """Content-word lemmas of the prose left after the padding cut (binary), rule concepts
    found, the rules' score and length. `units`: the answer as the rules read it
    (`normalise(text).units`), when the caller has it already."""
    if units is None:
        units = normalise(text).units
    prose = [
        w.lower() for u in units if not u.is_code for w in _WORD.findall(without_padding(u.text))
    ]
    code = sum(len(_WORD.findall(u.text)) for u in units if u.is_code)
    found: Features = {f"w:{key}": 1.0 for w in prose if (key := _content_key(w))}
    found.update({f"c:{c}": 1.0 for c in evidence.found})
    found["score"] = evidence.score
    found["length"] = length_feature(len(prose) + code)
    return found


@lru_cache(maxsize=8192)
def _content_key(word: str) -> str | None:
    """The lemma a word counts under, or None. A lemma that reads as sentence structure
    (signals.py: glue or a verb form) is never a feature: a run of such words survives the
    padding cut, so an attacker appending the model's top words could feed it. Asked of
    the padding reading itself, so the two stay one definition."""
    if word in _STOP or len(word) <= 2:
        return None
    key = lemma(word)
    return key if is_padding(" ".join([key] * MIN_PADDING_WORDS)) else None


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
    """Full-batch gradient descent on the log loss; None without both classes. (numpy, which
    lemminflect already brings into the process, only to train: the same updates as a loop
    over the examples, fast enough for the benchmark's 23 leave-one-persona-out folds.)"""
    import numpy as np

    if len({y for _, y in examples}) < 2:
        return None
    keys = sorted({k for feats, _ in examples for k in feats})
    column = {k: i for i, k in enumerate(keys)}
    x = np.zeros((len(examples), len(keys)))
    for row, (feats, _) in enumerate(examples):
        for key, value in feats.items():
            x[row, column[key]] = value
    y = np.array([1.0 if label else 0.0 for _, label in examples])
    weights, bias, n = np.zeros(len(keys)), 0.0, len(examples)
    for _ in range(epochs):
        error = 1 / (1 + np.exp(-np.clip(x @ weights + bias, -30.0, 30.0))) - y
        weights -= rate * (x.T @ error / n + l2 * weights / n)
        bias -= rate * float(error.sum()) / n
    return Model(dict(zip(keys, weights.tolist(), strict=True)), bias)


def second_verdict(
    model: Model | None,
    feats: Features,
    evidence: Evidence,
    verdict: str,
    incorrect: Model | None = None,
) -> str:
    """The rules' verdict, or the other side of the partial/correct line when `model` is
    confident, or incorrect for a partial answer when `incorrect` is sure; never for an
    answer with a named misconception, a keyword list or an injection, and never raised to
    correct while a required concept is missing."""
    if not eligible(evidence, verdict):
        return verdict
    p = model.probability(feats) if model else 0.5
    if (
        verdict == "partial"
        and may_raise(evidence)
        and p >= RAISE
        and model
        and _evidence_alone(model, feats) >= EVIDENCE_FLOOR
    ):
        return "correct"
    if verdict == "correct" and p <= LOWER:
        # Lowered, then read as a partial answer (round 21, docs/freetext-rounds.md "Round 21:
        # the verdict cells (engineer P)"; before, it stopped at partial).
        verdict = "partial"
    if verdict == "partial" and incorrect and incorrect.probability(feats) >= INCORRECT:
        return "incorrect"
    return verdict


def may_raise(evidence: Evidence) -> bool:
    """Whether a learned part may raise this answer to correct: every required concept of the
    rubric credited by the rules (round 27; the embedding verdict asks the same)."""
    return not (RAISE_NEEDS_REQUIRED and evidence.required_missing)


def _evidence_alone(model: Model, feats: Features) -> float:
    """p(correct) with the words left out: what the rules' evidence (concepts, score) and the
    answer's length say. Words may carry an answer the last stretch to RAISE, never further:
    words are what padding supplies (round 7: a glue word before each of the model's top
    words reads as prose and survives the padding cut)."""
    return model.probability({k: v for k, v in feats.items() if not k.startswith("w:")})


def rubric_key(rubric: Rubric) -> str:
    """A fingerprint of the rubric a model was trained for (any edit changes it).

    Remembered per rubric object (rubrics are frozen): the learned parts ask for it about
    four times an answer, and serialising the rubric each time was ~5% of an answer's
    grading as shipped (round 25). The rubric is held with its key, so its id is not reused
    while remembered."""
    held = _RUBRIC_KEYS.get(id(rubric))
    if held is not None and held[0] is rubric:
        return held[1]
    key = hashlib.sha256(rubric.model_dump_json().encode()).hexdigest()[:16]
    if len(_RUBRIC_KEYS) >= _RUBRIC_KEYS_HELD:
        _RUBRIC_KEYS.clear()
    _RUBRIC_KEYS[id(rubric)] = (rubric, key)
    return key


_RUBRIC_KEYS: dict[int, tuple[Rubric, str]] = {}
_RUBRIC_KEYS_HELD = 256  # rubrics remembered (a pack holds tens of free-text questions)


def _rounded(model: Model | None) -> dict[str, Any] | None:
    if model is None:
        return None
    weights = {k: round(w, DIGITS) for k, w in model.weights.items()}
    return {"bias": round(model.bias, DIGITS), "weights": {k: w for k, w in weights.items() if w}}


def build_artefact() -> dict[str, Any]:
    """Train one model per free-text question of the core pack on the labelled tune
    personas (the rules' verdicts, the second opinion off) and describe the data."""
    from app.grading.freetext.evaluation import core_labelled, core_rules_rows, free_text_rubrics

    core = core_labelled()
    pack = core.pack
    rows = core_rules_rows()  # graded once per process, shared with the other builds
    tune = sorted(
        (r for r in rows if r.side == "tune" and r.evidence),
        key=lambda r: (r.question_id, r.persona, r.source, r.answer),
    )
    rubrics = free_text_rubrics(pack)
    questions: dict[str, Any] = {}
    for qid in sorted({r.question_id for r in rows}):
        rubric = rubrics[qid]
        examples = [
            (features(r.answer, r.evidence), r)
            for r in tune
            if r.question_id == qid and r.evidence and eligible(r.evidence, r.verdict)
        ]
        partial = [(f, r.label == "incorrect") for f, r in examples if r.verdict == "partial"]
        questions[qid] = {
            "rubric": rubric_key(rubric),
            "examples": len(examples),
            "model": _rounded(train([(f, r.label == "correct") for f, r in examples])),
            "incorrect_examples": len(partial),
            "incorrect_model": _rounded(train(partial)),
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
        "incorrect_at": INCORRECT,
        "raise_evidence_at": EVIDENCE_FLOOR,
        "questions": questions,
    }


dumps = dump_artefact


def _questions() -> dict[str, Any]:
    return artefact_questions(ARTEFACT)


@lru_cache(maxsize=128)
def _model(question_id: str, key: str, which: str = "model") -> Model | None:
    entry = _questions().get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key or not entry.get(which):
        return None
    return Model(dict(entry[which]["weights"]), float(entry[which]["bias"]))


def model_for(question_id: str, rubric: Rubric) -> Model | None:
    """The shipped partial/correct model of this question, if it was trained on exactly this
    rubric."""
    return _model(question_id, rubric_key(rubric))


def incorrect_model_for(question_id: str, rubric: Rubric) -> Model | None:
    """The shipped partial/incorrect model of this question (same condition)."""
    return _model(question_id, rubric_key(rubric), "incorrect_model")


def main(argv: list[str]) -> int:
    return artefact_main(
        argv, "app.grading.freetext.second_opinion", ARTEFACT, lambda: dumps(build_artefact())
    )


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import second_opinion

    raise SystemExit(second_opinion.main(sys.argv[1:]))
