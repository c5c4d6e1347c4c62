"""Nearest labelled answers suggest the tell the rules missed (issue 14, round 7).

On every fresh set the commonest miss is an answer labelled incorrect that the rules grade
partial because no tell phrasing fired: people state a known misconception in words no
phrasing fits. Other people, answering the same prompt, have stated it in similar words.
So, per question, the answer's words (lemmas, with "n't" read as "not") and word pairs are
weighted by rarity (tf-idf) and compared with the labelled tune answers (cosine); the
verbs of updating are one word (round 10: "nudges", "changes" and "updates" the weights
vote together). When the rules named no tell and did not grade the answer correct, and at
least `VOTES` of its `K` nearest labelled answers, the nearest at least `MIN_SIMILARITY`
alike, carry the same tag of this rubric, that tag is named, with a message that says how
it was found, and its cap applies (since round 16 the cap grading gives that tag when the
rules state it: read from labelled precedent, tell_caps.py, where there is one). Since
round 17 the vote must stand with any one writer's answers left out, so that adding a
writer's answers at a retrain does not make or unmake a suggestion on its own. It never
raises a verdict, never touches an answer graded correct, a keyword list or an injection,
and adds nothing where a tell is already named.

`python -m app.grading.freetext.neighbours train` writes `neighbours.json` beside this file:
the labelled tune personas' answers as written, with their tags (meta/sides.yaml,
meta/tag-map.yaml) and, since round 17, their writer (persona); a test checks it equals a
fresh build. Since round 25 it also holds each answer's words (`words`, space-joined): reading
them from ~6,000 answers' text (normalise, lemma twins, retractions) took ~5 s of one core
per process, on its first free-text answer or at start-up, where the stored words take a
split. So a change to normalise, the lemma twins or the retraction reader changes the
artefact's fresh build (its test fails: retrain), as it already changed the tag
classifier's, which is fitted over these words. An artefact without them (older than round
25) is read from its text, as before. The index is built once per process, at start-up when
the setting is on (app/main.py), else at first use. The grader applies it when the setting
`freetext_neighbours` is on (off by default).
`benchmarks/freetext.py --neighbours` reads it leave-one-persona-out: each tune persona is
graded with an index built without it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import math
import re
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from app.grading.freetext.artefacts import artefact_main, read_artefact
from app.grading.freetext.budget import uncounted
from app.grading.freetext.fitting import Evidence, Line, evidence_of, line_score, line_verdict
from app.grading.freetext.matching import asks, find_hits
from app.grading.freetext.normalise import Unit, normalise
from app.grading.results import Feedback, GradeResult
from app.packs.rubric import Misconception, Rubric
from app.packs.schema import FreeText

ARTEFACT = Path(__file__).with_name("neighbours.json")
K = 7  # nearest labelled answers read
VOTES = 4  # of them that must carry the same tag (a majority)
UNTAGGED = 2  # at most this many of them may carry no tag of the rubric (a margin)
MIN_SIMILARITY = 0.2  # cosine of the nearest one
MARK_ANSWERS = 2  # a word marks a tag when this many of its labelled answers carry it ...
MARK_LIFT = 3.0  # ... at this many times the tag's rate among the question's answers
DIGITS = 3  # idf rounding
_WORD = re.compile(r"[a-z_][a-z_0-9.]*")
_NOT = re.compile(r"n't\b")
_CUES = frozenset({"not", "never", "no"})  # a denial's own word: not read for polarity
_STOP = frozenset(
    """the a an of to is are be it in on and or that this for with as by you your we i they
    them its at from do does so""".split()  # noqa: SIM905
)

# Round 10: words of one synonym group are one word here, in the cosine, as marking words
# and in the claim reading, so "tape.gradient nudges the weights" meets answers saying it
# "updates" or "changes" them. One group: the shared lexicon's update verbs (lexicon.py)
# with "nudge", "tweak" and "alter", which labelled answers use of the weights. All twelve
# candidate groups read the same leave one persona out (+-1) but named a tell on a true
# statement of the suites (docs/freetext-rounds.md, round 10).
# Round 16: the lexicon's groups became lemmas; this keeps round 5's spelling of the update
# group, which neighbours.json was trained with.
_UPDATE = ("updat\\w*", "chang(e|es|ed|ing)", "modif\\w*", "adjust\\w*", "mutat\\w*", "assign\\w*")
SYNONYMS: tuple[tuple[str, ...], ...] = (
    (*_UPDATE, "nudg(e|es|ed|ing)", "tweak\\w*", "alter(s|ed|ing)?"),
)
# A group's word: its first member's leading letters ("updat\\w*" -> "~updat"), marked
# with a character no lemma carries, so it never meets a word as written.
_GROUP_WORDS = {"~" + re.match(r"[a-z]*", g[0]).group(): g for g in SYNONYMS}  # type: ignore[union-attr]
_GROUP_OF = [(re.compile("|".join(f"(?:{m})" for m in g)), w) for w, g in _GROUP_WORDS.items()]

Bag = dict[str, int]


def words(text: str) -> list[str]:
    """The answer's word lemmas in order, stop words out, "n't" read as "not", a synonym
    read as its group's word."""
    found: list[str] = []
    for unit in normalise(text or "").units:
        line = _NOT.sub(" not", (unit.lemmas or unit.text).lower())
        found += [w.rstrip(".") for w in _WORD.findall(line) if w.rstrip(".") not in _STOP]
    return [synonym(w) for w in found]


