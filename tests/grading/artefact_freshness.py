"""Round 25: an artefact's freshness check fails in a second, with the first line that differs.

`assert shipped == built` on two artefacts of up to a few MB made pytest diff them line by
line (difflib) before it reported a stale artefact: minutes per check, in every round whose
branches start before the lead retrains. The comparison is the same; only the message is cut."""

from __future__ import annotations

import pytest


def assert_fresh(shipped: str, built: str, train: str) -> None:
    """`shipped` (the committed artefact) is byte for byte `built` (a fresh build), else fail
    naming how many lines differ, the first of them and the command that retrains it. No line
    is quoted: artefacts hold labelled answers, which a failure must not print."""
    if shipped == built:
        return
    old, new = shipped.splitlines(), built.splitlines()
    differing = [i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
    first = differing[0] if differing else min(len(old), len(new))
    pytest.fail(
        f"stale artefact: {len(differing)} of {len(old)} lines differ from a fresh build "
        f"({len(old)} -> {len(new)} lines), the first at line {first + 1}; retrain: {train}",
        pytrace=False,
    )
