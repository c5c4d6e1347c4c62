"""A comparison that says TensorFlow behaves like another framework is a claim about TensorFlow.

"If you reuse the tape without resetting, the old gradients add onto the new ones, same problem
as in PyTorch" states a belief about TensorFlow's tape; the comparison only says PyTorch shares
it. The matcher already reads such a mention as no topic of its own (matching.framework_mentions:
"like", "same as in", ...), but many tell phrasings keep the other framework's name out of the
sentence they read (`!(pytorch|torch|...)`, look-behinds for "pytorch"): written against
sentences about PyTorch ("in PyTorch the gradients pile up in .grad"), they also refused every
sentence that merely compares TensorFlow with it, so the belief named nothing (round 50, C46's
finding). A sentence *about* PyTorch is not touched here.

`likeness_twin` gives a tell a second reading of the answer where each framework named right
after a comparison of likeness ("like", "just like", "same (problem) as (in)", "similar to",
"the same way as", "as in", "as PyTorch does", "the same problem PyTorch has") is blanked
(spaces, the same length), so the guards no longer see it. Only tells read it, and only where
the answer as written names none (grader._hit_for): concepts are credited from the answer as
written, so a PyTorch-only answer earns no TensorFlow credit from it. Not blanked: a comparison
of difference ("unlike", "than", "compared to", "vs"), a denied likeness ("not like PyTorch",
"isn't the same as in torch", or one after a negation cue in its clause), and a mention a
relative clause describes ("like PyTorch, where gradients accumulate ..."), which is that
framework's. Round 51 (engineer W9). One search per sentence; each mention's lead-in is a
bounded window before it, so the reading is linear in the answer's length.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from functools import lru_cache

import regex

from app.grading.freetext.matching import FOREIGN, described_after
from app.grading.freetext.normalise import Unit
from app.grading.freetext.per_answer import remembered_per_answer
from app.grading.freetext.phrasings import CUE, mask, start_of_clause

# The comparison of likeness that ends right before the framework's name (searched in a window
# of `_WINDOW` characters before it, anchored at its end).
_LIKENESS = regex.compile(
    r"(?:\b(?:just|exactly|much|pretty\s+much|a\s+lot|very\s+much|kind\s+of|sort\s+of)\s+)?"
    r"\blike\s+(?:in\s+|with\s+|for\s+)?$"
    # "same as in", "same problem as in", "the same issue as with", "same thing as"
    r"|\bsame\s+(?:[\w-]+\s+){0,2}?as\s+(?:in\s+|with\s+|for\s+)?$"
    r"|\b(?:similar|analogous|akin|equivalent|identical)\s+to\s+(?:what\s+(?:\w+\s+){1,3})?"
    r"(?:in\s+)?$"
    r"|\bthe\s+same\s+way\s+(?:as\s+)?(?:in\s+)?$"
    r"|(?<!\b(?:long|soon|far|well|such)\s)\bas\s+(?:in\s+|with\s+)$",
    regex.IGNORECASE,
)
# "..., as PyTorch does", "the way torch does", "the same problem PyTorch has": the framework
# as the subject of a likeness.
_AS_IT_DOES = regex.compile(
    r"(?:(?<!\b(?:long|soon|far|well|such)\s)\bas|\bthe\s+(?:same\s+)?way"
    r"|\bsame\s+(?:[\w-]+\s+){1,2}?(?:that\s+)?)\s*$",
    regex.IGNORECASE,
)
_DOES_AFTER = regex.compile(
    r"(?:'s)?\s+(?:does|do|did|would|will|has|have|had|gives|gave)\b", regex.IGNORECASE
)
# A likeness denied ("not like PyTorch", "isn't the same as in torch", "never like JAX"), or
# one of difference that shares a word ("unlike", "not the same as", "dissimilar to").
_DENIED_BEFORE = regex.compile(
    r"(?:\b(?:not|never|no|nothing|un)|n't)\s*(?:(?:quite|really|exactly|at\s+all|just|the)\s+)*$",
    regex.IGNORECASE,
)
_WINDOW = 64


def compared_alike(sentence: str, start: int, end: int) -> bool:
    """Whether the framework named at `start:end` of `sentence` follows a comparison of
    likeness that nothing denies, and no relative clause describes it. A negation cue anywhere
    in the mention's clause before it denies the likeness too: "nothing gets added onto a .grad
    field sitting on each weight the way pytorch does it" says TensorFlow is *not* like PyTorch
    (a not-read automl-platform-user answer labelled correct, read this round)."""
    masked = mask(sentence)
    cues = _cue_starts(masked)  # one search per sentence, then a bisection per mention
    last_cue = bisect_left(cues, start) - 1
    if last_cue >= 0 and cues[last_cue] >= start_of_clause(masked, start):
        return False
    before = sentence[max(0, start - _WINDOW) : start]
    likeness = _LIKENESS.search(before)
    if likeness is None and not (_AS_IT_DOES.search(before) and _DOES_AFTER.match(sentence, end)):
        return False
    opened = likeness.start() if likeness is not None else len(before)
    if _DENIED_BEFORE.search(before, 0, opened) is not None:
        return False
    return described_after(sentence, end) is None


@lru_cache(maxsize=512)
def _cue_starts(masked: str) -> tuple[int, ...]:
    return tuple(cue.start() for cue in CUE.finditer(masked))


def blanked_alike(text: str) -> str:
    """`text` with every framework compared alike (`compared_alike`) blanked by spaces."""
    spans = [m.span() for m in FOREIGN.finditer(text) if compared_alike(text, *m.span())]
    if not spans:
        return text
    pieces, at = [], 0
    for start, end in spans:
        pieces += [text[at:start], " " * (end - start)]
        at = end
    return "".join(pieces) + text[at:]


@remembered_per_answer
def likeness_twin(units: tuple[Unit, ...]) -> tuple[Unit, ...] | None:
    """The answer with each framework compared alike blanked in its prose sentences (and their
    lemma twins), or None where no sentence compares so (most answers)."""
    twin, changed = [], False
    for unit in units:
        if unit.is_code:
            twin.append(unit)
            continue
        text, lemmas = blanked_alike(unit.text), blanked_alike(unit.lemmas)
        changed = changed or text != unit.text or lemmas != unit.lemmas
        same = text == unit.text and lemmas == unit.lemmas
        twin.append(unit if same else dataclasses.replace(unit, text=text, lemmas=lemmas))
    return tuple(twin) if changed else None


def as_written(units: tuple[Unit, ...], twin: tuple[Unit, ...], sentence: str) -> str:
    """The sentence as the answer wrote it, for a sentence of `twin` (a hit's, shown to the
    learner): the blanked names are restored."""
    for unit, read in zip(units, twin, strict=True):
        if read.text == sentence:
            return unit.text
    return sentence
