"""How many tune answers each learned part reads otherwise when one round joins tune (round 36).

The lead retrains the learned parts (neighbours, tag classifier, tell caps, second opinion) at
each round's start, when the last final set joins `tune`; readings of answers that set never
touched have flipped with it (docs/freetext-rounds.md "Round 36: learned parts that flip
between retrains (engineer K4)"). This learns the chain as chain.py does (`chain.learn`, the
classifier on and the embedding verdict off, as shipped) twice: with the round's set (`--round`,
the last final set by default) and without it, and grades tune answers with each. Per part,
the chain learned without the round with that one part swapped for its retrained self: answers
whose verdict or named tags differ, and whether the move goes toward the label or away.

Two readings: *as shipped* (every tune answer, learned from all of tune with and without the
round: the answers outside the round were trained on both times) and *not trained on* (for
each of the `--folds` final sets before the round, that set left out of both trainings and its
answers graded: answers neither training saw, as a new answer meets the grader). Held-out
answers are never graded. The second opinion's margin variant (`--margin`) is read in the same
run against the shipped cuts, on the same learned folds.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_learned_churn.py
        [--round final_...] [--folds 4] [--margin 0.05] [--probes-only]
"""

# ruff: noqa: E501 - the tests' statements read best one per line

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics, grade_rows  # noqa: E402
from app.grading.freetext.labelled import LabelledAnswer  # noqa: E402

SIDES = ROOT / "tests" / "grading" / "freetext_labelled" / "meta" / "sides.yaml"
ORDER = {"incorrect": 0, "partial": 1, "correct": 2}
# part -> the fields of chain.Learned it is made of
PARTS: dict[str, tuple[str, ...]] = {
    "neighbours": ("index",),
    "tag classifier": ("classifier",),
    "tell caps": ("caps", "beside", "required", "bare"),
    "second opinion": ("models",),
}
Grader = Callable[[Row, chain.Learned, chain.Prepared], Row]
# Statements of the tests whose reading flipped with retrains (question, what the test holds,
# answer): tests/grading/test_freetext_round10_keras_option.py OPTION[0], [2], [6];
# test_freetext_round7_tells.py STATED[0]; test_freetext_claim_rubrics.py (training-flag).
PROBES = (
    ("gradient-accumulation", "correct, no tell", "Construct the optimizer with gradient_accumulation_steps=4 and call apply_gradients after each micro-batch; it averages and updates every 4th call."),
    ("gradient-accumulation", "correct, no tell", "Use the Keras 3 optimizer option gradient_accumulation_steps=4. For each micro-batch of 64 take tape.gradient and call optimizer.apply_gradients(zip(grads, vars)); the optimizer adds them into its own accumulators and only on the fourth call applies the averaged gradients, one step as if the batch were 256."),
    ("gradient-accumulation", "correct, no tell", "Keras 3 optimizers take gradient_accumulation_steps. With it set to 4, each apply_gradients call from my loop accumulates, and every 4th call the optimizer applies the mean of the accumulated gradients once."),
    ("no-zero-grad", "needs-zero-grad named", "Put it right at the top of the loop, before the tape opens, same as in torch, or the old gradients get mixed into the new ones."),
    ("training-flag", "no tell", "With model.fit Keras knows it is training; in a custom loop you pass training=True yourself."),
)  # fmt: skip


def swapped(base: chain.Learned, retrained: chain.Learned, part: str) -> chain.Learned:
    """`base` with one part taken from `retrained`."""
    return dataclasses.replace(base, **{f: getattr(retrained, f) for f in PARTS[part]})


def reading(row: Row) -> tuple[str, tuple[str, ...]]:
    return row.verdict, tuple(sorted(row.named_tags))


def direction(label: Row, before: Row, after: Row) -> str:
    """'toward' / 'away' from the label (verdict first, then named tags), else 'across'."""
    if before.verdict != after.verdict:
        if after.verdict == label.label:
            return "toward"
        return "away" if before.verdict == label.label else "across"
    expected = set(label.expected_tags)
    miss_before = len(expected ^ set(before.named_tags))
    miss_after = len(expected ^ set(after.named_tags))
    if miss_after == miss_before:
        return "across"
    return "toward" if miss_after < miss_before else "away"


