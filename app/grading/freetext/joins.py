"""Sentence joins: a sentence whose subject is a pronoun or a demonstrative, read with the
sentence before it.

"tape.gradient does the heavy lifting. It updates the weights" states its claim about the
first sentence's subject, which no phrasing can see from the second sentence alone. Tells
are read once more over the two sentences joined (claims.find_phrasings, `across`). Split
out of claims.py (round 18), which reads claims inside one sentence.
"""

from __future__ import annotations

import re
from itertools import pairwise

from app.grading.freetext.matching import Hit, asks
from app.grading.freetext.normalise import Unit
from app.grading.freetext.per_answer import remembered_per_answer
from app.grading.freetext.phrasings import TERMINATOR, mask
from app.grading.freetext.subjects import (
    as_relative_clause,
    demonstrative_subject,
    dropped_subject,
)

# Round 14: a sentence whose subject is "it" or "they" ("tape.gradient does the heavy
# lifting. It updates the weights", "The tape? It sums the gradients across steps")
# states its claim about the sentence before's subject. It is read once more with the
# first clause of the sentence before in front of it, joined by a comma - the reading a
# pronoun subject already gets inside one sentence ("..., and it updates the weights":
# `_joined_start`, and the ordered phrasings' gaps, which run across a comma) - and only
# the hits that take words from both sentences are added, for tells only: a concept
# credited so raised partial answers to correct (LOPO). Not after a direct question
# ("Does tape.gradient update the weights? It does not"), which states nothing to resolve
# the pronoun in, nor for "it is" / "it's", which is mostly no pronoun ("So it's more that
# the loss wasn't computed under the tape"), nor after a conjunction ("So it ...").
# Round 17: a demonstrative subject ("That gives you ...", `demonstrative_subject`) too,
# read as a relative clause: "Sum the losses in one tape, which gives you ...".
# Round 30: a sentence with its subject dropped ("The optimizer. Clears the gradients after
# applying them.", `dropped_subject`) too, read like "It clears ...".
_SENTENCE_PRONOUN = re.compile(r"\W*(?:it|they)\b(?!'s|\s+(?:is|was)\b)", re.IGNORECASE)

# Round 31: a first clause that is a condition or another subordinate clause ("If the loss
# was computed after the block, the tape has no record. It doesn't raise ...") holds no
# subject for "It": the pronoun stands for the main clause's, which the join does not read.
_SUBORDINATE_LEAD = re.compile(
    r"\W*(?:if|when|whenever|once|unless|although|though|because|since|while|whereas"
    r"|as\s+soon\s+as|even\s+if)\b",
    re.IGNORECASE,
)


@remembered_per_answer
def pronoun_joins(units: tuple[Unit, ...]) -> tuple[tuple[Unit, tuple[str, ...]], ...]:
    """(joined unit, the texts it was joined from) for each prose sentence that opens on
    a subject pronoun after another prose sentence."""
    joins = []
    for before, unit in pairwise(units):
        if before.is_code or unit.is_code or asks(before) or asks(unit):
            continue
        demonstrative = demonstrative_subject(unit.text)
        if not (demonstrative or _SENTENCE_PRONOUN.match(unit.text) or dropped_subject(unit.text)):
            continue
        lead = _first_clause(before.text)
        if not lead or _SUBORDINATE_LEAD.match(lead):
            continue
        text, lemmas = unit.text, unit.lemmas
        if demonstrative:
            text, lemmas = as_relative_clause(text), as_relative_clause(lemmas)
        twin = _first_clause(before.lemmas or before.text) + ", " + lemmas
        parts = (lead, unit.text, _first_clause(before.lemmas), unit.lemmas)
        joined = Unit(f"{lead}, {text}", False, twin if lemmas else "")
        joins.append((joined, tuple(p for p in parts if p)))
    return tuple(joins)


def _first_clause(text: str) -> str:
    """A sentence up to its first clause boundary (where its subject stands)."""
    term = TERMINATOR.search(mask(text))
    return (text[: term.start()] if term else text).strip().rstrip(".!?").strip()


def crosses(hit: Hit, parts: tuple[str, ...]) -> bool:
    """Whether a hit of a joined reading takes words from both sentences."""
    return not any(hit.snippet in part for part in parts)
