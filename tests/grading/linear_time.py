"""Linear-time checks for hostile answer shapes, with no fixed CPU bound.

The hostile-shape tests mean *linear*: the same shape eight times longer costs about eight
times as much, where a backtracking pattern or a rescan from every position costs 64 times or
more. A fixed bound ("under 0.5 s") says something else and fails on a busy machine: round 52's
CI (two cores, two test workers) failed a 0.5 s bound at 0.57 s on work that takes a fraction
of that alone. So each check measures one shape at two lengths in the same run (the thread's CPU
time, the grader's own clock), each length's fastest of a few tries, and bounds the ratio; load
slows both lengths alike.

Each try puts a fresh nonsense word in front of the text, so no cache of the grader's (answers,
sentences, masks) has seen it; a bare pattern search keeps no cache and reads the text as given.
"""

from __future__ import annotations

import time
from collections.abc import Callable

FACTOR = 8  # the long text is 8 times the short one
BOUND = 3 * FACTOR  # linear work grows ~8x, quadratic work 64x
TRIES = 3
FLOOR_SECONDS = 1e-3  # a short text cheaper than this is read as this (timer and GC noise)


def shape_at(text: str, length: int) -> str:
    """The text's shape at `length` characters: its head and its tail, the middle cut (a
    hostile text pumps a phrase, sometimes between a fixed head and tail)."""
    if length >= len(text):
        return text
    head = length // 2
    return text[:head] + text[len(text) - (length - head) :]


def growth(work: Callable[[str], object], text: str, *, fresh: bool = True) -> float:
    """How many times more `work` costs on `text` than on its shape at 1/FACTOR of the length:
    the fastest of TRIES runs at each length, the two lengths measured in turn; with `fresh`,
    each run cold (work that keeps no cache, or reads the text's start, passes False)."""
    short, long = shape_at(text, len(text) // FACTOR), text
    best = {short: float("inf"), long: float("inf")}
    for attempt in range(TRIES):
        prefix = "zq" + "q" * attempt + " " if fresh else ""
        for sample in (short, long):
            began = time.thread_time()
            work(prefix + sample)
            best[sample] = min(best[sample], time.thread_time() - began)
    return best[long] / max(best[short], FLOOR_SECONDS)


def assert_linear(
    work: Callable[[str], object],
    text: str,
    *,
    length: int | None = None,
    fresh: bool = True,
    what: object = "",
) -> None:
    """`work` grows at most BOUND times over FACTOR times the text (`text` first cut to
    `length` characters when given: the part the work reads, so the short text is short);
    `fresh` as in `growth`; `what` names the work in the failure."""
    sample = text if length is None else shape_at(text, length)
    ratio = growth(work, sample, fresh=fresh)
    assert ratio < BOUND, f"{what} {ratio:.1f}x the cost at {FACTOR}x the length: {sample[:60]!r}"
