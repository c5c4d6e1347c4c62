"""Whether a stretch of prose has English word order, read from which word follows which.

Round 37 found 60 words drawn at random from a model answer, as one sentence, graded correct:
such a shuffle has the vocabulary of a right answer and the share of glue words of prose, so
the keyword-list and padding readings (signals.py) pass it, and with 60 on-topic words some
concept's words fall in the order its phrasing wants. What a shuffle lacks is order. Each
token gets a class (every function word is its own class; content words are a verb form, an
identifier, an adverb or other; punctuation ends a clause or lists), and each adjacent pair
of classes a score: how much more (or less) often English writes that pair than two classes
drawn independently (pointwise mutual information). Real prose averages well above zero;
words in random order average below zero, since the pairs English prefers are as rare as
chance and the pairs it avoids ("the is", "of and", "a ,") as common. The table
(word_order.json) is counted from this repository's own documentation, never from labelled
answers (as at 538bea4), and is frozen (`scripts/word_order_table.py` rewrites it): the labelled
answers are left to measure it. Linear in the tokens: one table look-up per pair.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lemminflect import getAllLemmas

TABLE = Path(__file__).with_name("word_order.json")
# Added to a pair's count: a pair the documentation never writes is rare, not impossible.
SMOOTHING = 0.1
# No one pair says much alone: a typo ("the the") or a pasted fragment scores about -9 and
# would drag a real answer's mean down, so each pair counts at least PAIR_FLOOR; a shuffle is
# read from its many mildly unlikely pairs instead.
PAIR_FLOOR = -2.0
CLAUSE_END = "END"
_PUNCTUATION = {",": "COMMA", "(": "OPEN", ")": "CLOSE"}
_MARKS = frozenset([*_PUNCTUATION.values(), CLAUSE_END])
_TOKEN = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]|[.,;:!?()]")  # identifiers stay whole


def tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)]


@dataclass(frozen=True)
class Table:
    """Counts of classes and of adjacent pairs of classes in the documentation's prose."""

    function_words: frozenset[str]
    unigrams: dict[str, int]
    pairs: dict[tuple[str, str], int]


@dataclass(frozen=True)
class _Logs:
    """The table as logarithms, so a pair's score is three look-ups."""

    pairs: dict[tuple[str, str], float]  # log P(a, b) of the pairs counted
    unseen: float  # log P(a, b) of a pair never counted
    unigrams: dict[str, float]  # log P(a)
    unknown: float  # log P(a) of a class never counted


@lru_cache(maxsize=1)
def table() -> Table:
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    pairs = {}
    for key, count in data["pairs"].items():
        a, b = key.split(" ", 1)
        pairs[(a, b)] = int(count)
    return Table(frozenset(data["function_words"]), dict(data["unigrams"]), pairs)


@lru_cache(maxsize=1)
def _logs() -> _Logs:
    known = table()
    pair_total = math.log(sum(known.pairs.values()))
    unigram_total = math.log(sum(known.unigrams.values()))
    return _Logs(
        {k: math.log(n + SMOOTHING) - pair_total for k, n in known.pairs.items()},
        math.log(SMOOTHING) - pair_total,
        {k: math.log(n + 1) - unigram_total for k, n in known.unigrams.items()},
        -unigram_total,
    )


@lru_cache(maxsize=16384)
def word_class(token: str, function_words: frozenset[str]) -> str:
    """A lowercase token's class: itself for a function word, else its shape."""
    if token in function_words:
        return token
    if not token[0].isalpha():
        return _PUNCTUATION.get(token, CLAUSE_END)
    if "_" in token or "." in token:
        return "IDENTIFIER"
    verb = [lemma for lemma in getAllLemmas(token, "VERB").get("VERB", ()) if lemma != token]
    if verb:
        if token.endswith("ing"):
            return "VERB-ING"
        if token.endswith(("ed", "en")):
            return "VERB-ED"
        if token.endswith("s"):
            return "VERB-S" if not getAllLemmas(token, "NOUN").get("NOUN") else "VERB-S-OR-NOUN"
        return "VERB-OTHER"
    if token.endswith("ly") and getAllLemmas(token, "ADV").get("ADV"):
        return "ADVERB"
    return "WORD"


def classes(clauses: list[list[str]], known: Table | None = None) -> list[str]:
    """The classes of clauses' lowercase tokens, each clause between two CLAUSE_END marks."""
    words = (known or table()).function_words
    out: list[str] = []
    for tokens in clauses:
        out += [CLAUSE_END, *(word_class(t, words) for t in tokens), CLAUSE_END]
    return out


def class_pairs(clauses: list[list[str]], known: Table | None = None) -> list[tuple[str, str]]:
    """Adjacent classes; a run of one punctuation class is one mark (two clause ends in a
    row, "((((": an answer inside 1,200 brackets reads as the answer)."""
    seq = classes(clauses, known)
    return [(a, b) for a, b in itertools.pairwise(seq) if a != b or a not in _MARKS]


def _pair_score(logs: _Logs, a: str, b: str) -> float:
    joint = logs.pairs.get((a, b), logs.unseen)
    apart = logs.unigrams.get(a, logs.unknown) + logs.unigrams.get(b, logs.unknown)
    return max(joint - apart, PAIR_FLOOR)


def _mean(scores: list[float]) -> tuple[float, int]:
    return (sum(scores) / len(scores) if scores else 0.0), len(scores)


def order_score(clauses: list[list[str]]) -> tuple[float, int]:
    """The mean pointwise mutual information of adjacent classes, each at least PAIR_FLOOR
    (English order scores above zero, random order below), and how many pairs it averages."""
    logs = _logs()
    return _mean([_pair_score(logs, a, b) for a, b in class_pairs(clauses)])


def long_run_score(clauses: list[list[str]], min_words: int) -> tuple[float, int]:
    """order_score over the runs of `min_words`+ words with no punctuation between them
    (each run's pairs, the marks on either side included), and how many pairs it averages.

    Round 39: a real answer whose whole order scores low is made of short pieces (notes,
    code-switched Hindi, non-native fragments); its long unpunctuated runs read as English.
    A shuffle written as one or a few sentences is mostly such runs, out of order."""
    logs = _logs()
    kept: list[float] = []
    run: list[float] = []
    for a, b in class_pairs(clauses):
        run.append(_pair_score(logs, a, b))
        if b in _MARKS:
            if len(run) - 1 >= min_words:  # a run of k words has k + 1 pairs
                kept += run
            run = []
    return _mean(kept)
