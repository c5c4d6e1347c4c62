"""Does the loose claim reading name known beliefs in new wordings? (issue 14, round 48, G1).

Round 47's final set left 60 stated tags unnamed that the question's rubric knows, in wordings
no phrasing reads. learned_evidence.py already has a looser reading of every tell phrasing (its
roles in one clause, any order; with three or more roles, one may be missing), used only as the
evidence a learned part needs. This script reads it as a namer by itself, under conditions fixed
before any figure was read:
- only on an answer the rules graded below correct, with some credit (not a keyword list, an
  injection or empty), and naming a tag the rules did not name; variant `untold`: only where
  the rules named no tag (the tag classifier's eligibility), variant `any`: beside named ones;
- only tags whose loose reading is precise on the training rows: it fires on >= 2 eligible
  training answers, >= 80% of them carry the tag, and none of them is labelled correct;
- where several kept tags fire, the one most precise in training (then the most fired) is named;
  it takes the tag's rubric cap and never raises the verdict.
Read three ways: as learned_evidence reads it (one of three or more roles may be missing); its
tighter half, every role of a phrasing in one clause in any order (added after the first run
showed the looser reading kept almost no tag); and the looser reading with the precision bar
applied per slot (question, tag, phrasing, role spared) instead of per tag. Polarity is the
rules' own (grader.has_evidence: affirmed, or a `negated` phrasing denied; not asked,
conditional, of another framework, quoted or in padding).

Measured where it must carry: leave one final round out (each `final_*` group of sides.yaml, read
with the tags chosen on every other tune persona) and leave one persona out over the personas
not read. Held-out answers are never graded; nothing is printed answer by answer. Prints per
fold and in total, against the rules alone in the same run: right tags added, wrong tags added,
tags added on answers labelled correct, exact, correct-vs-not, named, false tells on correct and
the six cells (i>p p>i p>c c>p i>c c>i).

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_loose_namer.py \
        [--rows R.pickle] [--hits F.json]

`--rows` keeps the rules' rows, `--hits` each answer's loose readings (by source), for a later
run of the same tree (a scratch file: delete it when the rules or labels change).
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import learned_evidence  # noqa: E402
from app.grading.freetext.chain import cells, final_groups  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    core_labelled,
    figures,
    free_text_rubrics,
    grade_rows,
)
from app.grading.freetext.grader import has_evidence  # noqa: E402
from app.grading.freetext.neighbours import suggested_verdict  # noqa: E402
from app.grading.freetext.normalise import Normalised, normalise  # noqa: E402
from app.packs.rubric import Misconception, Rubric  # noqa: E402

MIN_FIRES = 2  # a tag's loose reading must fire on this many eligible training answers
MIN_PRECISION = 0.8  # ... of which at least this share carry the tag
VARIANTS = ("untold", "any")
NEVER_SPARE = 99  # learned_evidence.MIN_ROLES_TO_SPARE for the whole-claim reading
RANK = {"incorrect": 0, "partial": 1, "correct": 2}

Hits = dict[str, tuple[str, ...]]  # row source -> tags the loose reading finds
Key = tuple[str, str]  # (question id, tag)


def eligible(row: Row, variant: str) -> bool:
    """Below correct, with some credit; `untold`: and no tag named by the rules."""
    ev = row.evidence
    if row.verdict == "correct" or ev is None or ev.no_credit or ev.empty:
        return False
    return variant == "any" or not row.named_tags


def loose_tags(rubric: Rubric, row: Row) -> tuple[str, ...]:
    """The rubric's tags, not named by the rules, whose loose reading the answer states."""
    answer = normalise(row.answer or "")  # once per answer, not once per tell (round 55)
    return tuple(
        m.tag
        for m in rubric.misconceptions
        if m.tag not in row.named_tags and has_evidence(m, answer)
    )


