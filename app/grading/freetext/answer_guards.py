"""Answer guards: a claim that is a tell only where the whole answer never says something.

"The summed gradient over the micro-batches is the big batch's gradient" is the belief
`summed-gradients-equal-big-batch` only in an answer that never divides or averages: a
correct answer states the same sum and divides by four in another sentence. Read sentence by
sentence, such a claim named 13 more labelled tags and 4 false tells on correct answers
(round 35, engineer C17), since an excluded role `!(...)` is read in the claim's own sentence.
A role written `!!(...)` is a guard: the claim is not read in an answer that states the guard
anywhere, affirmed, as an ordered phrasing is read (prose or code, as written or in the lemma
twin). A denied guard ("no division needed", "without averaging") guards nothing: it states the
belief. Issue 14, round 36 (engineer M8).

A guard is searched once over the whole answer (`matching.find_hits`, its one search of the
answer first), so a reading stays linear in the answer's length. The grader reads an answer
without its padding (signals.without_padding), so a run of keywords guards nothing.
"""

from __future__ import annotations

from app.grading.freetext.matching import find_hits
from app.grading.freetext.normalise import Unit

GUARD = "!!"


def is_guard(part: str) -> bool:
    """Whether a claim's part (` & `-separated, as written) is an answer guard `!!(...)`."""
    return part.startswith(GUARD)


def guard_phrasing(part: str) -> str:
    """The ordered phrasing a guard part stands for: "!!(divid\\w*)" -> "(divid\\w*)"."""
    return part.removeprefix(GUARD)


def guarded(units: tuple[Unit, ...], guards: tuple[str, ...]) -> bool:
    """Whether the answer states any of the guards, affirmed."""
    return bool(guards) and any(hit.affirmed for hit in find_hits(units, list(guards)))
