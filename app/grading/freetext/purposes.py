"""A denial that is a reset's purpose states what would happen without the reset.

"Reset the tape every step so it does not accumulate gradients" denies accumulation only
under the reset: it says the tape would accumulate without one, which is the belief itself
(`tape-accumulates`). Read as a denial, the sentence named no tell and could even credit
"nothing accumulates" (round 18's reader task). A match denied inside a purpose clause ("so
(that) ...") whose clause before it resets, clears, wipes, flushes or zeroes something (and
denies nothing) is read as affirmed. "..., so you don't have to call it" is a consequence
for the learner, not a purpose, and is left alone.
"""

from __future__ import annotations

import re

from app.grading.freetext.phrasings import CUE, start_of_clause

_RESET = re.compile(
    r"\b(?:reset(?:s|ting)?|clear(?:s|ed|ing)?|wip(?:e|es|ed|ing)|flush(?:es|ed|ing)?"
    r"|zero_grad|zero(?:s|es|ed|ing)?\s+(?:out|them|it|the|all|their|its))\b",
    re.IGNORECASE,
)
_SO = re.compile(r"\bso$", re.IGNORECASE)
_LEARNER = re.compile(r"\s*(?:that\s+)?(?:you|we|i|u|one)\b", re.IGNORECASE)


def reset_purpose(masked: str, start: int, end: int) -> bool:
    """Whether a match ending at `end` is denied inside the purpose of a reset: "so" opens
    its last clause, a cue sits there, and the clause before "so" resets something."""
    clause = start_of_clause(masked, end, inclusive=False)
    if not _SO.search(masked, 0, clause) or _LEARNER.match(masked, clause):
        return False
    if not CUE.search(masked, clause, end):
        return False
    before_end = clause - 2
    while before_end > 0 and masked[before_end - 1] in " ,":
        before_end -= 1
    before = masked[start_of_clause(masked, before_end, inclusive=False) : before_end]
    return _RESET.search(before) is not None and CUE.search(before) is None
