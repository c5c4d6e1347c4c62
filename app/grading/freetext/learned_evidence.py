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
order (claims.py) - and a role may be missing where the rest still state something: one of
three or more ` & ` roles, or a ` ~ ` piece between the first and the last of an ordered
run. The ends of an ordered run stay (round 28): they carry what the claim is about and what
it says of it, and a piece is not always a constituent - "(moving|bn) ~ (mean|variance) ~
(are|is) differentiable" without its end is the topic "moving mean", and "second
derivatives ~ (use|with) ~ persistent" without its start is "with a single persistent tape",
which correct answers say. Its excluded roles (`!(...)`) still exclude, so "Setting
bn.trainable = False freezes gamma and beta" is no evidence of
inference-mode-freezes-bn-params, whose phrasing rules out
`.trainable`. The evidence only lets a learned tell be named: it names nothing by itself,
and a padded answer gains nothing by it (a tell only lowers a verdict). Each phrasing is
read at most (roles + 2) times, each read linear in the answer's length (budget.py), and
only on an answer a learned part suggested a tell for.
"""

from __future__ import annotations

from functools import lru_cache

from app.grading.freetext.claims import CLAIM_SEPARATOR
from app.grading.freetext.lexicon import balanced, split_top
from app.packs.rubric import Misconception

MIN_ROLES_TO_SPARE = 3  # a claim of this many ` & ` roles may miss one (two: both needed)


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


def loosened(pattern: str) -> list[str]:
    """The phrasings that are evidence of a phrasing: itself; its roles (` & ` parts, and the ` ~ `
    pieces of each) in one clause, any order, with its excluded roles; and each of those claims
    with one role left out (`_spared`)."""
    parts = CLAIM_SEPARATOR.split(pattern.strip())
    excluded = [p for p in parts if p.startswith("!")]
    runs = [_pieces(p) for p in parts if not p.startswith("!")]
    roles = [piece for run in runs for piece in run]
    if len(roles) < 2:
        return [pattern]  # one role: nothing to read loosely
    claims = [roles, *_spared(runs)]
    return [pattern, *(" & ".join([*claim, *excluded]) for claim in claims)]


def _spared(runs: list[list[str]]) -> list[list[str]]:
    """The roles with one left out: a whole ` & ` role of three or more, or a piece between the
    ends of an ordered run (the ends stay: round 28)."""
    claims = []
    if len(runs) >= MIN_ROLES_TO_SPARE:
        claims += [
            [p for j, run in enumerate(runs) if j != i for p in run] for i in range(len(runs))
        ]
    for i, run in enumerate(runs):
        for k in range(1, len(run) - 1):
            claims.append(
                [p for j, r in enumerate(runs) for m, p in enumerate(r) if (j, m) != (i, k)]
            )
    return claims


def _pieces(role: str) -> list[str]:
    """A role's ` ~ ` pieces, where the gap is outside any group (else the role whole)."""
    pieces = [piece.strip() for piece in split_top(role, "~")]
    if not balanced(role) or not all(pieces):
        return [role]
    return pieces
