"""Count app/grading/freetext/word_order.json from this repository's documentation.

The word-order reading (word_order.py) needs how often English writes each pair of word
classes. It is counted from prose nobody wrote as an answer: docs/*.md and README.md, code
blocks, tables, headings and inline code left out (docs/labelling/ is left out too: it
describes labelled answers). The function words are signals.GLUE_WORDS. The table is frozen: the
documentation grows every round, and a rewrite changes the reading's figures, so rewrite it
only on purpose (and measure again: benchmarks/freetext_shuffles.py, rules_reading.py).

    PYTHONPATH=$PWD .venv/bin/python scripts/word_order_table.py
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import word_order  # noqa: E402
from app.grading.freetext.normalise import normalise  # noqa: E402
from app.grading.freetext.signals import GLUE_WORDS  # noqa: E402


def paragraphs() -> list[str]:
    out = []
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        text = re.sub(r"```.*?```", " ", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        for para in re.split(r"\n\s*\n", text):
            if not para.lstrip().startswith(("|", "#", "    ")):
                out.append(re.sub(r"`[^`]*`", "x", para))
    return out


def main() -> None:
    words = GLUE_WORDS
    known = word_order.Table(frozenset(words), {}, {})
    unigrams: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for para in paragraphs():
        units = normalise(para).units
        clauses = [word_order.tokens(u.text) for u in units if not u.is_code]
        unigrams.update(word_order.classes(clauses, known))
        pairs.update(word_order.class_pairs(clauses, known))
    data = {
        "source": "docs/*.md (not docs/labelling/) and README.md: scripts/word_order_table.py",
        "function_words": sorted(words),
        "unigrams": dict(sorted(unigrams.items())),
        "pairs": {f"{a} {b}": n for (a, b), n in sorted(pairs.items())},
    }
    word_order.TABLE.write_text(json.dumps(data, indent=0, sort_keys=False) + "\n")
    print(f"{len(unigrams)} classes, {len(pairs)} pairs, {sum(pairs.values())} pairs counted")


if __name__ == "__main__":
    main()