def churn(
    rows: Sequence[Row],
    without: chain.Learned,
    with_round: chain.Learned,
    prepared: chain.Prepared,
    grader: Grader,
) -> Counter[tuple[str, str, str]]:
    """(part, move, direction) -> answers; part 'all' is the whole retrain. A move is the
    verdict's ('p>c', ...) or 'tags' when only the named tags differ."""
    out: Counter[tuple[str, str, str]] = Counter()
    learned = {"all": with_round} | {p: swapped(without, with_round, p) for p in PARTS}
    for row in rows:
        before = grader(row, without, prepared)
        for part, mine in learned.items():
            after = grader(row, mine, prepared)
            if reading(after) != reading(before):
                move = (
                    f"{before.verdict[0]}>{after.verdict[0]}"
                    if before.verdict != after.verdict
                    else "tags"
                )
                out[(part, move, direction(row, before, after))] += 1
    return out


def print_churn(title: str, counts: Counter[tuple[str, str, str]], answers: int) -> None:
    print(f"== {title} ({answers} answers): part: moved (toward / away / across) [moves]")
    for part in ("all", *PARTS):
        mine = {k: n for k, n in counts.items() if k[0] == part}
        ways = Counter()
        for (_, _, way), n in mine.items():
            ways[way] += n
        moves = Counter()
        for (_, move, _), n in mine.items():
            moves[move] += n
        detail = " ".join(f"{m} {n}" for m, n in sorted(moves.items()))
        print(
            f"   {part:<15} {sum(mine.values()):>4} ({ways['toward']} / {ways['away']} / "
            f"{ways['across']}) [{detail}]"
        )


def margin_grader(margin: float) -> Grader:
    """chain.graded with the second opinion's three cuts moved `margin` away from the rules'
    verdict (a move must clear the line by that much)."""
    from app.grading.freetext import second_opinion as so

    def graded(row: Row, learned: chain.Learned, prepared: chain.Prepared) -> Row:
        cuts = (so.RAISE, so.LOWER, so.INCORRECT)
        so.RAISE, so.LOWER, so.INCORRECT = cuts[0] + margin, cuts[1] - margin, cuts[2] + margin
        try:
            return chain.graded(row, learned, prepared)
        finally:
            so.RAISE, so.LOWER, so.INCORRECT = cuts

    return graded


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--round", help="the final set that joins tune (default: the last)")
    ap.add_argument("--folds", type=int, default=4, help="final sets before it read unseen")
    ap.add_argument("--margin", type=float, default=0.0, help="second opinion margin variant")
    ap.add_argument("--probes-only", action="store_true", help="the tests' statements only")
    args = ap.parse_args()
    started = time.monotonic()
    core = core_labelled()
    rows, _ = grade_rows(core.pack, core.tune_answers, tag_map=core.tag_map, sides=core.sides)
    rubrics = free_text_rubrics(core.pack)
    probes = probe_rows(core)
    prepared = chain.prepare(rows + probes, rubrics, classifier=True)
    groups = chain.final_groups(SIDES)
    name = args.round or sorted(groups)[-1]
    joined = groups[name]
    before = sorted(g for g in groups if g < name)[-1]
    graders: dict[str, Grader] = {"shipped": chain.graded}
    if args.margin:
        graders[f"second opinion margin {args.margin}"] = margin_grader(args.margin)
    print(f"rules graded {len(rows)} tune answers in {time.monotonic() - started:.0f} s; "
          f"the round: {name} ({len(joined)} personas)", file=sys.stderr, flush=True)  # fmt: skip
    rest = [r for r in rows if r.persona not in joined]
    new = [r for r in rows if r.persona in joined]
    with_round, without = chain.learn(rows, prepared), chain.learn(rest, prepared)
    earlier = chain.learn([r for r in rest if r.persona not in groups[before]], prepared)
    print_probes(probes, prepared, {f"tune without {before}, {name}": earlier,
                 f"tune without {name}": without, "all tune": with_round})  # fmt: skip
    if args.probes_only:
        return 0
    for label, grader in graders.items():
        print_churn(f"{label}, as shipped, outside {name}", churn(rest, without, with_round,
                    prepared, grader), len(rest))  # fmt: skip
        print_churn(f"{label}, as shipped, {name} itself", churn(new, without, with_round,
                    prepared, grader), len(new))  # fmt: skip
    unseen(rows, prepared, groups, name, args.folds, graders)
    return 0