@lru_cache(maxsize=20_000)
def synonym(word: str) -> str:
    """The word of the synonym group `word` belongs to ("nudge" -> "~updat"), or `word`."""
    return next((name for group, name in _GROUP_OF if group.fullmatch(word)), word)


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
    text: str = ""  # as written: how a voting answer states its words (reads_as_stated)
    persona: str = ""  # who wrote it: a suggestion no one writer decides (round 17)


@dataclass(frozen=True)
class Index:
    """Per question, an inverted index of the labelled answers' unit vectors - word ->
    (answer numbers, weights), in arrays - and each answer's tags. A query reads only the
    postings of its own words: grading p50 +0.05 ms, where a cosine against every answer's
    vector cost +0.36 ms; ~8 MB held for 2,000 answers (tracemalloc, lemmatiser loaded)."""

    idf: dict[str, float]
    postings: dict[str, dict[str, tuple[array[int], array[float]]]]
    tags: dict[str, tuple[tuple[str, ...], ...]]
    texts: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    personas: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def vector(self, words: Bag) -> dict[str, float]:
        weights = {w: (1 + math.log(c)) * self.idf[w] for w, c in words.items() if w in self.idf}
        norm = math.sqrt(sum(x * x for x in weights.values())) or 1.0
        return {w: x / norm for w, x in weights.items()}

    def similarities(self, question_id: str, query: Mapping[str, float]) -> list[float]:
        """Cosine of the query with each labelled answer of the question, in order."""
        scores = [0.0] * len(self.tags.get(question_id, ()))
        postings = self.postings.get(question_id, {})
        for word, weight in query.items():
            numbers, weights = postings.get(word, ((), ()))
            for i, w in zip(numbers, weights, strict=True):
                scores[i] += weight * w
        return scores


def idf_of(entries: Sequence[Entry]) -> dict[str, float]:
    """Rarity of each word seen in at least two answers (a word of one answer joins none)."""
    seen = Counter(w for e in entries for w in e.bag)
    n = len(entries)
    return {w: round(math.log(n / df), DIGITS) for w, df in sorted(seen.items()) if df > 1}


def build_index(entries: Sequence[Entry], idf: Mapping[str, float] | None = None) -> Index:
    index = Index(dict(idf if idf is not None else idf_of(entries)), {}, {})
    words = {w: w for w in index.idf}  # one string per word, shared by every question
    tags: dict[str, list[tuple[str, ...]]] = {}
    texts: dict[str, list[str]] = {}
    personas: dict[str, list[str]] = {}
    for entry in entries:
        texts.setdefault(entry.question_id, []).append(entry.text)
        personas.setdefault(entry.question_id, []).append(entry.persona)
        numbered = tags.setdefault(entry.question_id, [])
        postings = index.postings.setdefault(entry.question_id, {})
        for word, weight in index.vector(entry.bag).items():
            numbers, weights = postings.setdefault(words[word], (array("I"), array("d")))
            numbers.append(len(numbered))
            weights.append(weight)
        numbered.append(entry.tags)
    return dataclasses.replace(
        index,
        tags={q: tuple(t) for q, t in tags.items()},
        texts={q: tuple(t) for q, t in texts.items()},
        personas={q: tuple(p) for q, p in personas.items()},
    )


