"""Tell caps by how much of the core stands beside the tell (issue 14, round 34).

Labellers grade a stated belief by what else the answer gets right: the share of `incorrect`
among the tune answers labelled with one tag alone falls with the core band the rules read
beside it, caps left out (below the partial line, some credit, every required concept, a
complete core; docs/freetext-rounds.md "Round 32: tell caps by core coverage (engineer K1)"
and "Round 34: tell caps by core coverage (engineer K2)"). Rounds 18 and 28 read that as
three precedents per tag, each its own small count; this module reads it as one model: the
log-odds that such an answer is labelled incorrect is the tag's own term plus a term for its
band shared by every tag (fitted by coordinate-wise Newton steps, the tag terms shrunk by
`L2`). A tell's cap is `incorrect` where the odds are at least even, else `partial`: never
above partial, so a named tell still keeps an answer below correct.

Pure Python: the trainer (tell_caps.build_artefact) fits it, the grader reads the terms from
tell_caps.json (`BandCaps`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

BANDS = ("below partial", "some credit", "every required", "complete")
L2 = 0.2  # how far the tag terms are shrunk towards zero (round 32: 0.05-1 all gain)
SWEEPS = 30  # Newton sweeps over the tag terms, then the band terms
DIGITS = 4  # terms as written to the artefact, so a retrain diffs
K = TypeVar("K", bound=Hashable)  # a tag's key (question id, tag)
S = TypeVar("S", bound=Hashable)  # a slot of a Newton step: a tag's key or a band


@dataclass(frozen=True)
class BandCaps:
    """A question's band model: tag -> its term, and the band terms shared by every tag."""

    terms: Mapping[str, float]
    bands: Sequence[float] = ()

    def for_band(self, caps: Mapping[str, str], band: int) -> dict[str, str]:
        """`caps` with every tag that has a term capped by the model at `band` (an index
        into `BANDS`); other tags keep their cap."""
        if not self.bands:
            return dict(caps)
        shift = self.bands[band]
        return {
            t: ("incorrect" if self.terms[t] + shift >= 0 else "partial")
            if t in self.terms
            else cap
            for t, cap in caps.items()
        }


def fit(items: Iterable[tuple[K, int, bool]], l2: float = L2) -> tuple[dict[K, float], list[float]]:
    """(tag key, band, labelled incorrect) -> the tag terms and the band terms, by
    alternating Newton steps on the logistic loss (tag terms with an l2 penalty)."""
    rows = list(items)
    tag: dict[K, float] = {key: 0.0 for key, _, _ in rows}
    band = [0.0] * len(BANDS)
    for _ in range(SWEEPS):
        grad, curv = _steps(rows, tag, band, lambda key, _: key)
        for key, g in grad.items():
            tag[key] -= (g + l2 * tag[key]) / (curv[key] + l2)
        by_band, curv_band = _steps(rows, tag, band, lambda _, b: b)
        for b, g in by_band.items():
            band[b] -= g / max(curv_band[b], 1e-9)
    return tag, band


def _steps(
    rows: Sequence[tuple[K, int, bool]],
    tag: Mapping[K, float],
    band: Sequence[float],
    slot_of: Callable[[K, int], S],
) -> tuple[dict[S, float], dict[S, float]]:
    """The loss's gradient and curvature summed per slot (a tag key or a band)."""
    grad: dict[S, float] = {}
    curv: dict[S, float] = {}
    for key, b, wrong in rows:
        p = 1 / (1 + math.exp(-(tag[key] + band[b])))
        slot = slot_of(key, b)
        grad[slot] = grad.get(slot, 0.0) + p - wrong
        curv[slot] = curv.get(slot, 0.0) + p * (1 - p)
    return grad, curv


def rounded(value: float) -> float:
    return round(value, DIGITS)