def probe_rows(core: Any) -> list[Row]:
    answers = [
        LabelledAnswer(qid, text, "correct", (), "probe", "probe", f"PROBES[{i}]", "probe")
        for i, (qid, _, text) in enumerate(PROBES)
    ]
    return grade_rows(core.pack, answers, tag_map=core.tag_map, sides=core.sides)[0]


def print_probes(
    probes: Sequence[Row], prepared: chain.Prepared, trainings: dict[str, chain.Learned]
) -> None:
    """Each probe as the chain learned from each training reads it, with the second opinion's
    p(correct) / p(incorrect) (its lines: RAISE, LOWER, INCORRECT)."""
    from app.grading.freetext import second_opinion as so

    print(f"== the tests' flipping statements (second opinion lines: raise at p(c) >= "
          f"{so.RAISE}, lower at p(c) <= {so.LOWER}, to incorrect at p(i) >= {so.INCORRECT})")  # fmt: skip
    for i, (row, (_, held, _)) in enumerate(zip(probes, PROBES, strict=True)):
        print(f"   PROBES[{i}] {row.question_id} (the test holds: {held}); rules: {row.verdict} "
              f"{list(row.named_tags)}")  # fmt: skip
        for name, learned in trainings.items():
            after = chain.graded(row, learned, prepared)
            alone = chain.graded(row, dataclasses.replace(learned, classifier={}), prepared)
            correct, incorrect = learned.models.get(row.question_id, (None, None))
            feats = prepared.feats.get(id(row), {})
            p = [f"{m.probability(feats):.3f}" if m else "-" for m in (correct, incorrect)]
            print(f"      {name:<34} {after.verdict:<9} {list(after.named_tags)} "
                  f"p(c) {p[0]} p(i) {p[1]}; classifier off: {list(alone.named_tags)}")  # fmt: skip


def unseen(
    rows: Sequence[Row],
    prepared: chain.Prepared,
    groups: dict[str, frozenset[str]],
    name: str,
    folds: int,
    graders: dict[str, Grader],
) -> None:
    """The churn on answers neither training saw, and the chain's figures on them."""
    joined = groups[name]
    earlier = sorted(g for g in groups if g < name)[-folds:] if folds else []
    counts = {g: Counter[tuple[str, str, str]]() for g in graders}
    graded: dict[str, list[Row]] = {f"{g}, {w}": [] for g in graders for w in ("with", "without")}
    scored: list[Row] = []
    for fold in earlier:
        t = time.monotonic()
        out = groups[fold]
        mine = [r for r in rows if r.persona in out]
        train = [r for r in rows if r.persona not in out]
        with_round = chain.learn(train, prepared)
        without = chain.learn([r for r in train if r.persona not in joined], prepared)
        scored += mine
        for g, grader in graders.items():
            counts[g] += churn(mine, without, with_round, prepared, grader)
            graded[f"{g}, with"] += [grader(r, with_round, prepared) for r in mine]
            graded[f"{g}, without"] += [grader(r, without, prepared) for r in mine]
        print(f"   fold {fold}: {time.monotonic() - t:.0f} s", file=sys.stderr, flush=True)
    for g in graders:
        print_churn(f"{g}, not trained on ({', '.join(earlier)})", counts[g], len(scored))
    print("== the chain on those answers (label > verdict cells: i>p p>i p>c c>p i>c c>i)")
    print(f"   {'rules alone':<48} {chain.summary(scored)}")
    for key, mine in graded.items():
        print(f"   {key + ' ' + name:<48} {chain.summary(mine)}")


if __name__ == "__main__":
    raise SystemExit(main())
