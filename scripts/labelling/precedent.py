"""A tag's labelling precedent, for the lead adjudicating a new set's splits (issue 14).

Counts the verdicts of tune answers that carry the tag alone (and with others), split into
the labellers' own verdicts (both agreed, or one labeller in the early rounds) and the lead's
decisions of splits (notes starting 'lead:'): round 29 found that deciding splits by a
precedent made of earlier decisions feeds on itself, so a split is decided by the labellers'
convention first and by the labellers' own precedent only (docs/freetext.md, "Blind-labelled
data"). Labellers' own tags, not mapped onto rubric tags.
  .venv/bin/python scripts/labelling/precedent.py TAG [TAG ...] [--folder DIR]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.grading.freetext.evaluation import load_sides  # noqa: E402

FOLDER = ROOT / "tests" / "grading" / "freetext_labelled"


@dataclass
class Precedent:
    alone_agreed: Counter[str] = field(default_factory=Counter)
    alone_decided: Counter[str] = field(default_factory=Counter)
    beside_others: Counter[str] = field(default_factory=Counter)


def tune_entries(folder: Path) -> list[dict]:
    """The persona files' answers of `tune` personas (the original set has no labeller pair)."""
    tune = load_sides(folder / "meta" / "sides.yaml").tune
    entries: list[dict] = []
    for path in sorted((folder / "personas").glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if data.get("persona") in tune:
            entries += data["answers"]
    return entries


def precedents(entries: list[dict], tags: list[str]) -> dict[str, Precedent]:
    found = {tag: Precedent() for tag in tags}
    for entry in entries:
        answer_tags = entry.get("misconceptions") or []
        decided = str(entry.get("note", "")).startswith("lead:")
        for tag in answer_tags:
            if tag not in found:
                continue
            if len(answer_tags) > 1:
                found[tag].beside_others[entry["verdict"]] += 1
            elif decided:
                found[tag].alone_decided[entry["verdict"]] += 1
            else:
                found[tag].alone_agreed[entry["verdict"]] += 1
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tags", nargs="+")
    ap.add_argument("--folder", type=Path, default=FOLDER)
    args = ap.parse_args()
    for tag, p in precedents(tune_entries(args.folder), args.tags).items():
        print(
            f"{tag}: alone, labellers' {dict(p.alone_agreed)}; alone, lead decided "
            f"{dict(p.alone_decided)}; beside other tags {dict(p.beside_others)}"
        )


if __name__ == "__main__":
    main()
