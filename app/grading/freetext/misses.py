"""Why a stated misconception was not named: a cause per miss, read from the rubric.

Round 5 of issue 14 fixes causes, not answers. For every labelled misconception the grader
did not name, `miss_cause` tells which of these holds, in this order:

- `no-rubric`: the question's rubric has no such tag (content to add, if it is a real
  error per the source document);
- `wrong-tag`: the grader named another tag on the answer instead;
- `polarity`: a phrasing of the tag matched but was read as denied (or as a statement
  about another framework);
- `clause-split`: every role (claim roles, or the words between an ordered phrasing's
  gaps) occurs in one sentence, but not in one clause or not in the phrasing's order;
- `role-word`: all roles but one occur in one sentence (a synonym or role word the
  phrasing lacks);
- `no-phrasing`: nothing close - the answer says it in words no phrasing is near.

It is a diagnosis for the benchmark (`benchmarks/freetext.py --miss-causes`), not part of
grading; it reads the same units (sentences and their lemma twins) as the grader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import regex

from app.grading.freetext.budget import BoundedPattern
from app.grading.freetext.claims import CLAIM_SEPARATOR, find_phrasings, is_claim, split_clauses
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import compile_phrasing, mask
from app.packs.rubric import GAP_MARK, Misconception, Rubric

CAUSES = ("no-rubric", "wrong-tag", "polarity", "clause-split", "role-word", "no-phrasing")
_GAP = re.compile(rf"\s*{GAP_MARK}\s*")  # a barred gap (` ~!(since|because) `) splits as a gap


def phrasing_roles(pattern: str) -> list[BoundedPattern]:
    """A phrasing's roles: a claim's, or the parts between an ordered phrasing's gaps."""
    parts = CLAIM_SEPARATOR.split(pattern) if is_claim(pattern) else _GAP.split(pattern)
    roles = []
    for part in parts:
        if part.startswith("!") or not part.strip():
            continue
        try:
            roles.append(compile_phrasing(part).checked())
        except regex.error:  # a part of an ordered phrasing may not compile alone
            return []
    return roles


def _sentence_fit(texts: Sequence[str], roles: list[BoundedPattern]) -> tuple[int, bool]:
    """Most roles found in one sentence, and whether all of them share a clause there."""
    best, one_clause = 0, False
    for text in texts:
        found = [r for r in roles if r.search(text)]
        if len(found) > best:
            best = len(found)
        if len(found) == len(roles):
            clauses = split_clauses(mask(text))
            one_clause = one_clause or any(
                all(r.search(text, a, b) for r in roles) for a, b in clauses
            )
    return best, one_clause


def _near(tell: Misconception, texts: Sequence[str]) -> str | None:
    all_in_sentence = role_short = False
    for pattern in [*tell.any, *tell.negated]:
        roles = phrasing_roles(pattern)
        if len(roles) < 2:
            continue
        best, _ = _sentence_fit(texts, roles)
        if best == len(roles):
            all_in_sentence = True
        elif best == len(roles) - 1:
            role_short = True
    if all_in_sentence:
        return "clause-split"
    return "role-word" if role_short else None


def miss_cause(rubric: Rubric, answer: str, tag: str, named: Sequence[str]) -> str:
    """The cause of one missed misconception (see the module docstring)."""
    tell = next((m for m in rubric.misconceptions if m.tag == tag), None)
    if tell is None:
        return "no-rubric"
    if any(t != tag for t in named):
        return "wrong-tag"
    units = normalise(answer or "").units
    hits_any = find_phrasings(units, list(tell.any), across=True)
    hits_neg = find_phrasings(units, list(tell.negated), across=True)
    if any(not h.affirmed or h.foreign for h in hits_any) or any(
        h.affirmed or h.foreign for h in hits_neg
    ):
        return "polarity"
    texts = [t for u in units if not u.is_code for t in (u.text, u.lemmas) if t]
    return _near(tell, texts) or "no-phrasing"
