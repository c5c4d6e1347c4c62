"""Which learned part raises an answer to correct, and is the label with it (round 37).

Round 36's final held-out reading found the retrained second opinion raising a gradient-vs-apply
answer labelled partial for beliefs no rubric knows: the right split of the two calls is what the
model sees, the wrong claim beside it is invisible to every part. This counts, on the tune
personas only (held-out answers are never graded), every answer the chain raises to correct, by
part, with its label and whether it carries a labelled tag the rules do not name (and whether the
question's rubric knows that tag), the chain learned per fold as chain.py learns it: leave one
round out (each earlier final set a fold) and leave one persona out over the personas not read
(sides.yaml). Then the second opinion's raise under more careful rules, read on the same learned
folds (docs/freetext-rounds.md "Round 37: learned raises over beliefs no rubric knows (engineer
K5)"). The embedding verdict is off as shipped and not read (its vectors need the encoder); the
neighbours, the classifier and the caps never raise to correct (counted: "before the second
opinion").

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_learned_raising.py
        [--lopo-not-read] [--save FILE.json] [--load FILE.json [--claims]]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext import second_opinion as so  # noqa: E402
from app.grading.freetext.evaluation import Row, core_labelled, free_text_rubrics, grade_rows  # noqa: E402

SIDES = ROOT / "tests" / "grading" / "freetext_labelled" / "meta" / "sides.yaml"
CELLS = tuple(label[0] + verdict[0] for label, verdict in chain.CELLS)  # "ip", ...


def read_row(r: Row, learned: chain.Learned, prepared: chain.Prepared) -> dict[str, Any]:
    """What the variants need of one answer in its fold: the rules' row, the chain's row before
    the second opinion, and the fold's second-opinion probabilities for it."""
    pre = chain.up_to_second_opinion(r, dataclasses.replace(learned, models={}), prepared)
    shipped = chain.up_to_second_opinion(r, learned, prepared)
    correct, incorrect = learned.models.get(r.question_id, (None, None))
    out: dict[str, Any] = {
        "source": r.source,
        "question": r.question_id,
        "persona": r.persona,
        "label": r.label,
        "expected": list(r.expected_tags),
        "rules": r.verdict,
        "rules_named": list(r.named_tags),
        "pre": pre.verdict,
        "pre_named": list(pre.named_tags),
        "shipped": shipped.verdict,
        "known": sorted(m.tag for m in prepared.rubrics[r.question_id].misconceptions),
        "words": len(r.answer.split()),
    }
    ev = pre.evidence
    if pre.named_tags or ev is None or ev.empty or correct is None:
        return out
    feats = prepared.feats[id(r)]
    out.update(
        eligible=so.eligible(ev, pre.verdict),
        may_raise=so.may_raise(ev),
        p=correct.probability(feats),
        # the evidence floor's reading: the words left out (second_opinion.py, round 7)
        p_evidence=correct.probability({k: v for k, v in feats.items() if not k.startswith("w:")}),
        p_incorrect=incorrect.probability(feats) if incorrect else None,
        length=feats["length"],
    )
    return out


def fold_rows(rows: list[Row], prepared: chain.Prepared, fold: Callable[[Row], str | None]) -> dict:
    seen: set[int] = set()

    def read(r: Row, learned: chain.Learned, prepared: chain.Prepared) -> dict[str, Any]:
        if id(learned) not in seen:  # one line per fold learned, to follow a long run
            seen.add(id(learned))
            print(f"   fold {len(seen)} learned", file=sys.stderr, flush=True)
        return read_row(r, learned, prepared)

    return chain.fold_readings(rows, prepared, fold, read)


def raised(row: dict[str, Any]) -> bool:
    return row["pre"] == "partial" and row["shipped"] == "correct"


