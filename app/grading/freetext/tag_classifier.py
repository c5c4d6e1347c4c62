"""A learned per-tag tell finder (issue 14, round 19): where the rules and the nearest
labelled answers name no tell, a per-question, per-tag linear model (ridge regression)
over the answer's words may name one.

Why it exists: the commonest miss on every fresh set is a labelled tell no phrasing names,
and the nearest-answer vote (neighbours.py) reaches few new voices. This reads every
labelled answer of the question at once, one weight per word and tag, instead of seven
neighbours. Its features are the neighbours' (`neighbours.bag`: lemmas and adjacent pairs,
"n't" as "not", the update verbs one word), present or not, each answer's vector of unit
length. It names a tag only where no tell is named, on an answer graded below correct and
not a keyword list or an injection (`neighbours.eligible`), when the tag's score reaches the
tag's cut (learned in folds of the training writers since round 21; `THRESHOLD` for an
artefact without one), the rules credit the answer with no concept that answers stating the
tag lack (round 21), and each of the words that carry it most is stated in the answer's own
prose: not only denied, asked, said of another framework or inside an open condition
(neighbours' reader), and not only in code or inside double quotes (round 21). Its cap is
the tag's cap (tell_caps.py). It never raises a verdict. Since round 33 it also reads
answers the rules graded correct with no tell (`on_correct`), at each tag's cut plus one margin
learned in folds: the wrong claim beside a right core that no phrasing reads.

`python -m app.grading.freetext.tag_classifier train [--check]` writes
`tag_classifier.json` beside this file (labelled_tag_classifier.py trains it, with numpy;
grading reads the JSON in pure Python). `benchmarks/freetext.py --tag-classifier` reads it
leave one persona out and leave one final round out. On by default since round 34 (app/config.py
`freetext_tag_classifier`): docs/freetext-rounds.md, rounds 19, 21, 33 and 34, has the figures.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.grading.freetext.artefacts import artefact_main, artefact_questions
from app.grading.freetext.fitting import Evidence, evidence_of
from app.grading.freetext.matching import Hit, find_hits
from app.grading.freetext.neighbours import (
    Bag,
    bag,
    eligible,
    how_stated,
    prompt_key,
    with_suggested_tell,
    word_phrasing,
)
from app.grading.freetext.normalise import normalise
from app.grading.freetext.quotations import quoted
from app.grading.results import GradeResult
from app.packs.rubric import Misconception
from app.packs.schema import FreeText

ARTEFACT = Path(__file__).with_name("tag_classifier.json")
THRESHOLD = 0.5  # the cut of an artefact that stores none (half way from 0 to 1)
MARKS = 3  # the words that carry the tag most: none may be only denied in the answer


@dataclass(frozen=True)
class TagModel:
    """One tag's linear score: bias and weight per feature (a word or word pair), fitted to
    1 where a labelled answer carries the tag and 0 where not (ridge regression). `floor`:
    the fewest features an answer's vector is spread over (round 33, `scale_of`)."""

    bias: float
    weights: Mapping[str, float]
    floor: int = 0

    def score(self, features: Iterable[str], scale: float) -> float:
        return self.bias + scale * sum(self.weights.get(f, 0.0) for f in features)


Models = Mapping[str, TagModel]  # tag -> model, for one question


def scale_of(words: Bag, floor: int = 0) -> float:
    """Each present feature's value: the answer's vector has unit length, or less for an
    answer of fewer features than `floor` (the median of the question's training answers,
    round 33). At unit length a one-sentence answer gives each of its few words two or three
    times the value any typical training answer did, so its score was an extrapolation that
    named tells on true one-line statements in the tag's words ("for a big model the speedup
    is small"); a short answer says less, and now scores nearer the tag's base rate."""
    return 1.0 / math.sqrt(max(len(words), floor)) if words else 0.0