def whole_claim_tags(rubric: Rubric, row: Row, loose: Iterable[str]) -> tuple[str, ...]:
    """Of the `loose` tags, those the answer states with every role of a phrasing (any order,
    none spared): the tighter half of the loose reading."""
    tells = {m.tag: m for m in rubric.misconceptions}
    with mock.patch.object(learned_evidence, "MIN_ROLES_TO_SPARE", NEVER_SPARE):
        return tuple(t for t in loose if has_evidence(_whole(tells[t]), row.answer))


def _whole(tell: Misconception) -> Misconception:
    """The tell with each phrasing as written and as its whole claim (no role spared)."""
    return Misconception.model_construct(
        tag=tell.tag,
        label=tell.label,
        correction=tell.correction,
        cap=tell.cap,
        any=[q for p in tell.any for q in learned_evidence.loosened(p)[:2]],
        negated=[q for p in tell.negated for q in learned_evidence.loosened(p)[:2]],
    )


def spared_slots(rubric: Rubric, row: Row, loose: Iterable[str]) -> tuple[str, ...]:
    """Of the `loose` tags, each phrasing's reading that lets the answer state it, as
    `tag|kind|phrasing|role` (a slot; role `w`: the whole claim, else the role spared): the
    loose reading chosen per slot, not per tag."""
    tells = {m.tag: m for m in rubric.misconceptions}
    readings = [
        (tag, kind, f"{tag}|{kind}|{j}|{i}", claim)
        for tag in loose
        for kind in ("any", "negated")
        for j, pattern in enumerate(getattr(tells[tag], kind))
        for i, claim in role_claims(pattern, kind == "any")
    ]
    answer = normalise(row.answer or "")
    with mock.patch.object(learned_evidence, "MIN_ROLES_TO_SPARE", NEVER_SPARE):
        return tuple(slot for tag, kind, slot, claim in readings
                     if claim_states(tells[tag], kind, claim, answer))  # fmt: skip


def role_claims(pattern: str, affirmed: bool = True) -> list[tuple[str, str]]:
    """The phrasing's whole claim (`w`) and each claim with one role spared (its index; an
    affirmed phrasing's kept out of a sentence that denies, round 55)."""
    claims = learned_evidence.loosened(pattern, keep_out_denials=affirmed)[1:]
    return [("w", c) if k == 0 else (str(k - 1), c) for k, c in enumerate(claims)]


def claim_states(tell: Misconception, kind: str, claim: str, answer: str | Normalised) -> bool:
    one = Misconception.model_construct(
        tag=tell.tag, label=tell.label, correction=tell.correction, cap=tell.cap,
        any=[claim] if kind == "any" else [], negated=[claim] if kind == "negated" else [],
    )  # fmt: skip
    return has_evidence(one, answer)


def tag_of(key: str) -> str:
    """A slot's tag (a tag is its own)."""
    return key.split("|", 1)[0]


def chosen_tags(train: Iterable[Row], hits: Hits, variant: str) -> dict[Key, tuple[float, int]]:
    """(question, tag) -> (precision, fires) for tags whose loose reading is precise on `train`."""
    fires: Counter[Key] = Counter()
    right: Counter[Key] = Counter()
    on_correct: Counter[Key] = Counter()
    for row in train:
        if not eligible(row, variant):
            continue
        for tag in hits.get(row.source, ()):
            key = (row.question_id, tag)
            fires[key] += 1
            right[key] += tag_of(tag) in row.expected_tags
            on_correct[key] += row.label == "correct"
    return {
        key: (right[key] / n, n)
        for key, n in fires.items()
        if n >= MIN_FIRES and right[key] / n >= MIN_PRECISION and not on_correct[key]
    }


def named(
    row: Row, rubric: Rubric, hits: Hits, chosen: Mapping[Key, tuple[float, int]], variant: str
) -> Row:
    """The row with the most precise chosen tag its answer states named, under the tag's cap."""
    if not eligible(row, variant):
        return row
    found = [t for t in hits.get(row.source, ()) if (row.question_id, t) in chosen]
    if not found:
        return row
    return with_tag(row, rubric, tag_of(max(found, key=lambda t: chosen[(row.question_id, t)])))


