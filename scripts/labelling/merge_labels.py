"""Merge two blind labellers' files into persona files, with their agreement and splits.

Where the two agree on a verdict an answer carries the union of their tags (after RENAME:
one name for one belief, a kit tag winning over a new one); a split needs the lead's
decision in DECISIONS (`persona#index: {verdict, misconceptions, note}`), else it is
printed and written as UNDECIDED. Provenance goes in docs/labelling/roundN.md.

    .venv/bin/python scripts/labelling/merge_labels.py LABELS_A LABELS_B OUT_DIR \
        [--rename RENAME.yaml] [--decisions DECISIONS.yaml] [--date 2026-12-03 --round 21]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml


def load(path: Path | None) -> dict[str, Any]:
    return (yaml.safe_load(path.read_text()) or {}) if path else {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--rename", type=Path)
    parser.add_argument("--decisions", type=Path)
    parser.add_argument("--date", default="")
    parser.add_argument("--round", default="")
    args = parser.parse_args()
    rename, decisions = load(args.rename), load(args.decisions)
    first, second = args.first.name, args.second.name
    total = agree = binary = 0
    splits = []
    for path_a in sorted(args.first.glob("*.yaml")):
        a, b = load(path_a), load(args.second / path_a.name)
        if len(a["answers"]) != len(b["answers"]):
            raise SystemExit(f"{path_a.name}: {len(a['answers'])} vs {len(b['answers'])} answers")
        described = {**(b.get("new_tags") or {}), **(a.get("new_tags") or {})}
        answers = []
        for i, (x, y) in enumerate(zip(a["answers"], b["answers"], strict=True)):
            if x["answer"] != y["answer"] or x["question"] != y["question"]:
                raise SystemExit(f"{path_a.name}#{i}: the two files differ in the answer")
            total += 1
            agree += x["verdict"] == y["verdict"]
            binary += (x["verdict"] == "correct") == (y["verdict"] == "correct")
            tags: list[str] = []
            for tag in (x.get("misconceptions") or []) + (y.get("misconceptions") or []):
                tag = rename.get(tag, tag)
                if tag not in tags:
                    tags.append(tag)
            key = f"{a['persona']}#{i}"
            note = f"{first}: {x.get('note', '')} | {second}: {y.get('note', '')}"
            verdict = x["verdict"]
            if x["verdict"] != y["verdict"]:
                decided = decisions.get(key)
                if decided is None:
                    splits.append(f"{key} {x['question']}: {x['verdict']} vs {y['verdict']}")
                    verdict = "UNDECIDED"
                else:
                    verdict, tags = decided["verdict"], list(decided["misconceptions"])
                    note = f"lead: {decided['note']}"
            answers.append({
                "question": x["question"], "verdict": verdict, "misconceptions": tags,
                "note": note, "answer": x["answer"],
            })  # fmt: skip
        used = {t for entry in answers for t in entry["misconceptions"]}
        merged = {
            "persona": a["persona"],
            "labeller": f"{first}, double-labelled by {second} (blind, independent, "
            f"{args.date} round {args.round}); disagreements adjudicated by the lead "
            "(notes start 'lead:').",
            "new_tags": {t: described[t] for t in sorted(used) if t in described},
            "answers": answers,
        }
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / path_a.name).write_text(
            yaml.safe_dump(merged, sort_keys=False, allow_unicode=True, width=100)
        )
    print(f"verdicts agree {agree}/{total}; correct-vs-not {binary}/{total}")
    for split in splits:
        print("split", split)
    return 1 if splits else 0


if __name__ == "__main__":
    raise SystemExit(main())
