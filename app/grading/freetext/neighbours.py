"""Nearest labelled answers suggest the tell the rules missed (issue 14, round 7).

On every fresh set the commonest miss is an answer labelled incorrect that the rules grade
partial because no tell phrasing fired: people state a known misconception in words no
phrasing fits. Other people, answering the same prompt, have stated it in similar words.
So, per question, the answer's words (lemmas, with "n't" read as "not") and word pairs are
weighted by rarity (tf-idf) and compared with the labelled tune answers (cosine). When the
rules named no tell and did not grade the answer correct, and at least `VOTES` of its `K`
nearest labelled answers, the nearest at least `MIN_SIMILARITY` alike, carry the same tag of
this rubric, that tag is named, with a message that says how it was found, and its cap
applies. It never raises a verdict, never touches an answer graded correct, a keyword list
or an injection, and adds nothing where a tell is already named.

`python -m app.grading.freetext.neighbours train` writes `neighbours.json` beside this file:
the labelled tune personas' answers as written, with their tags (meta/sides.yaml,
meta/tag-map.yaml); a test checks it equals a fresh build. Keeping the text, not its words,
makes the artefact depend on the labelled data alone (a change to normalise or the
retraction reader needs no rebuild); the words are read once per process, at first use
(~0.8 s for ~2,000 answers). The grader applies it when the setting
`freetext_neighbours` is on (off by default). `benchmarks/freetext.py --neighbours` reads
it leave-one-persona-out: each tune persona is graded with an index built without it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from app.grading.freetext.fitting import Evidence, Line, evidence_of, line_score, line_verdict
from app.grading.freetext.normalise import normalise
from app.grading.results import Feedback, GradeResult
from app.packs.rubric import Misconception, Rubric
from app.packs.schema import FreeText

ARTEFACT = Path(__file__).with_name("neighbours.json")
K = 7  # nearest labelled answers read
VOTES = 4  # of them that must carry the same tag (a majority)
MIN_SIMILARITY = 0.2  # cosine of the nearest one
DIGITS = 3  # idf rounding in the artefact
_WORD = re.compile(r"[a-z_][a-z_0-9.]*")
_NOT = re.compile(r"n't\b")
_STOP = frozenset(
    """the a an of to is are be it in on and or that this for with as by you your we i they
    them its at from do does so""".split()  # noqa: SIM905
)

Bag = dict[str, int]


def words(text: str) -> list[str]:
    """The answer's word lemmas in order, stop words out, "n't" read as "not"."""
    found: list[str] = []
    for unit in normalise(text or "").units:
        line = _NOT.sub(" not", (unit.lemmas or unit.text).lower())
        found += [w.rstrip(".") for w in _WORD.findall(line) if w.rstrip(".") not in _STOP]
    return found


def bag_of(sequence: Sequence[str]) -> Bag:
    """Words and adjacent pairs, counted: the pairs keep "not need" apart from "need"."""
    counts = Counter(sequence)
    counts.update(f"{a}|{b}" for a, b in pairwise(sequence))
    return dict(counts)


def bag(text: str) -> Bag:
    return bag_of(words(text))


@dataclass(frozen=True)
class Entry:
    """One labelled answer: its question, its words and its (rubric) tags."""

    question_id: str
    bag: Bag
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Index:
    idf: dict[str, float]
    # question id -> (unit vector, tags) of each labelled answer
    answers: dict[str, tuple[tuple[dict[str, float], tuple[str, ...]], ...]]

    def vector(self, words: Bag) -> dict[str, float]:
        weights = {w: (1 + math.log(c)) * self.idf[w] for w, c in words.items() if w in self.idf}
        norm = math.sqrt(sum(x * x for x in weights.values())) or 1.0
        return {w: x / norm for w, x in weights.items()}


def idf_of(entries: Sequence[Entry]) -> dict[str, float]:
    """Rarity of each word seen in at least two answers (a word of one answer joins none)."""
    seen = Counter(w for e in entries for w in e.bag)
    n = len(entries)
    return {w: round(math.log(n / df), DIGITS) for w, df in sorted(seen.items()) if df > 1}