def with_tag(row: Row, rubric: Rubric, tag: str) -> Row:
    """The row with `tag` named and its verdict lowered to the tag's cap (never raised)."""
    tell = next(m for m in rubric.misconceptions if m.tag == tag)
    assert row.evidence is not None
    capped = suggested_verdict(rubric, row.evidence, tell)
    verdict = min(capped, row.verdict, key=RANK.__getitem__)
    return dataclasses.replace(row, verdict=verdict, named_tags=(*row.named_tags, tag))


def added(before: Sequence[Row], after: Sequence[Row]) -> tuple[int, int, int]:
    """Tags added: the labelled one, another, on answers labelled correct."""
    right = wrong = on_correct = 0
    for b, a in zip(before, after, strict=True):
        for tag in set(a.named_tags) - set(b.named_tags):
            right += tag in b.expected_tags
            wrong += tag not in b.expected_tags
            on_correct += b.label == "correct"
    return right, wrong, on_correct


def line(name: str, before: Sequence[Row], after: Sequence[Row], *extra: str) -> str:
    """One table row: tags added, exact, correct-vs-not, named, false tells, the six cells."""
    f = figures(list(after))
    right, wrong, on_correct = added(before, after)
    six = " ".join(str(n) for n in cells(list(after)))
    return (
        f"| {name} ({f.total}) | +{right} / +{wrong} / +{on_correct} | {f.exact} | {f.binary} "
        f"| {f.tags_named} / {f.tags_expected} | {f.false_tells_on_correct} / "
        f"{f.correct_labelled} | {six} |" + "".join(f" {e} |" for e in extra)
    )


Fold = tuple[str, Callable[[Row], bool]]  # name, which rows are read (trained without them)


def folds(rows: Sequence[Row], groups: Mapping[str, frozenset[str]], read: set[str]) -> list[Fold]:
    """Leave one final round out, then one persona out over the personas not read."""
    personas = sorted({r.persona for r in rows if r.persona not in read})
    by_round: list[Fold] = [(f"LORO {g}", partial(_written_by, ps)) for g, ps in groups.items()]
    by_persona: list[Fold] = [(f"LOPO {p}", partial(_written_by, frozenset({p}))) for p in personas]
    return by_round + by_persona


def _written_by(personas: frozenset[str], row: Row) -> bool:
    return row.persona in personas


def read_folds(
    rows: Sequence[Row], rubrics: Mapping[str, Rubric], hits: Hits, fold_list: Sequence[Fold]
) -> dict[str, dict[str, tuple[list[Row], list[Row]]]]:
    """variant -> fold -> (rules rows, rows with the loose namer trained without the fold)."""
    out: dict[str, dict[str, tuple[list[Row], list[Row]]]] = {v: {} for v in VARIANTS}
    for name, held in fold_list:
        test = [r for r in rows if held(r)]
        train = [r for r in rows if not held(r)]
        for variant in VARIANTS:
            chosen = chosen_tags(train, hits, variant)
            after = [named(r, rubrics[r.question_id], hits, chosen, variant) for r in test]
            out[variant][name] = (test, after)
    return out


def all_hits(rows: Sequence[Row], rubrics: Mapping[str, Rubric], cache: Path | None) -> Hits:
    """Each eligible row's loose tags (kept in `cache` when given)."""
    if cache and cache.exists():
        return {k: tuple(v) for k, v in json.loads(cache.read_text()).items()}
    hits = {r.source: loose_tags(rubrics[r.question_id], r) for r in rows if eligible(r, "any")}
    if cache:
        cache.write_text(json.dumps(hits))
    return hits


