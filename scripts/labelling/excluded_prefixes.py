"""Excluded roles kept out of a word only by their open end (issue 14, round 42, engineer M14).

A claim's excluded role (`!(...)`, claims.py) starts at a word's start; until round 42 its end
was open, so "!(different)" also kept out "differentiate" (round 41's accident on
higher-order-derivatives).
For every claim of the ten core questions this lists the words of the same rubric (its YAML:
prompt, model answer, labels, corrections, phrasings) that an excluded role keeps out with the
open end but not with the end claims.py reads (`claims.EXCLUDED_END`, round 42): the words
the closed end lets in. Reads no answers. From a worktree root:
  PYTHONPATH=$PWD .venv/bin/python scripts/labelling/excluded_prefixes.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.grading.freetext.answer_guards import is_guard  # noqa: E402
from app.grading.freetext.claims import (  # noqa: E402
    EXCLUDED_END,
    claim_parts,
    from_word_start,
    is_claim,
)
from app.grading.freetext.evaluation import core_labelled  # noqa: E402
from app.grading.freetext.phrasings import compile_phrasing  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

WORD = re.compile(r"[a-z]{3,}")


def accidents(excluded: str, words: set[str]) -> list[str]:
    """The words the role keeps out with its end open but not with it closed."""
    closed = from_word_start(excluded)
    opened = compile_phrasing(closed.pattern.removesuffix(EXCLUDED_END), lexicon=False)
    return sorted(w for w in words if opened.search(w) and not closed.search(w))


def main() -> None:
    core = core_labelled()
    pack_folder = ROOT / "questions" / "gradient-tape"
    core_ids = {a.question_id for a in core.tune_answers}
    found = 0
    for question in core.pack.questions:
        q = question.question
        if not isinstance(q, FreeText) or q.id not in core_ids:
            continue
        words = set(WORD.findall((pack_folder / f"{q.id}.yaml").read_text().lower()))
        rubric = q.rubric
        owners = [(c.id, c) for c in rubric.concepts] + [(m.tag, m) for m in rubric.misconceptions]
        for owner, phrased in owners:
            for phrasing in [*phrased.any, *phrased.negated]:
                if not is_claim(phrasing):
                    continue
                for role in claim_parts(phrasing)[1]:
                    if is_guard(role):
                        continue
                    hit = accidents(role[1:], words)
                    if hit:
                        found += 1
                        print(f"{q.id} | {owner} | {role} | {', '.join(hit)}")
    print(f"excluded roles with a prefix accident: {found}")


if __name__ == "__main__":
    main()
