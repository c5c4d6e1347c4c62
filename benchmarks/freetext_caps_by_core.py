"""Tell caps by how much of the core stands beside the tell, read on tune only (round 32, K1).

Round 31 counted the p>i cell of the rules alone by cause: most name the labelled tag, capped
`incorrect` where labellers say partial. The rules alone carry the rubric's own caps; the
derived caps (tell_caps.py: per tag, and beside a complete core, beside every required
concept, with neither) are applied in the chain. This script reads the caps step alone (the
rules' tune rows recapped, no neighbours, classifier or second opinion) with the caps learned
without each persona (LOPO) and without each final set (LORO), for:

- `current`: tell_caps.py's precedents, as chain.py learns and applies them (by tag, by the
  core beside a tag, and of tells together: round 45 reads the last, round 44's, too);
- `pooled`: one model across tags: the log-odds that an answer labelled with a tag alone is
  labelled incorrect = the tag's own term + a term for its core band, shared by every tag
  (`BANDS`: below the partial line, some credit, every required concept, complete; the rules'
  reading, caps left out); the tag's cap is `incorrect` at odds >= 1, else `partial` (never
  above partial), the rubric's cap with fewer than tell_caps.MIN_ANSWERS precedents. `--l2`
  shrinks the tag terms towards zero.

Held-out answers are never graded (core.tune_answers only). From a worktree root:
  PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_caps_by_core.py [--l2 0.2]
docs/freetext-rounds.md, "Round 32: tell caps by core coverage (engineer K1)" and "Round 34:
tell caps by core coverage (engineer K2)" (which built this model in the grader and the chain,
measured it whole-chain, and reverted it: it lost 2 of 1,650 not read). After the readings, a
table per question (learned from every tune answer): how many tags each core precedent caps,
and the caps of tells together (round 44) and of tells with no required concept (round 45)
with what each recaps (round 45, K5). Round 47 (K7): the caps read each row's core (complete,
every required concept, none of them) from `chain.Prepared`, as the chain passes it since round
46, not recomputed from the row's evidence (the same values: the rows are the rules' rows).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.grading.freetext import chain, tell_caps
from app.grading.freetext.chain import by_persona, by_round, cells, final_groups
from app.grading.freetext.evaluation import (
    Row,
    core_labelled,
    figures,
    free_text_rubrics,
    grade_rows,
)
from app.grading.freetext.fitting import Line, line_verdict
from app.packs.rubric import Rubric

BANDS = ("below partial", "some credit", "every required", "complete")
SIDES = Path(__file__).resolve().parents[1] / "tests/grading/freetext_labelled/meta/sides.yaml"
Caps = Callable[[Row], dict[str, str]]  # a row -> tag -> cap for its question's tells


def band(rubric: Rubric, row: Row) -> int:
    """The row's core band (an index into `BANDS`), by the rules' reading, caps left out."""
    if tell_caps.complete_core(rubric, row.evidence):
        return 3
    if tell_caps.required_core(rubric, row.evidence):
        return 2
    assert row.evidence is not None
    return 1 if row.evidence.score >= Line.of(rubric).partial else 0


def alone(rows: Sequence[Row]) -> list[Row]:
    return [r for r in rows if len(r.expected_tags) == 1 and r.evidence and not r.evidence.empty]


def learn_current(train: Sequence[Row], prepared: chain.Prepared) -> Caps:
    """tell_caps.py's precedents, learned and applied as the chain does (chain.learn_caps,
    chain.row_caps): per tag, by the core beside it, of tells together (round 44) and of tells
    with no required concept (round 45)."""
    learned = _caps_learned(train, prepared)
    return lambda row: _row_caps(row, learned, prepared)


def _core(row: Row, prepared: chain.Prepared) -> tuple[bool, bool | None, bool | None]:
    """The row's core as `prepared` holds it (complete; every required concept; none of them),
    as the chain's `up_to_second_opinion` passes it to the caps (round 47, K7), not recomputed
    from the row's evidence by `chain.row_caps`."""
    key = id(row)
    return prepared.complete[key], prepared.required.get(key), prepared.nothing.get(key)