def unnamed(row: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The labelled tags the rules do not name: (the rubric knows them, it does not)."""
    missing = [t for t in row["expected"] if t not in row["rules_named"]]
    return [t for t in missing if t in row["known"]], [t for t in missing if t not in row["known"]]


def tag_kind(row: dict[str, Any]) -> str:
    known, unknown = unnamed(row)
    return "unknown tag" if unknown else ("known tag unnamed" if known else "no tag")


def held_by(row: dict[str, Any]) -> str:
    """Which of the second opinion's other conditions keeps a partial at p >= RAISE."""
    held = [name for name, stops in (
        ("evidence floor", row["p_evidence"] < so.EVIDENCE_FLOOR),
        ("required missing", not row["may_raise"]),
    ) if stops]  # fmt: skip
    return " + ".join(held) or "raised"


def report_raises(name: str, graded: dict) -> None:
    moves: Counter[tuple[str, ...]] = Counter()
    for row in graded.values():
        steps = (("before the second opinion", row["rules"], row["pre"]),)
        steps += (("second opinion", row["pre"], row["shipped"]),)
        for part, was, now in steps:
            if now != "correct" or was == "correct":
                continue
            moves[(part, f"{was[0]}>c", f"label {row['label']}", tag_kind(row))] += 1
    print(f"== {name}: raised to correct (part, move, label, labelled tags the rules miss): count")
    for key, n in sorted(moves.items()):
        print(f"   {' | '.join(key)}: {n}")
    near: Counter[tuple[str, ...]] = Counter()
    for row in graded.values():
        if row["pre"] == "partial" and row.get("eligible") and row["p"] >= so.RAISE:
            near[(f"label {row['label']}", tag_kind(row), held_by(row))] += 1
    print(
        f"== {name}: partials at p(correct) >= RAISE (label, tags the rules miss, held by): count"
    )
    for key, n in sorted(near.items()):
        print(f"   {' | '.join(key)}: {n}")


# A variant: (row) -> whether the second opinion's raise of that row stands.
Keep = Callable[[dict[str, Any]], bool]


def longer(row: dict[str, Any], words: int) -> bool:
    """Longer than `words` words as the second opinion counts them (its `length` feature)."""
    return row["length"] > so.length_feature(words)


def margin_by_length(words: int, extra: float) -> Keep:
    """RAISE + `extra` for an answer longer than `words` words."""
    return lambda row: not longer(row, words) or row["p"] >= so.RAISE + extra


VARIANTS: dict[str, Keep] = {
    "shipped": lambda row: True,
    "no raise": lambda row: False,
    "RAISE 0.85": lambda row: row["p"] >= 0.85,
    "RAISE 0.90": lambda row: row["p"] >= 0.90,
    ">80 words needs 0.90": margin_by_length(80, 0.10),
    ">120 words needs 0.90": margin_by_length(120, 0.10),
    ">120 words needs 0.95": margin_by_length(120, 0.15),
    ">160 words needs 0.95": margin_by_length(160, 0.15),
    "no raise >160 words": lambda row: not longer(row, 160),
    "no raise >120 words": lambda row: not longer(row, 120),
    "evidence 0.80": lambda row: row["p_evidence"] >= 0.80,
}


def unexplained_gate(at_least: int) -> Keep:
    """No raise where `at_least` of the answer's claim-shaped sentences go beyond what the
    rules' concepts could account for (`--claims` reads them; one concept, one sentence)."""
    return lambda row: row.get("unexplained", 0) < at_least


CLAIM_VARIANTS: dict[str, Keep] = {
    "unexplained >= 2: no raise": unexplained_gate(2),
    "unexplained >= 3: no raise": unexplained_gate(3),
    "unexplained >= 4: no raise": unexplained_gate(4),
}


def claim_counts(graded: dict, answers: dict[str, tuple[str, str]]) -> None:
    """Each raised answer's claim-shaped sentences (prose units that keep at least
    MIN_CLAIM_WORDS words after the padding cut, not questions) beyond the concepts the rules
    found: row["unexplained"]. Counts only; no answer is printed."""
    from app.grading.freetext import grade_freetext
    from app.grading.freetext.evaluation import free_text_questions
    from app.grading.freetext.matching import asks
    from app.grading.freetext.normalise import normalise
    from app.grading.freetext.signals import without_padding

    questions = free_text_questions(core_labelled().pack)
    for row in graded.values():
        if not raised(row):
            continue
        qid, text = answers[row["source"]]
        units = normalise(text).units
        claims = sum(
            not u.is_code
            and not asks(u)
            and len(without_padding(u.text).split()) >= MIN_CLAIM_WORDS
            for u in units
        )
        result = grade_freetext(
            questions[qid], text, second_opinion=False, neighbours=False, tell_caps=False
        )
        row["unexplained"] = claims - len(result.details.get("concepts_found", ()))


MIN_CLAIM_WORDS = 6


def variant_verdict(row: dict[str, Any], keep: Keep) -> str:
    """The chain's verdict with the second opinion's raise kept only where `keep` says; a raise
    withheld leaves a partial, which the incorrect model then reads (so.second_verdict)."""
    if not raised(row) or keep(row):
        return row["shipped"]
    p_incorrect = row.get("p_incorrect")
    return "incorrect" if p_incorrect is not None and p_incorrect >= so.INCORRECT else "partial"


def summary(rows: list[dict[str, Any]], verdicts: list[str], named: str = "pre_named") -> str:
    """exact, correct-vs-not, named, false tells on correct (the tags of `named`: the rules'
    or the chain's before the second opinion, which names none), the raises, the six cells."""
    pairs = list(zip(rows, verdicts, strict=True))
    exact = sum(r["label"] == v for r, v in pairs)
    binary = sum((r["label"] == "correct") == (v == "correct") for r, v in pairs)
    tags = sum(t in r[named] for r in rows for t in r["expected"])
    expected = sum(len(r["expected"]) for r in rows)
    correct = [r for r in rows if r["label"] == "correct"]
    false_tells = sum(bool(r[named]) for r in correct)
    cells = Counter(r["label"][0] + v[0] for r, v in pairs)
    moved = [r for r, v in pairs if raised(r) and v == "correct"]
    right = sum(r["label"] == "correct" for r in moved)
    return (
        f"{len(rows):>5}  exact {exact}, correct-vs-not {binary}, named {tags} / {expected}, "
        f"false tells {false_tells} / {len(correct)}; raises {len(moved)} (right {right}, "
        f"wrong {len(moved) - right}); " + " ".join(str(cells[c]) for c in CELLS)
    )


def report_variants(name: str, graded: dict) -> None:
    rows = list(graded.values())
    print(
        f"== {name}: the second opinion's raise under other rules (cells i>p p>i p>c c>p i>c c>i)"
    )
    print(f"   {'rules alone':<28} {summary(rows, [r['rules'] for r in rows], 'rules_named')}")
    variants = dict(VARIANTS)
    if any("unexplained" in r for r in rows):
        variants.update(CLAIM_VARIANTS)
    for variant, keep in variants.items():
        print(f"   {variant:<28} {summary(rows, [variant_verdict(r, keep) for r in rows])}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lopo-not-read", action="store_true", help="also LOPO, not-read folds")
    ap.add_argument("--save", type=Path, help="each answer's fold reading, as JSON")
    ap.add_argument("--load", type=Path, help="read a saved reading instead of learning")
    ap.add_argument("--claims", action="store_true", help="with --load: unexplained claims")
    args = ap.parse_args()
    if args.load:
        readings = json.loads(args.load.read_text())
        if args.claims:
            answers = {a.source: (a.question_id, a.answer) for a in core_labelled().tune_answers}
            for graded in readings.values():
                claim_counts(graded, answers)
    else:
        core = core_labelled()
        rows, _ = grade_rows(core.pack, core.tune_answers, tag_map=core.tag_map, sides=core.sides)
        prepared = chain.prepare(rows, free_text_rubrics(core.pack), classifier=True)
        groups = chain.final_groups(SIDES)
        read = core.sides.read
        folds = {"LORO": chain.by_round(groups)}
        if args.lopo_not_read:
            folds["LOPO not read"] = lambda r: r.persona if r.persona not in read else None
        readings = {}
        for name, fold in folds.items():
            readings[name] = {str(i): v for i, v in fold_rows(rows, prepared, fold).items()}
            if args.save:  # after each reading: a long run leaves what it read
                args.save.write_text(json.dumps(readings))
    for name, graded in readings.items():
        report_raises(name, graded)
        report_variants(name, graded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
