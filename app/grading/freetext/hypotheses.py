"""A claim that is only supposed or wished for states nothing about TensorFlow.

"Even if you kept one tape across steps, the gradients would not pile up" concedes a case
for the sake of the main clause; the case itself is not claimed ("the tape is kept across
steps" is a supposition). "If you want the gradients summed over several steps, keep your
own accumulators" names what the learner may wish for; it does not say TensorFlow sums them.
Read literally, both named `tape-accumulates` / `needs-zero-grad` on true sentences (round
34's "Left" paragraphs). Round 35 (issue 14): a match that starts after "even if" in its
clause, or is the object of a wish ("if you want / would like ...", a sentence opening on
"Want"), is a supposition: it names no tell and still credits a concept, as a match in an
open if-clause does (conditions.py). The main clause after the comma is read as before.

The openers are found once per sentence and each match asks for the last one before it
(a bisection), so a reading stays linear in the answer's length.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache

import regex

from app.grading.freetext.phrasings import end_of_clause, start_of_clause

# "even if" (not "even though", which asserts).
_CONCESSION = regex.compile(r"\beven\s++if\b", regex.IGNORECASE)
# A wish of the learner put as a condition ("if you want", "when we'd like") or a question
# opening the sentence ("Want ...?", "Do you want ...?"); not "you want X" alone, which is
# advice ("you want tape.reset() every step"), nor "they want X" (a requirement), nor "want to
# <verb>", whose object is an action ("if you want to stress that ...").
_WISH = regex.compile(
    r"(?:\b(?:if|when|whenever|unless)\s++(?:you|we|one|u|i)(?:\s++(?:really|ever|just|only))?+"
    r"(?:'d\s++like|\s++(?:would\s++like|want(?:s|ed)?+|wish(?:es|ed)?+|prefer(?:s|red)?+))"
    r"|^\W*+(?:do\s++you\s++)?+want)\b(?!\s++to\b)",
    regex.IGNORECASE,
)


# A subject after the wish's object opens its consequence ("if you want fresh gradients you
# must zero them": the advice is a claim).
_SUBJECT = regex.compile(r"\b(?:you|we|i|it|they|then|tf|tensorflow|keras)\b", regex.IGNORECASE)


@lru_cache(maxsize=512)
def _ends(masked: str, wish: bool) -> tuple[int, ...]:
    return tuple(found.end() for found in (_WISH if wish else _CONCESSION).finditer(masked))


def _opener_before(masked: str, start: int, wish: bool) -> int | None:
    """Where the last opener before `start` in its clause ends, or None."""
    ends = _ends(masked, wish)
    before = bisect_right(ends, start)
    if before and ends[before - 1] >= start_of_clause(masked, start):
        return ends[before - 1]
    return None


def supposed(masked: str, start: int, end: int) -> bool:
    """Whether a match `start:end` starts after "even if" in its clause, or is the object of
    a wish: after it in its clause, with no subject opening a consequence up to its end."""
    if _opener_before(masked, start, wish=False) is not None:
        return True
    wish = _opener_before(masked, start, wish=True)
    if wish is None or end > end_of_clause(masked, start):
        return False
    subjects = _subjects(masked)  # none from the wish's end up to the match's end
    return bisect_left(subjects, wish) == bisect_left(subjects, end)


@lru_cache(maxsize=512)
def _subjects(masked: str) -> tuple[int, ...]:
    return tuple(found.start() for found in _SUBJECT.finditer(masked))