def best_tag(models: Models, words: Bag, tags: Iterable[str]) -> tuple[str, float] | None:
    """The rubric tag (one of `tags`) with the highest score, if any model is held."""
    wanted = set(tags)
    scored = [
        (m.score(words, scale_of(words, m.floor)), t) for t, m in models.items() if t in wanted
    ]
    if not scored:
        return None
    p, tag = max(scored, key=lambda s: (s[0], [-ord(c) for c in s[1]]))
    return tag, p


def marks(model: TagModel, words: Bag) -> list[str]:
    """The answer's single words that carry the tag most (largest positive weights)."""
    found = sorted(
        (w for w in words if "|" not in w and model.weights.get(w, 0.0) > 0),
        key=lambda w: (-model.weights[w], w),
    )
    return found[:MARKS]


def reads_as_stated(text: str, carrying: list[str]) -> bool:
    """Whether every word that carries the tag is stated somewhere in the answer's own prose:
    not only denied, asked, conditional or said of another framework (neighbours' reader,
    matching.find_hits), and not only inside double quotes or in code (`in_own_prose`)."""
    said = how_stated(text, carrying)
    own = in_own_prose(text, [w for w, states in said.items() if True in states])
    return all(True in states and own[w] for w, states in said.items())


def in_own_prose(text: str, carrying: list[str]) -> dict[str, bool]:
    """Each word -> whether some use of it states it in a prose sentence, outside double quotes
    (round 21). A bag of words reads no code: where a call sits in a block is structure the
    rules read, and a tape named `t1` says nothing of a belief. A quoted statement is
    mentioned, not made ('"Passing model.variables is fine" is wrong'; quotations.py)."""
    prose = tuple(u for u in normalise(text).units if not u.is_code)
    return {
        word: any(_own(hit) for hit in find_hits(prose, [word_phrasing(word)])) for word in carrying
    }


def _own(hit: Hit) -> bool:
    said_elsewhere = hit.foreign or hit.conditional or quoted(hit.sentence, hit.snippet)
    return hit.affirmed and not said_elsewhere


def suggested_tag(
    models: Models,
    words: Bag,
    tags: Iterable[str],
    text: str,
    cuts: Mapping[str, float | None] | None = None,
    against: Mapping[str, Iterable[str]] | None = None,
    found: Iterable[str] = (),
) -> str | None:
    """The tag the classifier names for this answer, or None. `cuts`: each tag's, learned in
    folds (None for a tag: it never paid in them, it is never named); a tag not in `cuts`,
    or no `cuts`: `THRESHOLD`. `against`: per tag, the concepts answers stating it lack;
    none of them may be among the concepts the rules credit the answer with (`found`)."""
    best = best_tag(models, words, tags)
    if best is None:
        return None
    tag, score = best
    cut = (cuts or {}).get(tag, THRESHOLD)
    if cut is None or score < cut or set((against or {}).get(tag, ())) & set(found):
        return None
    return tag if reads_as_stated(text, marks(models[tag], words)) else None


def message(tell: Misconception) -> str:
    name = tell.label or tell.tag
    return (
        f"Likely misconception \u2013 {name}: answers worded like yours were judged to state "
        f"it (no sentence of yours matched it word for word). {tell.correction}"
    )


def add_suggestion(
    question: FreeText, answer: str, result: GradeResult, caps: Mapping[str, str] | None = None
) -> GradeResult:
    """The result with the classifier's tell, if the rules (and neighbours) named none,
    capped as grading caps that tag (`caps`, tell_caps.py; None: the rubric's)."""
    rubric = question.rubric
    evidence = evidence_of(rubric, result)
    models, below, against, correct = models_for(question)
    cuts = cuts_that_apply(evidence, result.verdict, result.misconceptions, below, correct)
    if cuts is None:
        return result
    tells = {m.tag: m for m in rubric.misconceptions}
    words = bag(answer)
    found = evidence.found
    tag = suggested_tag(models, words, tells, answer, cuts, against, found) if models else None
    if tag is None:
        return result
    return with_suggested_tell(
        rubric, result, evidence, tells[tag], caps, "tag_classifier", message
    )


