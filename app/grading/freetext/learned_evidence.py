"""A learned tell needs the rules' evidence in the answer itself (issue 14, round 26).

The nearest labelled answers (neighbours.py) and the per-tag classifier (tag_classifier.py)
suggest a tell from words: an answer worded like answers that state a belief gets its tag.
A true statement that uses the belief's words with the correction's claim ("In inference
mode BatchNorm's gamma and beta are still trained by the optimizer") sits among those
answers, and each retrain that adds a writer named or unnamed the tell on it (round 13's
true statements 18 and 35, named from round 18, not in round 23, again in round 25).

So a learned part only chooses among tells the answer itself gives evidence of: some
phrasing of the tell, as written or read loosely, states it in the answer as the rules read a tell
(affirmed, or a `negated` phrasing denied; not asked, not in an open condition, not of
another framework, not inside double quotes, not in padding). Loosely: a phrasing is read
as a claim - its ` & ` roles and its ` ~ ` pieces are roles one clause must carry, in any
order (claims.py) - and with three or more roles, any one of them may be missing. Its
excluded roles (`!(...)`) still exclude, so "Setting bn.trainable = False freezes gamma and
beta" is no evidence of inference-mode-freezes-bn-params, whose phrasing rules out
`.trainable`. The evidence only lets a learned tell be named: it names nothing by itself,
and a padded answer gains nothing by it (a tell only lowers a verdict). Each phrasing is
read at most (roles + 2) times, each read linear in the answer's length (budget.py), and
only on an answer a learned part suggested a tell for.

Round 55 (engineer G4): an affirmed phrasing read with a role spared can be kept out of a
sentence that denies (`DENIED`, `loosened(..., keep_out_denials=True)`). The role left out may
be the very word denied: "Across micro batches the gradients are never held in the tape"
carried tape-accumulates' roles but its verb, and the two left ("across", "micro") were read as
affirmed because the denial sits outside them (round 48's polarity gap). A `negated` phrasing
keeps its spared readings: there the denial is what states the tell. The slot reading
(benchmarks/freetext_loose_slots.py) uses it; the shipped evidence not yet: a whole-chain
reading must measure it first (round 28 lost right learned tells out of sample to a stricter
evidence rule).
"""

from __future__ import annotations

from functools import lru_cache

from app.grading.freetext.claims import claim_parts
from app.grading.freetext.lexicon import balanced, split_top
from app.packs.rubric import Misconception

MIN_ROLES_TO_SPARE = 3  # a claim of this many roles may miss one (two roles: both needed)
# The excluded role a spared reading of an affirmed phrasing takes: a denial in the sentence.
DENIED = r"!(not|never|cannot|no longer|nor|\w+n['’]t)"


def loose_tell(tell: Misconception) -> Misconception:
    """The tell with each phrasing read loosely (`loosened`): the rules' reading of it
    (grader.has_evidence) is the evidence a learned part needs to name `tell`."""
    return Misconception.model_construct(
        tag=tell.tag,
        label=tell.label,
        correction=tell.correction,
        cap=tell.cap,
        any=_loosened_all(tuple(tell.any)),
        negated=_loosened_all(tuple(tell.negated)),
    )


@lru_cache(maxsize=1024)
def _loosened_all(patterns: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(p for pattern in patterns for p in loosened(pattern)))


def forget_loosened() -> None:
    """Forget the loosened phrasings remembered per phrasing: a reading that changes
    `MIN_ROLES_TO_SPARE` (benchmarks/freetext_role_synonyms.py, round 49) must not take the
    ones loosened before it."""
    _loosened_all.cache_clear()


def loosened(pattern: str, keep_out_denials: bool = False) -> list[str]:
    """The phrasings that are evidence of a phrasing: itself; its roles (` & ` parts, and the ` ~ `
    pieces of each) in one clause, any order, with its excluded roles; and with three or
    more roles, each of those claims with one role left out (`keep_out_denials`: and kept out
    of a sentence that denies, `DENIED`; for an affirmed phrasing)."""
    parts, excluded = claim_parts(pattern)
    roles = [piece for p in parts for piece in _pieces(p)]
    if len(roles) < 2:
        return [pattern]  # one role: nothing to read loosely
    claims = [" & ".join([*roles, *excluded])]
    if len(roles) >= MIN_ROLES_TO_SPARE:
        denied = [DENIED] if keep_out_denials else []
        claims += [
            " & ".join([*roles[:i], *roles[i + 1 :], *excluded, *denied]) for i in range(len(roles))
        ]
    return [pattern, *claims]


def _pieces(role: str) -> list[str]:
    """A role's ` ~ ` pieces, where the gap is outside any group (else the role whole; so too
    with a barred gap, ` ~!(since|because) `, as when round 46 spelled it out by hand)."""
    pieces = [piece.strip() for piece in split_top(role, "~")]
    if not balanced(role) or not all(pieces) or any(p.startswith("!(") for p in pieces[1:]):
        return [role]
    return pieces