def _row_caps(row: Row, learned: chain.Learned, prepared: chain.Prepared) -> dict[str, str]:
    complete, required, nothing = _core(row, prepared)
    rubric = prepared.rubrics[row.question_id]
    return chain.row_caps(row, rubric, learned, complete, required=required, nothing=nothing)


def _caps_learned(train: Sequence[Row], prepared: chain.Prepared) -> chain.Learned:
    """The chain's learned parts with only its caps (no neighbours, classifier or models)."""
    caps = chain.learn_caps(train, prepared)
    return chain.Learned(None, models={}, classifier={}, **caps)  # type: ignore[arg-type]


def caps_by_question(rows: Sequence[Row], prepared: chain.Prepared) -> list[str]:
    """Per question, learned from every tune row: how many tags each core precedent caps by
    tag (`partial` beside a complete answer and beside every required concept, `incorrect`
    with neither), and the two per-question caps, tells together (round 44) and tells with no
    required concept (round 45): each one's cap, its precedent (answers, of them labelled
    incorrect) and the tune answers whose verdict it moves (by label; both only lower)."""
    learned = _caps_learned(rows, prepared)
    out = [
        "| question | partial: complete | partial: required | incorrect: neither "
        "| together (answers, incorrect) | it moves | no required (answers, incorrect) "
        "| it moves |",
        "|---|---|---|---|---|---|---|---|",
    ]
    # each per-question precedent, and the learned caps without it (what it moves)
    per_question = (
        (learned.together, dataclasses.replace(learned, together={})),
        (learned.nothing, dataclasses.replace(learned, nothing={})),
    )
    for q in sorted(prepared.rubrics):
        core = chain.learned_core_caps(learned, q)
        cells = [str(len(core.complete)), str(len(core.required)), str(len(core.bare))]
        for precedent, apart in per_question:
            entry = precedent.get(q)
            moved = moved_labels([r for r in rows if r.question_id == q], learned, apart, prepared)
            cells.append(
                f"{entry['cap']} ({entry['answers']}, {entry['incorrect']})" if entry else "-"
            )
            cells.append(str(dict(sorted(moved.items()))) if moved else "-")
        out.append(f"| {q} | " + " | ".join(cells) + " |")
    return out


def moved_labels(
    rows: Sequence[Row], learned: chain.Learned, apart: chain.Learned, prepared: chain.Prepared
) -> Counter[str]:
    """Labels of the rows whose verdict `learned`'s caps give otherwise than `apart`'s."""
    moved: Counter[str] = Counter()
    for r in rows:
        if not r.named_tags or r.evidence is None or r.evidence.empty:
            continue
        moved[r.label] += _verdict(r, learned, prepared) != _verdict(r, apart, prepared)
    return +moved


def _verdict(row: Row, learned: chain.Learned, prepared: chain.Prepared) -> str:
    """The row's verdict under `learned`'s caps, its core read from `prepared` (`_core`)."""
    complete, required, nothing = _core(row, prepared)
    rubric = prepared.rubrics[row.question_id]
    recapped = chain.recapped(row, rubric, learned, complete, required=required, nothing=nothing)
    return recapped.verdict