def cuts_that_apply(
    evidence: Evidence,
    verdict: str,
    named: Sequence[str],
    below: Mapping[str, float | None],
    correct: Mapping[str, float | None],
) -> Mapping[str, float | None] | None:
    """The cuts the classifier reads this answer at: the tags' own (`below`) on an answer graded
    below correct with no tell, their cuts on correct answers (`correct`) on one graded correct
    with no tell (round 33), None where it never acts. The grader and the chain both ask here."""
    if eligible(evidence, verdict, named):
        return below
    return correct if on_correct(evidence, verdict, named) else None


def on_correct(evidence: Evidence, verdict: str, named: Sequence[str]) -> bool:
    """An answer the rules graded correct with no tell, not a keyword list or an injection
    (round 33): the classifier may name a tag there at the tag's cut on correct answers (its
    cut + a margin learned in folds, labelled_tag_classifier.margin_on_correct), the p>c
    cell: a wrong claim beside a right core, which no phrasing reads."""
    return verdict == "correct" and not named and not evidence.no_credit and not evidence.empty


def models_of(stored: object) -> dict[str, TagModel]:
    """A question's models as stored ({tag: {"bias", "weights"}}); {} if malformed."""
    try:
        return {
            str(t): TagModel(
                float(m["bias"]),
                {str(w): float(x) for w, x in m["weights"].items()},
                int(m.get("floor", 0)),
            )
            for t, m in stored.items()  # type: ignore[attr-defined]
        }
    except (KeyError, TypeError, AttributeError, ValueError):
        return {}


def cuts_of(stored: object, key: str = "cut") -> dict[str, float | None]:
    """Each tag's stored cut (`key`): a number, or null (never named); an artefact from before
    round 21 stores none (`THRESHOLD` then applies). Cuts on correct answers ("cut_on_correct",
    round 33): a tag without one is never named on an answer graded correct."""
    if not isinstance(stored, dict):
        return {}
    out: dict[str, float | None] = {}
    for tag, model in stored.items():
        if isinstance(model, dict) and (key in model or key != "cut"):
            cut = model.get(key)
            number = isinstance(cut, int | float) and not isinstance(cut, bool)
            out[str(tag)] = float(cut) if number and cut is not None else None
    return out


def against_of(stored: object) -> dict[str, tuple[str, ...]]:
    """Each tag's stored concepts against it (none before round 21)."""
    if not isinstance(stored, dict):
        return {}
    return {
        str(t): tuple(str(c) for c in m["against"])
        for t, m in stored.items()
        if isinstance(m, dict) and isinstance(m.get("against"), list)
    }


Cuts = dict[str, float | None]
Shipped = tuple[dict[str, TagModel], Cuts, dict[str, tuple[str, ...]], Cuts]


@lru_cache(maxsize=64)
def _shipped(question_id: str) -> tuple[str, Shipped]:
    stored = artefact_questions(ARTEFACT).get(question_id)
    if not isinstance(stored, dict):
        return "", ({}, {}, {}, {})
    tags = stored.get("tags")
    shipped = (models_of(tags), cuts_of(tags), against_of(tags), cuts_of(tags, "cut_on_correct"))
    return str(stored.get("prompt", "")), shipped


def models_for(question: FreeText) -> Shipped:
    """The shipped models, cuts, concepts against each tag and cuts on answers graded correct,
    if this question's labelled answers answered this very prompt."""
    prompt, shipped = _shipped(question.id)
    return shipped if prompt == prompt_key(question) else ({}, {}, {}, {})


def main(argv: list[str]) -> int:
    from app.grading.freetext.labelled_tag_classifier import build_artefact, dumps

    return artefact_main(
        argv, "app.grading.freetext.tag_classifier", ARTEFACT, lambda: dumps(build_artefact())
    )


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import tag_classifier

    raise SystemExit(tag_classifier.main(sys.argv[1:]))
