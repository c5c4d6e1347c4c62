"""Why the chain's verdict misses a label, counted by cause (issue 14, round 21).

Every fresh set's largest verdict cells are partial graded incorrect, then correct graded
partial. Reading them answer by answer would spend held-out voices, so this module gives
each miss of the chain (chain.py: the rules, the neighbours' tell, tell caps, the second
opinion, each learned without the answer's fold) one cause from what is already counted:
the labels and labelled tags, the tags named and their caps, where each tag came from (the
rules or the neighbours), the fold's precedent for a capped tag (tell_caps.derive over the
other folds' labels) and the rules' reading with caps left out ("core"). No answer text is
read. `benchmarks/freetext.py --chain-causes` prints the table for the tune side, the tune
personas not read and each round left out (docs/freetext-rounds.md, "Round 21: the verdict
cells (engineer P)").
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.grading.freetext import tell_caps
from app.grading.freetext.chain import Fold, Prepared
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Line, line_verdict

Derived = dict[tuple[str, str], dict[str, Any]]


def core_verdict(prepared: Prepared, row: Row) -> str:
    """The rules' verdict with every cap left out (round 18's "core"); a partial one says
    whether a `required` concept is missing (else the score is below the correct line)."""
    if row.evidence is None or row.evidence.empty:
        return "empty"
    rubric, line = prepared.rubrics[row.question_id], Line.of(prepared.rubrics[row.question_id])
    verdict = line_verdict(rubric, dataclasses.replace(row.evidence, caps=()), line)
    if verdict != "partial":
        return verdict
    return "partial, a required concept missed" if line.required - row.evidence.found else verdict


def cause(rules: Row, chained: Row, precedent: Derived, core: str) -> str:
    """One miss's cause: `rules` is the answer as the rules read it, `chained` as the chain
    graded it, `precedent` the fold's tell caps from labels (tell_caps.derive)."""
    if chained.evidence is None or chained.evidence.empty:
        return "empty answer"
    if not chained.named_tags:
        return _untold(rules, chained, core)
    source = "neighbours" if set(chained.named_tags) - set(rules.named_tags) else "rules"
    caps = dict(zip(chained.named_tags, chained.evidence.caps, strict=False))
    unlabelled = [t for t in chained.named_tags if t not in rules.expected_tags]
    if unlabelled:
        whose = "the labellers gave none" if not rules.expected_tags else "they gave another"
        capped = "/".join(sorted({caps[t] for t in unlabelled}))
        return f"a tell not labelled ({whose}), capped {capped} [{source}]; core {core}"
    below = [t for t in chained.named_tags if caps[t] == "incorrect"]
    if not below:
        return f"the labelled tell, capped partial [{source}]; core {core}"
    entry = precedent.get((rules.question_id, below[0]))
    if entry is None or entry.get("cap") is None:
        why = "its rubric (precedent thin or unstable)"
    else:
        why = f"precedent ({entry['cap']})"
    more = ", 2+ tags labelled" if len(rules.expected_tags) > 1 else ""
    return f"the labelled tell, capped incorrect by {why}{more} [{source}]; core {core}"


def _untold(rules: Row, chained: Row, core: str) -> str:
    assert chained.evidence is not None
    if rules.verdict != chained.verdict:
        return f"no tell: the second opinion, {rules.verdict} -> {chained.verdict}"
    if chained.evidence.no_credit:
        return "no tell: no credit (keyword list, injection, credit only in a tell's words)"
    if not chained.evidence.found:
        return "no tell: no concept credited"
    return f"no tell: concepts credited, the rules' line says {core}"


def causes(
    rows: Sequence[Row],
    after: Mapping[int, Row],
    prepared: Prepared,
    fold: Fold,
    keep: Callable[[Row], bool] = lambda r: True,
) -> Counter[tuple[tuple[str, str], str]]:
    """((label, verdict), cause) -> how many of the kept tune rows the chain (`after`, read
    with `fold`) misses that way."""
    tune = [r for r in rows if r.side == "tune"]
    keys = {id(r): fold(r) for r in tune}
    out: Counter[tuple[tuple[str, str], str]] = Counter()
    for key in sorted({k for k in keys.values() if k is not None}):
        precedent = tell_caps.derive(
            (r.question_id, r.expected_tags, r.label) for r in tune if keys[id(r)] != key
        )
        for r in tune:
            chained = after.get(id(r))
            if keys[id(r)] != key or not keep(r) or chained is None or chained.exact:
                continue
            why = cause(r, chained, precedent, core_verdict(prepared, r))
            out[((r.label, chained.verdict), why)] += 1
    return out


def table(counted: Counter[tuple[tuple[str, str], str]], cells: Sequence[tuple[str, str]]) -> str:
    """The counts of `cells`, largest cause first."""
    lines = []
    for cell in cells:
        mine = {why: n for (c, why), n in counted.items() if c == cell}
        lines.append(f"   {cell[0]} graded {cell[1]}: {sum(mine.values())}")
        lines += [f"   {n:5d}  {why}" for why, n in sorted(mine.items(), key=lambda x: -x[1])]
    return "\n".join(lines)
