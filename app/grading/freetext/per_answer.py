"""Readings of a whole answer's units, remembered without hashing the answer on each call.

The matcher reads some things once per answer (where each unit sits in the whole answer, the
whole prose), remembered with `lru_cache` keyed by the answer's tuple of units - and asked for
on every phrasing list searched, several hundred times an answer. A tuple's hash is not kept:
each lookup hashed every unit again (a generated dataclass `__hash__` each), ~26 us for an
answer of 190 units, a fifth of the CPU of benchmarks/freetext_hostile.py's "every rubric
phrasing written out" (round 39). The last answer read is now remembered by identity (the
same tuple object: the grader passes `normalised.units` through), the `lru_cache` behind it
as before for the others; the reading returned is the same object either way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import TypeVar

from app.grading.freetext.normalise import Unit

T = TypeVar("T")
Units = tuple[Unit, ...]
_KEPT = 4  # answers (or joined sentences) remembered by identity


def remembered_per_answer(read: Callable[[Units], T]) -> Callable[[Units], T]:
    """`read` remembered per answer: the last few by identity, 64 by value."""
    cached = lru_cache(maxsize=64)(read)
    # the last pairs of (units, reading), newest first, replaced whole by one item
    # assignment: a thread reads either the old pairs or the new ones. A few, not one: a
    # tell's search alternates between the answer and its sentences joined across "it"
    # (joins.py), each its own tuple.
    last: list[tuple[tuple[Units, T], ...]] = [()]

    @wraps(read)
    def remembered(units: Units) -> T:
        held = last[0]
        for pair in held:
            if pair[0] is units:
                return pair[1]
        reading = cached(units)
        last[0] = ((units, reading), *held[: _KEPT - 1])
        return reading

    remembered.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    remembered.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return remembered
