"""A denial that is a reset's purpose states what would happen without the reset.

"Reset the tape every step so it does not accumulate gradients" denies accumulation only
under the reset: it says the tape would accumulate without one, which is the belief itself
(`tape-accumulates`). Read as a denial, the sentence named no tell and could even credit
"nothing accumulates" (round 18's reader task). A match denied inside a purpose clause ("so
(that) ...") whose clause before it resets, clears, wipes, flushes or zeroes something (and
denies nothing) is read as affirmed. "..., so you don't have to call it" is a consequence
for the learner, not a purpose, and is left alone.

Round 35: the clause before "so" may name the reset by a pronoun ("You need zero_grad: call it
at the top of each step so the old gradients don't leak in", "clear the sums, and do it every
step so ..."): an instruction whose object is "it" / "this" / "that" / "them", after a reset
named earlier in the sentence, resets too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.grading.freetext.phrasings import CUE, start_of_clause

_RESET = re.compile(
    r"\b(?:reset(?:s|ting)?|clear(?:s|ed|ing)?|wip(?:e|es|ed|ing)|flush(?:es|ed|ing)?"
    r"|zero_grad|zero(?:s|es|ed|ing)?\s+(?:out|them|it|the|all|their|its))\b",
    re.IGNORECASE,
)
# An instruction done to a pronoun: "call it", "run this", "do that", "put it".
_DONE_TO_PRONOUN = re.compile(
    r"^\W*(?:(?:and|then|just|also|always|so)\s+)*(?:call|run|do|put|use|invoke|place|execute"
    r"|repeat|trigger)\s+(?:it|this|that|them)\b",
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
    before_start = start_of_clause(masked, before_end, inclusive=False)
    before = masked[before_start:before_end]
    if CUE.search(before) is not None:
        return False
    if _RESET.search(before) is not None:
        return True
    return _DONE_TO_PRONOUN.match(before) is not None and _first_reset(masked) < before_start


@lru_cache(maxsize=512)
def _first_reset(masked: str) -> int:
    """Where the sentence first names a reset (its length when it names none)."""
    found = _RESET.search(masked)
    return found.start() if found is not None else len(masked)
