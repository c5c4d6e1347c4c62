"""Rules-alone reading of the tune personas only, for a round's engineers (issue 14).

Held-out answers are never graded, so an engineer may run it at any time. From a worktree root:
  PYTHONPATH=$PWD nice -n 5 .venv/bin/python scripts/labelling/rules_reading.py \
      [--save FILE.json] [--compare FILE.json] [--group NAME=persona,persona ...]
Prints exact, correct-vs-not, named / expected, false tells on correct, and the six cells
(cells, label>verdict: i>p p>i p>c c>p i>c c>i) for: tune all, "not read" (tune minus sides.yaml's
`read`), read, and each --group. --save writes each answer's grading (by source) so a later
run with --compare counts the answers whose verdict or named tells moved, per group; sources
are saved relative to the tree's root, so a reading saved in one worktree compares in another.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.grading.freetext.chain import cells  # noqa: E402
from app.grading.freetext.evaluation import Row, core_labelled, figures, grade_rows  # noqa: E402


def line(name: str, rows: list[Row]) -> str:
    f = figures(rows)
    six = " ".join(str(n) for n in cells(rows))
    return (
        f"| {name} ({f.total}) | {f.exact} | {f.binary} | {f.tags_named} / {f.tags_expected} "
        f"| {f.false_tells_on_correct} / {f.correct_labelled} | {six} |"
    )


def tree_relative(source: str) -> str:
    """'/any/worktree/tests/...: answers[3]' -> 'tests/...: answers[3]'."""
    return source.removeprefix(f"{ROOT}/")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--compare")
    ap.add_argument("--group", action="append", default=[])
    a = ap.parse_args()
    core = core_labelled()
    tune = core.tune_answers
    rows, problems = grade_rows(core.pack, tune, tag_map=core.tag_map, sides=core.sides)
    for p in problems:
        print("problem:", p, file=sys.stderr)
    read = core.sides.read
    groups = {
        "tune, all": rows,
        "not read": [r for r in rows if r.persona not in read],
        "read": [r for r in rows if r.persona in read],
    }
    for g in a.group:
        name, _, ps = g.partition("=")
        groups[name] = [r for r in rows if r.persona in set(ps.split(","))]
    print("| rules alone | exact | correct-vs-not | named | false tells on correct | cells |")
    print("|---|---|---|---|---|---|")
    for name, rs in groups.items():
        print(line(name, rs))
    now = {tree_relative(r.source): [r.verdict, sorted(r.named_tags)] for r in rows}
    if a.compare:
        before = json.loads(Path(a.compare).read_text())
        for name, rs in groups.items():
            keys = [tree_relative(r.source) for r in rs]
            moved = sum(before.get(key) != now[key] for key in keys)
            print(f"moved since {a.compare}: {name}: {moved}")
    if a.save:
        Path(a.save).write_text(json.dumps(now))


if __name__ == "__main__":
    main()
