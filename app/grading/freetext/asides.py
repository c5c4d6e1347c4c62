"""Bracketed asides inside a statement, whose own denials deny only the aside.

"every variable before it gets None (no path back to the loss), no error" states no error:
the "no" of the aside denies "path back to the loss", not the statement around it, and
counting it beside the "no" of "no error" cancelled that denial (round 47's final set, a
numpy-inside-tape answer labelled correct that drew `numpy-raises-error`). An aside is a
bracket opened after a space or at the start (not a call's arguments, which the mask
blanks) and closed in the same sentence; a bracket holding a denial alone ("are (not)
stored") is the statement's own denial and stays counted. Round 48 (engineer W6). Round 49: a
call's own brackets inside an aside ("(where optimizer.zero_grad() would go in pytorch)") are
part of it, and a framework named in an aside closed before a match sets no topic for it
(matching.is_foreign).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

# Round 49: a call's own brackets inside the aside ("(where zero_grad() would go in pytorch)")
# are part of it; a bracket opened after a space inside it is no call and ends the scan.
_ASIDE = re.compile(r"(?<![\w\]])\((?:[^()\n]|(?<=[\w\]])\([^()\n]*\))*\)")
_WORD = re.compile(r"[\w']+")


@lru_cache(maxsize=2048)
def aside_spans(masked: str) -> tuple[tuple[int, int], ...]:
    """Where each aside of two words or more opens and closes (one pass over the sentence)."""
    return tuple(
        found.span()
        for found in _ASIDE.finditer(masked)
        if len(_WORD.findall(found.group(), 0, 40)) > 1
    )


def inside_closed_aside(masked: str, position: int, start: int, end: int) -> bool:
    """Whether `position` (a cue) lies in an aside that closes before the match's end and
    does not hold the match's start: the aside is a remark inside or before the statement,
    not the statement the match begins in. Asides never nest, so the one that may hold
    `position` is found by bisection: a cue costs a logarithm of the asides, not their count."""
    spans = aside_spans(masked)
    index = bisect_right(spans, (position, len(masked))) - 1
    if index < 0:
        return False
    a, b = spans[index]
    return a < position < b and b <= end and not a < start < b


# Round 51: an error warned of inside a bracketed aside that holds an open condition ("...
# gets None from tape.gradient (if you don't check for the Nones, the training step raises
# an error)") is the consequence of a hypothesis the aside adds about another step, not the
# answer's own claim about the question's subject (C46's finding, round 50: round 49's false
# tell on a correct numpy-inside-tape answer sat in such an aside). Only a match wholly inside
# the aside, and only one that names the error itself: a belief the aside states in other words
# ("(if you don't reset it the gradients pile up)") is read as before.
_CONDITION = re.compile(r"\b(?:if|unless|otherwise|in\s+case|whenever)\b", re.IGNORECASE)
_ERROR = re.compile(
    r"\b(?:errors?|raises?|raised|raising|throws?|thrown|exceptions?|crash\w*|fails?|failed)\b",
    re.IGNORECASE,
)


def warned_in_conditional_aside(masked: str, start: int, end: int) -> bool:
    """Whether the match (`start:end` of `masked`) names an error and lies wholly inside an
    aside that holds an open condition (one bisection over the sentence's asides)."""
    if _ERROR.search(masked, start, end) is None:
        return False
    spans = aside_spans(masked)
    index = bisect_right(spans, (start, len(masked))) - 1
    if index < 0:
        return False
    a, b = spans[index]
    return a < start and end <= b and _CONDITION.search(masked, a, b) is not None
