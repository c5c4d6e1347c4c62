"""Answer guards: a claim that is a tell only where the whole answer says, or never says, something.

"The summed gradient over the micro-batches is the big batch's gradient" is the belief
`summed-gradients-equal-big-batch` only in an answer that never divides or averages: a
correct answer states the same sum and divides by four in another sentence. Read sentence by
sentence, such a claim named 13 more labelled tags and 4 false tells on correct answers
(round 35, engineer C17), since an excluded role `!(...)` is read in the claim's own sentence.
A role written `!!(...)` is a guard: the claim is not read in an answer that states the guard
anywhere, affirmed, as an ordered phrasing is read (prose or code, as written or in the lemma
twin). A denied guard ("no division needed", "without averaging") guards nothing: it states the
belief. Issue 14, round 36 (engineer M8).

Round 54 (engineer C55): the other way round. "The tape is cleaned up automatically when it goes
out of scope" is the belief `persistent-is-free` only in an answer about a persistent tape: of a
default tape it is true, and 64 of the 79 tune answers it named without the tag never said
"persistent" at all (round 53, engineer C53). A role written `!+(...)` is a requirement: the
claim is read only in an answer that speaks of it somewhere, read as a guard is (prose or code,
as written or in the lemma twin), affirmed or denied: the belief is often said under a denial
that presupposes the tape ("you don't need to delete a persistent tape, it's free"), so a
requirement's own words say which mentions do not count (`(?<!non-)persistent`). A claim may
carry both kinds, and several of each: it is read where no `!!` guard is stated and every `!+`
requirement is spoken of.

A guard is searched once over the whole answer (`matching.find_hits`, its one search of the
answer first), so a reading stays linear in the answer's length. The grader reads an answer
without its padding (signals.without_padding), so a run of keywords guards nothing and meets
no requirement.
"""

from __future__ import annotations

from app.grading.freetext.matching import find_hits
from app.grading.freetext.normalise import Unit

GUARD = "!!"  # the claim is not read where the answer states this
REQUIREMENT = "!+"  # the claim is read only where the answer speaks of this


def is_guard(part: str) -> bool:
    """Whether a claim's part (` & `-separated, as written) is read over the whole answer:
    a guard `!!(...)` or a requirement `!+(...)`."""
    return part.startswith((GUARD, REQUIREMENT))


def is_requirement(part: str) -> bool:
    """Whether a claim's part is a requirement `!+(...)`."""
    return part.startswith(REQUIREMENT)


def guard_phrasing(part: str) -> str:
    """The ordered phrasing a guard or requirement stands for: "!!(divid\\w*)" -> "(divid\\w*)"."""
    return part.removeprefix(GUARD).removeprefix(REQUIREMENT)


def stated(units: tuple[Unit, ...], phrasing: str) -> bool:
    """Whether the answer states the phrasing anywhere, affirmed."""
    return any(hit.affirmed for hit in find_hits(units, [phrasing]))


def spoken_of(units: tuple[Unit, ...], phrasing: str) -> bool:
    """Whether the phrasing matches anywhere in the answer, affirmed or denied."""
    return bool(find_hits(units, [phrasing]))


def guarded(units: tuple[Unit, ...], guards: tuple[str, ...]) -> bool:
    """Whether the answer states any of the guards, affirmed."""
    return any(stated(units, guard) for guard in guards)


def admitted(units: tuple[Unit, ...], guards: tuple[str, ...], required: tuple[bool, ...]) -> bool:
    """Whether a claim may be read in the answer: each guard phrasing paired with whether it is
    a requirement (spoken of somewhere) or a guard (stated nowhere)."""
    pairs = zip(guards, required, strict=True)
    return all(spoken_of(units, p) if must else not stated(units, p) for p, must in pairs)
