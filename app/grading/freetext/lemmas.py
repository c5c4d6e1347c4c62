"""Dictionary forms of an answer's words, so one rubric phrasing covers every inflection.

Candidates write "recomputes", "freed", "GANs", "zeroes"; rubric authors write one form.
Hand-written suffix lists miss irregular forms and over-match others, so we use
lemminflect's English lemma dictionary (it ships its data in the wheel; no download). Each
answer sentence gets a lemma twin ("the tape frees its buffers" -> "the tape free its
buffer") and phrasings are matched against both. Words whose form carries polarity or
structure (negations, auxiliaries, pronouns) and identifiers (`tape.gradient`,
`apply_gradients`, `GradientTape`) are kept as written, so negation scope and clause
splitting read the twin exactly like the original.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas

_WORD = re.compile(r"(?<![\w.])[A-Za-z]+(?:'[A-Za-z]+)?(?![\w(]|\.\w)")
# Parts of speech to prefer: verbs first (the predicates phrasings hinge on), then nouns.
_POS_ORDER = ("VERB", "NOUN", "ADJ", "ADV")
_KEEP = frozenset(
    """not no never nothing neither nor without cannot unlike instead rather than is are was
    were be been being am do does did has have had will would can could should must may
    might shall need needs it its this that these those they them he she we you i there
    their our your as so since while because but however whereas although though yet
    otherwise unless which and or if then once only just also even still""".split()  # noqa: SIM905
)
_PREFIXES = ("re",)  # "recomputes" -> "computes": same claim for grading purposes


@lru_cache(maxsize=20_000)
def lemma(word: str) -> str:
    """The dictionary form of one word (lower case), or the word itself if unknown."""
    lower = word.lower()
    if lower in _KEEP or "'" in lower:
        return word
    if word[:-1].isupper() and word.endswith("s") and len(word) > 2:  # GANs, RNNs
        return word[:-1]
    found = _dictionary_lemma(lower)
    if found is None:
        for prefix in _PREFIXES:
            if lower.startswith(prefix) and len(lower) > len(prefix) + 3:
                found = _dictionary_lemma(lower[len(prefix) :])
                if found is not None:
                    break
    return found if found is not None and found != lower else word


def is_base_verb(word: str) -> bool:
    """Whether a lower-case word is a verb in its dictionary form and no word kept as written
    ("open", not "opens", "is" or "then"): the verb an instruction opens on."""
    return word not in _KEEP and word in getAllLemmas(word).get("VERB", ())


def _dictionary_lemma(lower: str) -> str | None:
    lemmas = getAllLemmas(lower)
    for pos in _POS_ORDER:
        if pos in lemmas:
            return str(lemmas[pos][0])
    return None


# A participle right after "be" or "get" whose lemma is also an adjective keeps its form:
# "the tape is freed" and "the tape is freeing its buffers" must not read as "the tape is
# free" (costs nothing); "is cleared" is not "is clear". Other participles are read as
# usual ("is compiled" -> "is compile", "is giving" -> "is give").
_AFTER_BE = re.compile(
    r"\b(?:is|are|was|were|be|been|being|get|gets|got|getting|'s|'re)\s+(?:\w+ly\s+)?$",
    re.IGNORECASE,
)
_PARTICIPLE = re.compile(r"(?:ed|en|ing)$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _is_adjective(word: str) -> bool:
    return "ADJ" in getAllLemmas(word.lower())


def lemma_text(text: str) -> str:
    """The text with each plain word replaced by its lemma (identifiers kept as written)."""

    def replace(match: re.Match[str]) -> str:
        word = match.group()
        before = text[max(0, match.start() - 40) : match.start()]
        found = lemma(word)
        if _PARTICIPLE.search(word) and _AFTER_BE.search(before) and _is_adjective(found):
            return word
        return found

    return _UPDATE_VERB.sub("update", _WORD.sub(replace, text))


# Round 13: verbs that say a step changes the weights, read as "update" when their object is
# the weights themselves ("tape.gradient already moves the weights a little"), in the
# twin only. Not after "to" ("which way to move the weights" is the gradient's direction,
# not a step), nor with a place after the object ("move the weights to the GPU").
_UPDATE_VERB = re.compile(
    r"(?<!\bto )\b(?:move|nudge|shift|tweak)\b"
    r"(?=\s+(?:the\s+|its\s+|their\s+|all\s+|each\s+|your\s+|model\s+)?"
    r"(?:weight|parameter|param|variable|kernel)\b(?!\s+(?:to|into|onto|inside|between|across|off)\b))",
    re.IGNORECASE,
)
