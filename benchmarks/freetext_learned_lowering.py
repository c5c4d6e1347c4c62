"""Which learned part lowers a verdict with no tag named, and is the label with it (round 35).

Issue 14 allows a learned part as a second opinion only. A part that lowers an answer without
naming a tell (correct -> partial / incorrect, partial -> incorrect) says "less right" on its
own authority; this counts those moves by part on the tune personas only (held-out answers are
never graded), the whole chain learned per fold as chain.py does: leave one round out (each
earlier final set a fold) and leave one persona out over the personas not read (sides.yaml).
Per move: whether the label agrees (the move made the verdict exact) or disagrees (the rules'
verdict was the label, or the move went the wrong way). Then the second opinion's lowering
under stricter cuts, read on the same learned folds (docs/freetext-rounds.md "Round 35: learned
parts that lower, and the hot path (engineer K3)").

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_learned_lowering.py
        [--lopo-not-read] [--save FILE.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext import second_opinion as so  # noqa: E402
from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics, grade_rows  # noqa: E402

ORDER = {"incorrect": 0, "partial": 1, "correct": 2}
SIDES = ROOT / "tests" / "grading" / "freetext_labelled" / "meta" / "sides.yaml"
# name -> (LOWER, INCORRECT, a lowered correct may go on to incorrect)
VARIANTS: dict[str, tuple[float | None, float | None, bool]] = {
    "shipped": (so.LOWER, so.INCORRECT, True),
    "no lowering without a tag": (None, None, False),
    "correct -> partial only": (so.LOWER, None, False),
    "partial -> incorrect only": (None, so.INCORRECT, True),
    "LOWER 0.15": (0.15, so.INCORRECT, True),
    "LOWER 0.10": (0.10, so.INCORRECT, True),
    "INCORRECT 0.65": (so.LOWER, 0.65, True),
    "INCORRECT 0.75": (so.LOWER, 0.75, True),
    "lowered correct stops at partial": (so.LOWER, so.INCORRECT, False),
}


def variant_verdict(
    name: str, correct: so.Model, incorrect: so.Model | None, row: Row, feats: so.Features
) -> str:
    """so.second_verdict with the variant's lowering cuts (raising as shipped)."""
    lower, cut, onward = VARIANTS[name]
    assert row.evidence is not None
    shipped = so.second_verdict(correct, feats, row.evidence, row.verdict, incorrect)
    if ORDER[shipped] >= ORDER[row.verdict]:
        return shipped  # raised or kept: as shipped
    verdict = row.verdict
    if verdict == "correct" and lower is not None and correct.probability(feats) <= lower:
        verdict = "partial"
        if not onward:
            return verdict
    if (
        verdict == "partial"
        and cut is not None
        and incorrect
        and incorrect.probability(feats) >= cut
    ):
        return "incorrect"
    return verdict


def fold_rows(rows: list[Row], prepared: chain.Prepared, fold: Callable[[Row], str | None]) -> dict:
    """id(row) -> (rules row, row before the second opinion, {variant: verdict}), each fold
    learned as chain.chain_rows learns it (`chain.fold_readings`)."""

    def read(r: Row, learned: chain.Learned, prepared: chain.Prepared) -> tuple:
        before_so = dataclasses.replace(learned, models={})
        pre = chain.up_to_second_opinion(r, before_so, prepared)
        return (r, pre, _variants(r, pre, learned, prepared))

    return chain.fold_readings(rows, prepared, fold, read)


def _variants(r: Row, pre: Row, learned: chain.Learned, prepared: chain.Prepared) -> dict:
    correct, incorrect = learned.models.get(r.question_id, (None, None))
    if pre.named_tags or pre.evidence is None or pre.evidence.empty or correct is None:
        return {name: pre.verdict for name in VARIANTS}
    feats = prepared.feats[id(r)]
    return {name: variant_verdict(name, correct, incorrect, pre, feats) for name in VARIANTS}


def lowered(before: str, after: str, label: str) -> str | None:
    """'agrees' / 'disagrees' for a lowering, None for no lowering."""
    if ORDER[after] >= ORDER[before]:
        return None
    return "agrees" if after == label else ("disagrees" if before == label else "neither")


def report(name: str, graded: dict) -> None:
    moves: Counter[tuple[str, str, str, str]] = Counter()
    for rules, pre, variants in graded.values():
        steps = (("before the second opinion", rules, pre.verdict, pre.named_tags),)
        steps += (("second opinion", pre, variants["shipped"], pre.named_tags),)
        for part, was, now, tags in steps:
            how = lowered(was.verdict, now, rules.label)
            if how and not tags:
                moves[(part, f"{was.verdict[0]}>{now[0]}", how, rules.label[0])] += 1
    print(f"== {name}: lowered with no tag named (part, move, label agrees?, label): count")
    for key, n in sorted(moves.items()):
        print(f"   {' | '.join(key)}: {n}")
    print(f"== {name}: the second opinion's lowering under other cuts")
    print("   (label > verdict cells: i>p p>i p>c c>p i>c c>i)")
    for variant in VARIANTS:
        mine = [dataclasses.replace(pre, verdict=v[variant]) for _, pre, v in graded.values()]
        print(f"   {variant:<34} {chain.summary(mine)}")
    rules = [r for r, _, _ in graded.values()]
    print(f"   {'rules alone':<34} {chain.summary(rules)}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lopo-not-read", action="store_true", help="also LOPO, not-read folds")
    ap.add_argument("--save", type=Path, help="each answer's verdicts per variant, as JSON")
    args = ap.parse_args()
    core = core_labelled()
    rows, _ = grade_rows(core.pack, core.tune_answers, tag_map=core.tag_map, sides=core.sides)
    rubrics = free_text_rubrics(core.pack)
    prepared = chain.prepare(rows, rubrics, classifier=True)
    groups = chain.final_groups(SIDES)
    readings = {"LORO (each final set a fold)": fold_rows(rows, prepared, chain.by_round(groups))}
    report("LORO", readings["LORO (each final set a fold)"])
    if args.lopo_not_read:
        read = core.sides.read
        fold = lambda r: r.persona if r.persona not in read else None  # noqa: E731
        graded = fold_rows(rows, prepared, fold)
        readings["LOPO, not read"] = graded
        report("LOPO, not read", graded)
    if args.save:
        args.save.write_text(json.dumps({
            name: {r.source: [r.label, r.verdict, pre.verdict, list(pre.named_tags), v]
                   for r, pre, v in graded.values()}
            for name, graded in readings.items()
        }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