def nearest_tag(
    index: Index, question_id: str, words: Bag, tags: Iterable[str], text: str = ""
) -> str | None:
    """The tag (one of `tags`) that `VOTES` of the `K` nearest labelled answers carry, with
    at most `UNTAGGED` of them carrying no tag of this rubric, when the nearest is at least
    `MIN_SIMILARITY` alike and carries the tag itself (round 10: "the tape records the
    forward pass either way" is nearest to a right answer, then to five stating that the
    flag makes the tape record), when that vote stands with the answers of any one writer
    among the nearest left out (`_jackknifed`, round 17), and the answer (`text`, as
    written) states a word that marks the tag as the answers carrying it do
    (`reads_as_stated`), counting only the marking words most of those answers state
    (`voters_state`); None otherwise."""
    known = set(tags)
    query = index.vector(words)
    if not query or not known:
        return None
    scores = index.similarities(question_id, query)
    tag = _vote(index, question_id, scores, known)
    if tag is None or not _jackknifed(index, question_id, scores, known, tag):
        return None
    answers = index.tags[question_id]
    nearest = heapq.nlargest(K, zip(scores, range(len(scores)), strict=True))
    marks = [w for w in marking_words(index, question_id, words, tag) if "|" not in w]
    texts = index.texts.get(question_id, ())
    voters = [texts[i] for _, i in nearest if tag in answers[i] and i < len(texts)]
    marks = [w for w in marks if voters_state(w, voters)]
    return tag if marks and reads_as_stated(text, marks, voters) else None


def _vote(
    index: Index,
    question_id: str,
    scores: Sequence[float],
    known: set[str],
    out: frozenset[int] = frozenset(),
) -> str | None:
    """The tag the `K` nearest labelled answers vote for (`nearest_tag`), the answers
    numbered in `out` left out."""
    nearest = heapq.nlargest(K, ((s, i) for i, s in enumerate(scores) if i not in out))
    if not nearest or nearest[0][0] < MIN_SIMILARITY:
        return None
    answers = index.tags[question_id]
    votes = Counter(t for _, i in nearest for t in answers[i] if t in known)
    ranked = votes.most_common()
    if not ranked or ranked[0][1] < VOTES:
        return None
    if sum(1 for _, i in nearest if not known & set(answers[i])) > UNTAGGED:
        return None
    tag = min(t for t, n in ranked if n == ranked[0][1])  # a tie: the first tag by name
    return tag if tag in answers[nearest[0][1]] else None


def _jackknifed(
    index: Index, question_id: str, scores: Sequence[float], known: set[str], tag: str
) -> bool:
    """Whether the vote for `tag` stands with the answers of each writer among the `K`
    nearest left out in turn (round 17). Each retrain adds a writer's answers: a vote one
    writer carried came and went with them (a true statement named, a stated tell no longer
    named), and held checks flipped. Writers outside the nearest change no vote; answers
    with no writer recorded (an artefact older than round 17) are never left out."""
    personas = index.personas.get(question_id, ())
    nearest = heapq.nlargest(K, zip(scores, range(len(scores)), strict=True))
    writers = {personas[i] for _, i in nearest if i < len(personas)} - {""}
    for writer in sorted(writers):
        out = frozenset(i for i, p in enumerate(personas) if p == writer)
        if _vote(index, question_id, scores, known, out) != tag:
            return False
    return True


def speaks_of(index: Index, question_id: str, words: Bag, tag: str) -> bool:
    """Whether the answer has a word (or word pair) that marks the labelled answers stating
    `tag` (`marking_words`)."""
    return bool(marking_words(index, question_id, words, tag))


def marking_words(index: Index, question_id: str, words: Bag, tag: str) -> list[str]:
    """The answer's words (and word pairs) that mark the labelled answers stating `tag`:
    seen in at least `MARK_ANSWERS` of them, and the tag's share of the answers with the
    word `MARK_LIFT` times its share of the question's answers (so a tag that a third of
    the answers state is left to the rules' phrasings). Without one, the neighbours agree
    only on the question's common words ("It compiles the step into a graph." is near
    answers saying large models gain most, by "compile" and "graph"), which says nothing
    of the tell."""
    answers = index.tags.get(question_id, ())
    tagged = sum(1 for tags in answers if tag in tags)
    if not tagged:
        return []
    base = tagged / len(answers)
    postings = index.postings.get(question_id, {})
    found = []
    for word in words:
        numbers = postings.get(word, ((), ()))[0]
        hits = sum(1 for i in numbers if tag in answers[i])
        if hits >= MARK_ANSWERS and hits / len(numbers) >= MARK_LIFT * base:
            found.append(word)
    return found