def build_index(entries: Sequence[Entry], idf: Mapping[str, float] | None = None) -> Index:
    index = Index(dict(idf if idf is not None else idf_of(entries)), {})
    grouped: dict[str, list[tuple[dict[str, float], tuple[str, ...]]]] = {}
    for entry in entries:
        grouped.setdefault(entry.question_id, []).append((index.vector(entry.bag), entry.tags))
    return dataclasses.replace(index, answers={q: tuple(a) for q, a in grouped.items()})


def _cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(w, 0.0) for w, x in a.items())


def nearest_tag(index: Index, question_id: str, words: Bag, tags: Iterable[str]) -> str | None:
    """The tag (one of `tags`) that `VOTES` of the `K` nearest labelled answers carry,
    when the nearest is at least `MIN_SIMILARITY` alike; None otherwise."""
    known = set(tags)
    query = index.vector(words)
    if not query or not known:
        return None
    scored = sorted(
        (
            (_cosine(query, vector), i)
            for i, (vector, _) in enumerate(index.answers.get(question_id, ()))
        ),
        reverse=True,
    )[:K]
    if not scored or scored[0][0] < MIN_SIMILARITY:
        return None
    answers = index.answers[question_id]
    votes = Counter(t for _, i in scored for t in answers[i][1] if t in known)
    ranked = votes.most_common()
    if not ranked or ranked[0][1] < VOTES:
        return None
    return min(t for t, n in ranked if n == ranked[0][1])  # a tie: the first tag by name


def eligible(evidence: Evidence, verdict: str, named: Sequence[str]) -> bool:
    """Only an answer the rules graded below correct, with no tell and some statement."""
    return verdict != "correct" and not named and not evidence.no_credit and not evidence.empty


def with_tell(rubric: Rubric, evidence: Evidence, tell: Misconception) -> Evidence:
    """The evidence once the suggested tell's cap applies."""
    return dataclasses.replace(evidence, caps=(*evidence.caps, tell.cap))


def suggested_verdict(rubric: Rubric, evidence: Evidence, tell: Misconception) -> str:
    return line_verdict(rubric, with_tell(rubric, evidence, tell), Line.of(rubric))


def message(tell: Misconception) -> str:
    name = tell.label or tell.tag
    return (
        f"Likely misconception \u2013 {name}: your answer reads like answers interviewers "
        f"judged to state it (no sentence of yours matched it word for word). {tell.correction}"
    )


def add_suggestion(question: FreeText, answer: str, result: GradeResult) -> GradeResult:
    """The rules' result with the tell the nearest labelled answers suggest, if any."""
    rubric = question.rubric
    evidence = evidence_of(rubric, result)
    if not eligible(evidence, result.verdict, result.misconceptions):
        return result
    index = index_for(question)
    tells = {m.tag: m for m in rubric.misconceptions}
    tag = nearest_tag(index, question.id, bag(answer), tells) if index else None
    if tag is None:
        return result
    tell = tells[tag]
    capped = with_tell(rubric, evidence, tell)
    return dataclasses.replace(
        result,
        verdict=line_verdict(rubric, capped, Line.of(rubric)),  # type: ignore[arg-type]
        score=min(result.score, line_score(rubric, capped, Line.of(rubric))),
        feedback=[Feedback("misconception", message(tell)), *result.feedback],
        misconceptions=[tag],
        details={**result.details, "neighbours": tag},
    )


def prompt_key(question: FreeText) -> str:
    """A fingerprint of the prompt the labelled answers answered."""
    return hashlib.sha256(question.prompt.strip().encode()).hexdigest()[:16]


def suggested_rows(rows: Sequence[Any], rubrics: Mapping[str, Rubric]) -> list[Any]:
    """Graded labelled rows (`evaluation.Row`) with the suggestion applied, read leave one
    persona out: a tune persona's rows against an index built without that persona, any
    other persona's rows against the index of every tune row (the shipped one)."""
    bags = {id(r): bag(r.answer) for r in rows}
    tune = [r for r in rows if r.side == "tune"]
    out: dict[int, Any] = {}
    for persona in sorted({r.persona for r in rows}):
        mine = [r for r in rows if r.persona == persona]
        pool = [r for r in tune if r.persona != persona]
        index = build_index([Entry(r.question_id, bags[id(r)], r.expected_tags) for r in pool])
        for row in mine:
            out[id(row)] = _suggested_row(index, rubrics[row.question_id], row, bags[id(row)])
    return [out[id(r)] for r in rows]


