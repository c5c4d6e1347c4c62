"""Two blind labellers' agreement on a fresh set, and the splits the lead must decide (issue 14).

Reads both labellers' folders (one YAML per writer, answers in the writer's order) and prints
verdict agreement, correct-vs-not agreement, identical tag sets (after RENAME: one name for one
belief) and then one of: each verdict split with both notes and the answer (`splits`, what the
lead decides by the round-30 rule), each tag difference (`tags`, what the union keeps), or each
labeller's new tag names (`new`, what a rename may join). The lead's tool, kept in the repository
since round 53 (it lived outside it and was lost with a machine).

    .venv/bin/python scripts/labelling/label_agreement.py FIRST_DIR SECOND_DIR \
        [--rename RENAME.yaml] [--show splits|tags|new]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


@dataclass
class Agreement:
    answers: int = 0
    verdicts: int = 0
    correct_vs_not: int = 0
    same_tags: int = 0
    splits: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    tag_differences: list[tuple[str, str, list[str], list[str]]] = field(default_factory=list)
    new_tags: tuple[dict[str, str], dict[str, str]] = field(default_factory=lambda: ({}, {}))


def _tags(answer: dict[str, Any], rename: dict[str, str]) -> set[str]:
    return {rename.get(tag, tag) for tag in answer.get("misconceptions") or []}


def compare(first: Path, second: Path, rename: dict[str, str] | None = None) -> Agreement:
    """Both labellers' files, answer by answer (the same writers' files, the same answers)."""
    rename = rename or {}
    found = Agreement()
    for path in sorted(first.glob("*.yaml")):
        one = yaml.safe_load(path.read_text())
        other = yaml.safe_load((second / path.name).read_text())
        found.new_tags[0].update(one.get("new_tags") or {})
        found.new_tags[1].update(other.get("new_tags") or {})
        if len(one["answers"]) != len(other["answers"]):
            raise SystemExit(f"{path.name}: {len(one['answers'])} against {len(other['answers'])}")
        for index, (x, y) in enumerate(zip(one["answers"], other["answers"], strict=True)):
            if x["answer"] != y["answer"]:
                raise SystemExit(f"{path.name} #{index}: the two files hold different answers")
            key = f"{one['persona']}#{index}"
            found.answers += 1
            found.verdicts += x["verdict"] == y["verdict"]
            found.correct_vs_not += (x["verdict"] == "correct") == (y["verdict"] == "correct")
            tx, ty = _tags(x, rename), _tags(y, rename)
            found.same_tags += tx == ty
            if tx != ty:
                found.tag_differences.append((key, x["question"], sorted(tx - ty), sorted(ty - tx)))
            if x["verdict"] != y["verdict"]:
                found.splits.append((key, x, y))
    return found


def report(found: Agreement, show: str, names: tuple[str, str]) -> str:
    a, b = names
    n = found.answers
    lines = [
        f"verdicts {found.verdicts}/{n}, correct-vs-not {found.correct_vs_not}/{n}, "
        f"same tags {found.same_tags}/{n}, splits {len(found.splits)}"
    ]
    if show == "tags":
        for key, question, only_a, only_b in found.tag_differences:
            lines.append(f"{key} {question}: {a} only {only_a} | {b} only {only_b}")
    elif show == "new":
        for name, tags in zip(names, found.new_tags, strict=True):
            lines.append(f"== {name} new tags")
            lines += [f"  {tag}: {text}" for tag, text in tags.items()]
    else:
        for key, x, y in found.splits:
            lines.append(
                f"\n### {key} {x['question']}: {a} {x['verdict']} {x.get('misconceptions')} | "
                f"{b} {y['verdict']} {y.get('misconceptions')}"
            )
            lines += [f"{a}: {x.get('note')}", f"{b}: {y.get('note')}", x["answer"].strip()]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--rename", type=Path)
    parser.add_argument("--show", choices=("splits", "tags", "new"), default="splits")
    args = parser.parse_args()
    rename = (yaml.safe_load(args.rename.read_text()) or {}) if args.rename else {}
    found = compare(args.first, args.second, rename)
    print(report(found, args.show, (args.first.name, args.second.name)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
