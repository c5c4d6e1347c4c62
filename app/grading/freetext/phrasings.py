"""Phrasings as regular expressions, and the clauses of the sentence they are read in.

Finding hits, reading their polarity and reading claims must cut a sentence the same way:
one mask (call arguments and cue words that deny nothing blanked), one set of negation
cues and clause terminators, defined here.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

import regex

from app.grading.freetext.budget import BoundedPattern, deferred_bounded
from app.grading.freetext.hinglish import DENIALS, alternation, glossed_as
from app.grading.freetext.lexicon import widen
from app.packs.rubric import expand_phrasing

CUE = re.compile(
    # Round 49: a denial of the whole clause in a phrase ("at no point does the tape keep the
    # gradients", "none of the gradients are held in the tape"): one cue, not a short "no"
    # that an opener ("the") stops, nor no cue at all. Round 50: "none of" denies its own
    # clause only where a cut a new statement follows ends it (`denial_stops_at_cut`).
    r"\b(?:at\s+no\s+(?:point|time|stage|step)|in\s+no\s+way|by\s+no\s+means"
    r"|under\s+no\s+circumstances|none\s+of"
    r"|not|never|no|nothing|nobody|neither|nor|without|cannot|unlike|instead\s+of|rather\s+than"
    r"|different\s+from|distinct\s+from"  # "None ... is different from a zero gradient" (round 12)
    r"|dont|doesnt|isnt|arent|wont|cant|didnt|shouldnt|wasnt|werent|hasnt|havent"
    r"|" + alternation(DENIALS) + r")\b|n't\b",  # round 27: Hinglish (hinglish.py)
    re.IGNORECASE,
)
# Phrases that contain a cue word but deny nothing.
_NOT_CUES = re.compile(
    r"\bnot\s+(?:only|just|merely)\b|\bno\s+(?:matter|doubt)\b|\bnot\s+sure\b|\bif\s+not\b"
    # "X is not the only difference" affirms X and adds more (round 8)
    r"|(?:\bnot|n't)\s+the\s+only\b"
    r"|\b(?:don't|dont|do\s+not|never)\s+forget\b",
    re.IGNORECASE,
)
# Round 34: "your", "my", "our" open a subject as "the" does ("..., so apply_gradients doesn't
# update them and your loss stays flat": the "doesn't" is the first clause's).
_SUBJECT = (
    r"(?:it|the|then|you|we|i|they|this|that|these|your|my|our|tf|tensorflow|pytorch|keras"
    r"|optimizer|apply_gradients|tape|gradients?|grads|numpy|everything)"
)
TERMINATOR = re.compile(
    r"[,;:!?]|\s-+>?\s|=>|\b(?:but|however|whereas|although|though|while|so|because|since"
    r"|which|otherwise|therefore|hence|yet|instead(?!\s+of)|thus|unless"
    r"|"
    + alternation(glossed_as("but", "whereas", "otherwise", "because", "so"))  # round 27
    + r")\b"
    r"|\band\s+(?=" + _SUBJECT + r"\b)"
    r"|\band\s+(?=(?:don't|dont|do\s+not|not|never|no|neither|nor)\b)",
    re.IGNORECASE,
)
_CALL_ARGS = re.compile(r"(?<=[\w\]])\([^()\n]*\)")


@lru_cache(maxsize=4096)
def compile_phrasing(pattern: str, lexicon: bool = True) -> BoundedPattern:
    """A phrasing as a regular expression: its word alternatives widened to the shared
    lexicon's synonyms (lexicon.py; not for a claim's excluded role), its ` ~ ` gaps
    expanded; compiled by `regex` at its first search that runs (round 29: an invalid one
    raises `regex.error` there, or at `.compiled`) and searched within the answer's budget
    (budget.py)."""
    return deferred_bounded(expand_phrasing(widen(pattern) if lexicon else pattern))


@lru_cache(maxsize=2048)
def mask(text: str) -> str:
    """Blank call arguments and non-cues so `f(a, b)` and 'not only' cut no clauses; the
    "neither" of "neither X nor Y" is one denial with its "nor", not a second one that
    would cancel it: "nor" alone denies X (its clause) and Y (its short scope; round 8)."""
    text = _CALL_ARGS.sub(lambda m: "(" + "x" * (len(m.group()) - 2) + ")", text)
    text = neither_joined_to_nor(text)
    text = _BRACKETED_ALTERNATIVE.sub(lambda m: " " + m.group(1) + " ", text)
    text = _HEDGE_ASIDE.sub(lambda m: " " * len(m.group()), text)
    return _NOT_CUES.sub(lambda m: "x" * len(m.group()), text)


# Round 31: an alternative bracketed by commas before a complement both share ("the model
# was called, or the loss computed, before the with block") cuts no clause: the complement
# is said of both. One to four words; the complement opens on a preposition of place/time.
_BRACKETED_ALTERNATIVE = regex.compile(
    r",(\s+(?:or|and)\s+(?:[\w.()]+\s+){0,3}+[\w.()]+),(?=\s+(?:before|after|outside|inside"
    r"|within|above|below|during|until|under|beyond)\b)",
    regex.IGNORECASE,
)
# Round 34: a hedge of knowledge or manner set off by commas inside a statement ("It is not,
# as far as I am aware, possible to ...", "the tape is, of course, not persistent") is no
# clause of its own: it cuts nothing, so a denial before it still reaches the words after it.
# Blanked (spaces, the same length); fixed phrases with no cue in them. Not ", I think,":
# doubting voices put it in a claim they are about to take back ("X is, I think, Y? No, ..."),
# and reading through it asserted such claims (measured, docs/freetext-rounds.md round 34).
_HEDGE_ASIDE = regex.compile(
    r",\s*+(?:as\s+far\s+as\s+(?:i|we)\s+(?:know|am\s+aware|are\s+aware|can\s+tell|remember"
    r"|recall|understand)|to\s+(?:the\s+best\s+of\s+)?(?:my|our)\s+knowledge|afaik|iirc"
    r"|if\s+i\s+(?:remember|recall)(?:\s+(?:correctly|right))?"
    r"|in\s+my\s+(?:experience|view|opinion|understanding)|of\s+course|honestly"
    r"|frankly|in\s+fact|strictly\s+speaking|as\s+it\s+happens)\s*+,",
    regex.IGNORECASE,
)
# "neither" up to the first "nor" before a sentence stop (".;:!?", not a "." inside a
# token): the "neither" is blanked. Round 39: read in one pass over these marks, not as
# `\bneither\b(?:[^.;:!?]|\.(?=\w))*?\bnor\b` - that lazy scan ran from each "neither"
# to the stop, quadratic in a run of them with no "nor" (5,000 characters: 53 ms).
_NEITHER_NOR_MARKS = re.compile(
    r"(?P<neither>\bneither\b)|(?P<nor>\bnor\b)|\.(?!\w)|[;:!?]", re.IGNORECASE
)


def neither_joined_to_nor(text: str) -> str:
    """Each "neither" with a "nor" after it in its sentence stretch, blanked: the earliest
    one still open when a "nor" comes (a match of the scan above starts there and ends at
    that "nor"; the next starts after it), none across a stop."""
    blanked, opened = [], None
    for mark in _NEITHER_NOR_MARKS.finditer(text):
        if mark.group("neither") is not None:
            opened = mark.start() if opened is None else opened
        elif mark.group("nor") is not None and opened is not None:
            blanked.append(opened)
            opened = None
        elif mark.group("nor") is None:
            opened = None  # a stop
    if not blanked:
        return text
    pieces, at = [], 0
    for start in blanked:
        pieces += [text[at:start], "x" * 7]
        at = start + 7
    return "".join(pieces) + text[at:]


def start_of_clause(masked: str, position: int, *, inclusive: bool = True) -> int:
    """Where the clause holding `position` starts.

    With inclusive=False a terminator ending exactly at `position` is ignored: a match
    that ends on "unless" still belongs to the clause before it.
    """
    ends = clause_ends(masked)
    before = bisect_right(ends, position) if inclusive else bisect_left(ends, position)
    return ends[before - 1] if before else 0


def clause_ends(masked: str) -> tuple[int, ...]:
    """Where each clause terminator of a masked text ends, in order (strictly increasing:
    no terminator is empty). Read once per text: a match's polarity asks for the start of
    its clause several times (round 25: walking the terminators on each call was ~5% of an
    honest answer's grading)."""
    return _terminators(masked)[1]


@lru_cache(maxsize=512)
def _terminators(masked: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where each clause terminator of a masked text starts and where it ends: one scan per
    text serves `start_of_clause`, `end_of_clause` and `denial_stops_at_cut` (round 54: two
    cached scans of the same text with the same pattern read it twice)."""
    spans = [term.span() for term in TERMINATOR.finditer(masked)]  # look-aheads see past
    return tuple(start for start, _ in spans), tuple(end for _, end in spans)


# Round 50: "none of" quantifies the noun after it; its denial falls on its own clause's
# predicate, and a statement after a cut a new belief follows (", so", "; ", ", then",
# "and then") may take that noun up undenied: "none of the tapes may be released before the
# update step, so make them persistent" says to make the tapes persistent (round 14's held
# statement; "them" is the tapes, not their denial). Other cues deny a verb or a phrase whose
# words a match across the cut takes: they stay as they were (measured: docs/freetext-rounds.md
# "Round 50: denial scope at clause cuts and the false tells left (engineer W8)").
_CLAUSE_BOUND_CUE = re.compile(r"none\s+of", re.IGNORECASE)
_BELIEF_CUT = re.compile(r"\s*(?:;|,?\s*(?:so|then|and\s+then)\b)", re.IGNORECASE)


def denial_stops_at_cut(masked: str, cue: re.Match[str]) -> bool:
    """Whether a negation cue (a `CUE` match in `masked`) denies its own clause only: a
    clause-bound cue ("none of") in a clause that ends at a cut a new belief follows."""
    if _CLAUSE_BOUND_CUE.fullmatch(cue.group()) is None:
        return False
    starts = _terminators(masked)[0]  # a bisection, not a scan per cue: linear in a run of cues
    at = bisect_left(starts, cue.end())
    cut = starts[at] if at < len(starts) else len(masked)
    return _BELIEF_CUT.match(masked, cut) is not None


def denies_past_its_clause(masked: str, start: int, end: int) -> bool:
    """Whether a negation cue between `start` and `end` (a clause) may deny words a later
    clause takes up from it (`denial_stops_at_cut` says which may not)."""
    return any(not denial_stops_at_cut(masked, cue) for cue in CUE.finditer(masked, start, end))


def end_of_clause(masked: str, position: int) -> int:
    """Where the clause holding `position` ends: the start of the first terminator at or after
    it, as `TERMINATOR.search(masked, position)` finds it, by bisection in the terminators
    read once per text (round 53: a search per call rescanned a long unpunctuated clause to
    its end, so a run of matches in it cost the square of its length). A terminator starting
    inside one the text's scan took (" - - ") is tried at each position that one covers."""
    starts, ends = _terminators(masked)
    at = bisect_left(starts, position)
    found = starts[at] if at < len(starts) else len(masked)
    if at and ends[at - 1] > position:
        inside = (s for s in range(position, ends[at - 1]) if TERMINATOR.match(masked, s))
        return next(inside, found)
    return found