def _suggested_row(index: Index, rubric: Rubric, row: Any, words: Bag) -> Any:
    if row.evidence is None or not eligible(row.evidence, row.verdict, row.named_tags):
        return row
    tells = {m.tag: m for m in rubric.misconceptions}
    tag = nearest_tag(index, row.question_id, words, tells)
    if tag is None:
        return row
    verdict = suggested_verdict(rubric, row.evidence, tells[tag])
    return dataclasses.replace(row, verdict=verdict, named_tags=(tag,))


def build_artefact() -> dict[str, Any]:
    """The index of every labelled tune answer of the core pack's free-text questions."""
    from app.config import REPO_ROOT
    from app.grading.freetext.evaluation import (
        load_persona_answers,
        load_sides,
        load_tag_map,
    )
    from app.packs.loader import load_pack

    labelled = REPO_ROOT / "tests" / "grading" / "freetext_labelled"
    pack = load_pack(REPO_ROOT / "questions" / "gradient-tape").pack
    if pack is None:
        raise RuntimeError("the core pack does not load")
    answers, _ = load_persona_answers(labelled)
    sides = load_sides(labelled / "meta" / "sides.yaml")
    tag_map = load_tag_map(labelled / "meta" / "tag-map.yaml")
    questions = {
        q.question.id: q.question for q in pack.questions if isinstance(q.question, FreeText)
    }
    tune = sorted(
        (a for a in answers if sides.side(a.persona or "original") == "tune"),
        key=lambda a: (a.question_id, a.persona, a.source, a.answer),
    )
    stored = [
        (a.question_id, a.answer, _mapped(tag_map, a.question_id, a.misconceptions))
        for a in tune
        if a.question_id in questions
    ]
    return {
        "about": "issue 14 round 7 neighbours; python -m app.grading.freetext.neighbours train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({a.persona or "original" for a in tune}),
            "answers": len(stored),
        },
        "k": K,
        "votes": VOTES,
        "min_similarity": MIN_SIMILARITY,
        "questions": {
            qid: {
                "prompt": prompt_key(question),
                "answers": [
                    {"tags": list(tags), "answer": text} for q, text, tags in stored if q == qid
                ],
            }
            for qid, question in sorted(questions.items())
        },
    }


def _mapped(tag_map: Any, question_id: str, tags: Iterable[str]) -> tuple[str, ...]:
    found: list[str] = []
    for tag in tags:
        found += [t for t in tag_map.rubric_tags(question_id, tag) if t not in found]
    return tuple(found)


def dumps(artefact: dict[str, Any]) -> str:
    return json.dumps(artefact, sort_keys=True, indent=0) + "\n"


@lru_cache
def _loaded() -> dict[str, Any]:
    try:
        data = json.loads(ARTEFACT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=1)
def _shipped() -> tuple[dict[str, str], Index | None]:
    """(question id -> prompt fingerprint, the index of every stored answer); rarity is
    read over all questions' answers, as the benchmark does."""
    try:
        questions = _loaded()["questions"]
        prompts = {str(q): str(v["prompt"]) for q, v in questions.items()}
        entries = [
            Entry(str(q), bag(str(a["answer"])), tuple(str(t) for t in a["tags"]))
            for q, v in questions.items()
            for a in v["answers"]
        ]
    except (KeyError, TypeError, AttributeError):
        return {}, None
    return prompts, build_index(entries)


def index_for(question: FreeText) -> Index | None:
    """The shipped index, if this question's labelled answers answered this very prompt."""
    prompts, index = _shipped()
    return index if prompts.get(question.id) == prompt_key(question) else None


def main(argv: list[str]) -> int:
    if argv[:1] != ["train"]:
        print("usage: python -m app.grading.freetext.neighbours train [--check]")
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