def voters_state(word: str, voters: Sequence[str]) -> bool:
    """Whether most of the voting answers that use `word` state it (`how_stated`), so it marks
    the belief and not its consequence (round 11). Answers stating "call tape.reset() each
    step, otherwise the previous step gets mixed in" make "previous" and "mix" mark
    needs-zero-grad, but they state the reset, not the mixing; "a new tape records each step
    from scratch, so nothing from the previous step is mixed in" is true. A word no voter
    uses says nothing of what they state."""
    theirs = [s[word] for s in (how_stated(v, [word]) for v in voters) if word in s]
    return sum(s == {True} for s in theirs) * 2 > len(theirs)


def reads_as_stated(text: str, marks: Sequence[str], voters: Sequence[str]) -> bool:
    """Whether no marking word is only denied in the answer while most of the voting
    answers that use it state it. The rules' own reader (matching.find_hits) reads each
    use: denied, said of another framework, inside an open condition or asked counts as
    not stated. "Trainable variables are watched automatically; you never need tape.watch"
    and "persistent is not needed unless ..." sit among answers that state the tell with
    those very words, but deny them (round 8)."""
    said = how_stated(text, marks)
    return not any(
        True not in states and voters_state(word, voters) for word, states in said.items()
    )


def how_stated(text: str, marks: Sequence[str]) -> dict[str, set[bool]]:
    """Each marking word found in `text` -> how its uses read (True: stated). A word used
    only after "otherwise" is not stated: "delete it with del tape; otherwise Python only
    frees it when it goes out of scope" says what happens if you don't (round 10)."""
    if not text:
        return {}
    found = _uses(text, marks)
    if not found or _OTHERWISE_CLAUSE.search(text) is None:
        return found  # nothing to read again without the "otherwise" clauses
    plain = _uses(_OTHERWISE_CLAUSE.sub(" ", text), marks)
    return {word: plain.get(word, {False}) for word in found}


# "otherwise" up to the end of its clause: the consequence of not doing what was said.
_OTHERWISE_CLAUSE = re.compile(r"\botherwise\b[^.;:!?\n]*", re.IGNORECASE)


def _uses(text: str, marks: Sequence[str]) -> dict[str, set[bool]]:
    units = _units_of(text)
    found: dict[str, set[bool]] = {}
    for word in marks:
        if word in _CUES:
            continue
        for hit in find_hits(units, [word_phrasing(word)]):
            found.setdefault(word, set()).add(hit.affirmed and not (hit.foreign or hit.conditional))
        pattern = re.compile(word_phrasing(word), re.IGNORECASE)
        if any(asks(u) and pattern.search(f"{u.text}\n{u.lemmas}") for u in units):
            found.setdefault(word, set()).add(False)  # asked, which states nothing
    return found


@lru_cache(maxsize=1024)
def _units_of(text: str) -> tuple[Unit, ...]:
    """A text's units, remembered: the voting answers are labelled answers, read again for
    every answer they vote on (round 25: normalising them each time was ~10% of an
    answer's grading as shipped). Only the units: what `find_hits` reads in them depends
    on the answer's budget and is read each time."""
    return normalise(text).units


def word_phrasing(word: str) -> str:
    """The word as a phrasing; a synonym group's word matches any member of its group."""
    group = _GROUP_WORDS.get(word)
    found = "|".join(f"(?:{m})" for m in group) if group else re.escape(word)
    return r"\b(?:" + found + r")(?!\w)"


def eligible(evidence: Evidence, verdict: str, named: Sequence[str]) -> bool:
    """Only an answer the rules graded below correct, with no tell and some statement."""
    return verdict != "correct" and not named and not evidence.no_credit and not evidence.empty


def with_tell(evidence: Evidence, tell: Misconception, cap: str | None = None) -> Evidence:
    """The evidence once the suggested tell's cap applies (`cap`: the one grading uses for
    that tag, tell_caps.py; None: the rubric's)."""
    return dataclasses.replace(evidence, caps=(*evidence.caps, cap or tell.cap))