def learn_pooled(train: Sequence[Row], rubrics: Mapping[str, Rubric], l2: float) -> Caps:
    """The tag terms and the shared band terms, by coordinate-wise Newton steps."""
    items = [((r.question_id, r.expected_tags[0]), band(rubrics[r.question_id], r), r.label)
             for r in alone(train)]  # fmt: skip
    counts = Counter(k for k, _, _ in items)
    tag = dict.fromkeys(counts, 0.0)
    shift = [0.0] * len(BANDS)
    for _ in range(30):
        for which in ("tag", "band"):
            grad: Counter[object] = Counter()
            curv: Counter[object] = Counter()
            for key, b, label in items:
                p = 1 / (1 + math.exp(-(tag[key] + shift[b])))
                slot = key if which == "tag" else b
                grad[slot] += p - (label == "incorrect")
                curv[slot] += p * (1 - p)
            for slot in grad:
                if which == "tag":
                    tag[slot] -= (grad[slot] + l2 * tag[slot]) / (curv[slot] + l2)  # type: ignore[index]
                else:
                    shift[slot] -= grad[slot] / max(curv[slot], 1e-9)  # type: ignore[index]

    def apply(row: Row) -> dict[str, str]:
        rubric = rubrics[row.question_id]
        b = band(rubric, row)
        out = {}
        for m in rubric.misconceptions:
            key = (row.question_id, m.tag)
            if counts.get(key, 0) >= tell_caps.MIN_ANSWERS:
                out[m.tag] = "incorrect" if tag[key] + shift[b] >= 0 else "partial"
            else:
                out[m.tag] = m.cap
        return out

    apply.shift = shift  # type: ignore[attr-defined]
    return apply


def recapped(row: Row, rubric: Rubric, caps: Caps) -> Row:
    if not row.named_tags or row.evidence is None or row.evidence.empty:
        return row
    mine = caps(row)
    evidence = dataclasses.replace(
        row.evidence, caps=tuple(mine.get(t, "partial") for t in row.named_tags)
    )
    verdict = line_verdict(rubric, evidence, Line.of(rubric))
    return dataclasses.replace(row, verdict=verdict, evidence=evidence)


def folded(rows: Sequence[Row], fold: Callable[[Row], str | None], learn: Callable) -> list[Row]:
    """Each fold's rows recapped with the caps learned from the other rows; rows without a
    fold (LORO: personas of no final set) are only learned from."""
    keys = {id(r): fold(r) for r in rows}
    out = []
    for key in sorted({k for k in keys.values() if k is not None}):
        caps = learn([r for r in rows if keys[id(r)] != key])
        out += [recapped(r, learn.rubrics[r.question_id], caps) for r in rows if keys[id(r)] == key]
    return out


def line(name: str, rows: Sequence[Row]) -> str:
    f = figures(list(rows))
    six = " ".join(str(n) for n in cells(rows))
    return (
        f"| {name} ({f.total}) | {f.exact} | {f.binary} | {f.tags_named} / {f.tags_expected} "
        f"| {f.false_tells_on_correct} / {f.correct_labelled} | {six} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--l2", type=float, default=0.2)
    a = ap.parse_args()
    core = core_labelled()
    rows, _ = grade_rows(core.pack, core.tune_answers, tag_map=core.tag_map, sides=core.sides)
    rows = [r for r in rows if r.side == "tune"]
    rubrics = free_text_rubrics(core.pack)
    prepared = chain.prepare(rows, rubrics)
    groups = final_groups(SIDES)
    print("| caps step alone | exact | correct-vs-not | named | false tells on correct | cells |")
    print("|---|---|---|---|---|---|")
    for name, fit in (
        ("current", lambda train: learn_current(train, prepared)),
        (f"pooled l2={a.l2}", lambda train: learn_pooled(train, rubrics, a.l2)),
    ):
        fit.rubrics = rubrics  # type: ignore[attr-defined]
        lopo = folded(rows, by_persona, fit)
        print(line(f"{name}: LOPO tune", lopo))
        print(line(f"{name}: LOPO not read", [r for r in lopo if r.persona not in core.sides.read]))
        print(line(f"{name}: LORO final sets", folded(rows, by_round(groups), fit)))
    print()
    print("\n".join(caps_by_question(rows, prepared)))
    shift = learn_pooled(rows, rubrics, a.l2).shift  # type: ignore[attr-defined]
    print(
        "band terms (log-odds incorrect, all tune):",
        dict(zip(BANDS, [round(s, 2) for s in shift], strict=True)),
    )


if __name__ == "__main__":
    main()