def report(title: str, readings: Mapping[str, Mapping[str, tuple[list[Row], list[Row]]]]) -> None:
    """Folds where a tag was added, then each kind's total against the rules alone."""
    head = "| fold | added right / wrong / on correct | exact | c-vs-not | named | false | cells |"
    for variant, by_fold in readings.items():
        print(f"\n== {title}, variant {variant}\n{head}\n|---|---|---|---|---|---|---|")
        for kind in ("LORO", "LOPO"):
            mine = {n: v for n, v in by_fold.items() if n.startswith(kind)}
            for name, (before, after) in mine.items():
                if added(before, after) != (0, 0, 0):
                    print(line(name, before, after))
            before = [r for b, _ in mine.values() for r in b]
            after = [r for _, a in mine.values() for r in a]
            print(line(f"**{kind} total, rules alone**", before, before))
            print(line(f"**{kind} total, loose namer**", before, after))


def precision_counts(rows: Sequence[Row], hits: Hits) -> str:
    """Over every eligible tune answer: readings, right, on answers labelled correct, and the
    tags a reading trained on all of tune would keep."""
    eligible_rows = [r for r in rows if eligible(r, "any")]
    pairs = [(r, t) for r in eligible_rows for t in hits.get(r.source, ())]
    right = sum(tag_of(t) in r.expected_tags for r, t in pairs)
    on_correct = sum(r.label == "correct" for r, _ in pairs)
    keys = {(r.question_id, t) for r, t in pairs}
    kept = chosen_tags(rows, hits, "any")
    return (
        f"readings {len(pairs)} on {len({r.source for r, _ in pairs})} answers: right {right}, "
        f"another tag {len(pairs) - right - on_correct}, on correct {on_correct}; "
        f"(question, tag or slot) read {len(keys)}, kept by all of tune {len(kept)}"
    )


def graded_rows(cache: Path | None) -> tuple[list[Row], dict[str, Rubric], set[str]]:
    """The rules' rows of every tune answer (kept in `cache` when given), rubrics, read."""
    core = core_labelled()
    rubrics = free_text_rubrics(core.pack)
    if cache and cache.exists():
        return pickle.loads(cache.read_bytes()), rubrics, set(core.sides.read)
    rows, _ = grade_rows(core.pack, core.tune_answers, tag_map=core.tag_map, sides=core.sides)
    if cache:
        cache.write_bytes(pickle.dumps(rows))
    return rows, rubrics, set(core.sides.read)


def main(argv: list[str]) -> int:
    def given(flag: str) -> Path | None:
        return Path(argv[argv.index(flag) + 1]) if flag in argv else None

    rows, rubrics, read = graded_rows(given("--rows"))
    loose = all_hits(rows, rubrics, given("--hits"))
    by_source = {r.source: r for r in rows}
    whole = {s: whole_claim_tags(rubrics[by_source[s].question_id], by_source[s], t)
             for s, t in loose.items() if t}  # fmt: skip
    reach = [(r, t) for r in rows if eligible(r, "any") for t in r.expected_tags
             if t not in r.named_tags]  # fmt: skip
    print(f"stated tags not named on eligible answers: {len(reach)}; with loose evidence: "
          f"{sum(t in loose.get(r.source, ()) for r, t in reach)}; with a whole claim: "
          f"{sum(t in whole.get(r.source, ()) for r, t in reach)}")  # fmt: skip
    groups = final_groups(ROOT / "tests/grading/freetext_labelled/meta/sides.yaml")
    fold_list = folds(rows, groups, read)
    slots = {s: spared_slots(rubrics[by_source[s].question_id], by_source[s], t)
             for s, t in loose.items() if t}  # fmt: skip
    readings = (("one role spared", loose), ("whole claim, any order", whole),
                ("one role spared, chosen per slot", slots))  # fmt: skip
    for title, hits in readings:
        print(f"\n{title}: {precision_counts(rows, hits)}")
        report(title, read_folds(rows, rubrics, hits, fold_list))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
