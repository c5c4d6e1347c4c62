"""Where a held-out reading's unnamed misconceptions sit, by cause (issue 14).

Reads the rows `benchmarks/freetext_shipped.py --json` wrote and counts each labelled tag the
shipped grader did not name: the question's own rubric knows the tag (its phrasings miss the
wording), another question's rubric knows it (the belief appears where no entry is), or no
rubric has it (a belief new to the rubrics). The lead's tool for a round's "Left", kept in the
repository since round 53.

    .venv/bin/python scripts/labelling/held_out_gap.py ROWS.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def causes(
    rows: Iterable[Mapping], known: Mapping[str, set[str]]
) -> tuple[Counter[str], Counter[tuple[str, str]], Counter[str], Counter[str]]:
    """Unnamed tags by cause, by (cause, tag), by question and by persona; `known` is each
    question's rubric tags."""
    anywhere = set().union(*known.values())
    cause: Counter[str] = Counter()
    by_tag: Counter[tuple[str, str]] = Counter()
    by_question: Counter[str] = Counter()
    by_persona: Counter[str] = Counter()
    for row in rows:
        named = set(row["as shipped"]["tags"])
        for tag in sorted(set(row["expected"]) - named):
            own = known.get(row["question"], set())
            kind = "rubric knows" if tag in own else "another's" if tag in anywhere else "new"
            cause[kind] += 1
            by_tag[(kind, tag)] += 1
            by_question[row["question"]] += 1
            by_persona[row["persona"]] += 1
    return cause, by_tag, by_question, by_persona


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    from app.grading.freetext.evaluation import core_labelled, free_text_rubrics

    rubrics = free_text_rubrics(core_labelled().pack)
    known = {q: {m.tag for m in rubric.misconceptions} for q, rubric in rubrics.items()}
    cause, by_tag, by_question, by_persona = causes(json.loads(args.rows.read_text()), known)
    print("unnamed", sum(cause.values()), dict(cause))
    print("by question", by_question.most_common())
    print("by persona", by_persona.most_common())
    for (kind, tag), n in by_tag.most_common(args.top):
        print(f"  {n} {kind}: {tag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