def suggested_verdict(
    rubric: Rubric, evidence: Evidence, tell: Misconception, cap: str | None = None
) -> str:
    return line_verdict(rubric, with_tell(evidence, tell, cap), Line.of(rubric))


def message(tell: Misconception) -> str:
    name = tell.label or tell.tag
    return (
        f"Likely misconception \u2013 {name}: your answer reads like answers interviewers "
        f"judged to state it (no sentence of yours matched it word for word). {tell.correction}"
    )


def add_suggestion(
    question: FreeText, answer: str, result: GradeResult, caps: Mapping[str, str] | None = None
) -> GradeResult:
    """The rules' result with the tell the nearest labelled answers suggest, if any, capped
    as grading caps that tag when the rules state it (`caps`, tag -> cap: tell_caps.py,
    round 16; None: the rubric's caps)."""
    rubric = question.rubric
    evidence = evidence_of(rubric, result)
    if not eligible(evidence, result.verdict, result.misconceptions):
        return result
    index = index_for(question)
    tells = {m.tag: m for m in rubric.misconceptions}
    words = bag(answer)
    tag = nearest_tag(index, question.id, words, tells, answer) if index is not None else None
    if tag is None:
        return result
    return with_suggested_tell(rubric, result, evidence, tells[tag], caps, "neighbours", message)


def with_suggested_tell(
    rubric: Rubric,
    result: GradeResult,
    evidence: Evidence,
    tell: Misconception,
    caps: Mapping[str, str] | None,
    found_by: str,
    message: Callable[[Misconception], str],
) -> GradeResult:
    """`result` naming a tell a learned finder suggested (`found_by`: its key in details),
    capped as grading caps that tag (`caps`; None: the rubric's cap)."""
    tag = tell.tag
    cap = (caps or {}).get(tag, tell.cap)
    capped = with_tell(evidence, tell, cap)
    details = {**result.details, found_by: tag}
    if cap != tell.cap:  # read back by evidence_of, like the rules' own tells
        details["caps"] = {tag: cap}
    return dataclasses.replace(
        result,
        verdict=line_verdict(rubric, capped, Line.of(rubric)),  # type: ignore[arg-type]
        score=min(result.score, line_score(rubric, capped, Line.of(rubric))),
        feedback=[Feedback("misconception", message(tell)), *result.feedback],
        misconceptions=[tag],
        details=details,
    )


def prompt_key(question: FreeText) -> str:
    """A fingerprint of the prompt the labelled answers answered."""
    return hashlib.sha256(question.prompt.strip().encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
@uncounted()
def shipped_tables() -> tuple[dict[str, str], Index | None]:
    """(question id -> prompt fingerprint, the index of every stored answer); rarity is
    read over all questions' answers, as the benchmark does."""
    try:
        questions = read_artefact(ARTEFACT)["questions"]
        prompts = {str(q): str(v["prompt"]) for q, v in questions.items()}
        entries = [
            Entry(
                str(q),
                stored_bag(a),
                tuple(str(t) for t in a["tags"]),
                str(a["answer"]),
                str(a.get("persona", "")),
            )
            for q, v in questions.items()
            for a in v["answers"]
        ]
    except (KeyError, TypeError, AttributeError):
        return {}, None
    return prompts, build_index(entries)


def stored_bag(answer: Mapping[str, object]) -> Bag:
    """A stored answer's words and word pairs: from its stored words (round 25), or read
    from its text where the artefact holds none."""
    stored = answer.get("words")
    if isinstance(stored, str):
        return bag_of(stored.split())
    return bag(str(answer["answer"]))


def shipped_index() -> Index | None:
    """The index of every labelled tune answer the artefact holds (all questions)."""
    return shipped_tables()[1]


def index_for(question: FreeText) -> Index | None:
    """The shipped index, if this question's labelled answers answered this very prompt."""
    prompts, index = shipped_tables()
    return index if prompts.get(question.id) == prompt_key(question) else None


def main(argv: list[str]) -> int:
    from app.grading.freetext.labelled_neighbours import build_artefact, dumps

    return artefact_main(
        argv, "app.grading.freetext.neighbours", ARTEFACT, lambda: dumps(build_artefact())
    )


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import neighbours

    raise SystemExit(neighbours.main(sys.argv[1:]))
