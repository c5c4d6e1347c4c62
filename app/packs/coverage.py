"""Section-by-type coverage of a pack, as the Markdown table its README carries.

The table is generated, and a test compares it with the README, so the published coverage
can never drift from the questions actually in the pack.
"""

from __future__ import annotations

from collections import Counter

from app.packs.loader import Pack
from app.packs.schema import QUESTION_TYPES


def coverage_counts(pack: Pack) -> Counter[tuple[str, str]]:
    return Counter((item.question.section, item.question.type) for item in pack.questions)


def coverage_table(pack: Pack) -> str:
    counts = coverage_counts(pack)
    types = [t for t in QUESTION_TYPES if any(k[1] == t for k in counts)]
    lines = [
        "| Section | " + " | ".join(types) + " | Total |",
        "|---|" + "---:|" * (len(types) + 1),
    ]
    for section in pack.meta.sections:
        row = [counts[(section.id, t)] for t in types]
        cells = " | ".join(str(n) for n in row)
        lines.append(f"| {section.title} (`{section.id}`) | {cells} | {sum(row)} |")
    totals = [sum(counts[(s.id, t)] for s in pack.meta.sections) for t in types]
    lines.append("| **Total** | " + " | ".join(map(str, totals)) + f" | **{sum(totals)}** |")
    return "\n".join(lines)
