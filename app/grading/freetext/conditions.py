"""Conditions: a claim made inside an if-clause, or as its consequence, is no plain claim.

"If tape.gradient updated the weights, you wouldn't need an optimizer" (a counterfactual)
states that it does not; "if you pass model.variables instead, the frozen layers get
trained" and "if the inner gradient is taken outside the outer tape, you get None" reason
from a condition the speaker warns against; "if you don't reset the accumulators, the
gradients add up" says the reset is needed. polarity.py asks these questions of each match;
they live here because they read the sentence's if-clause and its consequence, not its
negation cues (moved from polarity.py in round 9, unchanged but for the warning reading).
"""

from __future__ import annotations

import re

import regex

from app.grading.freetext.phrasings import CUE, TERMINATOR, end_of_clause, start_of_clause

_IF_CLAUSE = re.compile(r"\s*if\b", re.IGNORECASE)
# Past tense in an if-clause, not a passive or perfect ("is computed", "has recorded").
# Round 49: or an irregular past ("if the tape kept the gradients across micro batches, you
# would not need accumulators"): a verb spelled apart from its present (not "put", "set", "read").
_IRREGULAR_PAST = (
    r"kept|held|made|took|got|gave|ran|knew|built|sent|spent|brought|threw|found|lost|wrote|chose"
    r"|saw|became|began|meant|fed|caught|thought|told|said|went|came|grew|drew|forgot|understood"
)
_PAST = re.compile(
    r"\b(?:were|did|had)\b|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bbe\s)(?<!\bbeen\s)"
    r"(?<!\bget\s)(?<!\bgets\s)(?<!\bgot\s)(?<!\bhas\s)(?<!\bhave\s)"
    rf"\b(?:[a-z]{{3,}}ed|{_IRREGULAR_PAST})\b",
    re.IGNORECASE,
)
_WOULD = re.compile(r"\b(?:would|wouldn't|'d)\b|\w'd\b", re.IGNORECASE)


def in_counterfactual_condition(masked: str, start: int, end: int, written: str = "") -> bool:
    """A claim in a counterfactual if-clause: "if tape.gradient updated the weights, you
    wouldn't need an optimizer" states that it does not. An open condition ("if the loss
    is computed outside the tape, you'd get None") states nothing false: it needs a past
    tense in the if-clause, not a passive. A match that runs into the consequence states the
    consequence: "if you passed model.variables it'd still work" says it would (round 6)."""
    clause_start = start_of_clause(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    if _WOULD.search(masked, clause_start, end) is not None:
        return False
    clause_end = end_of_clause(masked, end)
    if not _past_in_clause(masked, clause_start, written):
        return False
    return _WOULD.search(masked, clause_end) is not None


def _past_in_clause(masked: str, clause_start: int, written: str = "") -> bool:
    """Whether the clause starting at `clause_start` has a past tense, read in the words as
    written: a lemma twin has lost it ("if tape.gradient update the weight, ..."; round 8).
    Lemmas change words, not clause marks, so the twin's n-th clause is the written one's."""
    if not written or written == masked:
        return _PAST.search(masked, clause_start, end_of_clause(masked, clause_start)) is not None
    n = sum(1 for term in TERMINATOR.finditer(masked) if term.end() <= clause_start)
    terms = list(TERMINATOR.finditer(written))
    if n > len(terms):
        return False
    start = terms[n - 1].end() if n else 0
    return _PAST.search(written, start, end_of_clause(written, start)) is not None


# A premise of leaving something out: "if you forgot zero_grad, the gradients would pile
# up" says the reset is needed, as "if you didn't call zero_grad" does.
_OMITTED = re.compile(
    r"\b(?:forg[eo]t\w*|skipp?\w*|omitt?\w*|left\s+out|leave\s+out|removed|dropped|missed)\b",
    re.IGNORECASE,
)


_ACTOR = re.compile(r"\s*(?:you|we|i|one|someone|somebody|anyone)\b", re.IGNORECASE)


def in_counterfactual_consequence(masked: str, start: int, end: int, written: str = "") -> bool:
    """Whether a match is the consequence of a counterfactual whose premise is positive:
    "if gradients piled up on the variables, you'd need zero_grad" describes a world the
    speaker holds false, so it names no tell (round 8). A premise that is an action of
    the user ("if you passed model.variables, the BatchNorm statistics would get
    gradients") or leaves something out ("if you didn't / forgot to reset them, they'd
    pile up") asks what the action causes: its consequence is a claim about TensorFlow and
    stays one."""
    clause_start = start_of_clause(masked, start)
    if not clause_start or _WOULD.search(masked, clause_start, end) is None:
        return False
    premise = start_of_clause(masked, clause_start - 1)
    condition = _IF_CLAUSE.match(masked, premise)
    if condition is None or _WOULD.search(masked, premise, clause_start):
        return False
    if _ACTOR.match(masked, condition.end()):
        return False
    if CUE.search(masked, premise, clause_start) or _OMITTED.search(masked, premise, clause_start):
        return False
    return _past_in_clause(masked, premise, written)


def in_open_negated_condition(
    masked: str, start: int, end: int, cues: int, written: str = ""
) -> bool:
    """ "If you don't reset the accumulators, the gradients add up" says the reset is
    needed: a denied action in an open if-clause that has a consequence is affirmed."""
    if cues % 2 == 0:
        return False
    clause_start = start_of_clause(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    clause_end = end_of_clause(masked, end)
    has_consequence = clause_end < len(masked.rstrip(" .!?"))
    # Round 32: or a comma-less consequence after the match's start ("if you don't reset
    # them the old gradients get added")
    has_consequence = has_consequence or consequence_start(masked, clause_end) > start
    return has_consequence and not in_counterfactual_condition(masked, start, end, written)


# Round 32: where no comma closes an if-clause ("if you don't clear them the old gradients
# get added", "if you don't call zero_grad() the sums grow", "if you don't reset it then
# they pile up"), its consequence opens on a subject right after the condition's object: a
# pronoun, an API name or a call, then a determiner or a pronoun subject; or on "then". A
# denial in the condition denies the condition's verb, not the consequence after that point.
_CONSEQUENCE_OPENS = regex.compile(
    # round 36: a particle or adverb may close the condition's verb ("if you don't zero them
    # out the gradients ...", "if you don't reset it first they ...")
    r"\b(?:it|them|this|that|these|those)(?:\s++(?:out|up|off|down|away|first|again|yourself"
    r"|manually|explicitly))?+\s++(?=(?:the|your|our|their|its|all|every|each"
    r"|old|new|those|these|they|you|we|tf|tensorflow|gradients?|grads)\b)"
    # an API name or a call: one scan per token (a token starts after no word or dot)
    r"|(?<![\w.])(?=[A-Za-z][\w.]*?[_.]\w|[A-Za-z]\w*\(\))[A-Za-z][\w.]*+(?:\(\))?+\s++"
    r"(?=(?:the|your|our|their|its|all|every|each|they|you|we)\b)"
    r"|\bthen\b"
    # round 33: a pronoun subject with a finite verb after a noun ("if the loss is computed
    # outside the block it raises ...", "if you don't clear the accumulators they keep growing")
    r"|(?<=[A-Za-z]\s)(?:it|they)\s++(?=(?:will|would|won't|wouldn't|'ll|'d|just|still|then"
    r"|is|are|was|were|isn't|aren't|doesn't|don't|didn't|gives?|returns?|raises?|throws?"
    r"|fails?|breaks?|crash(?:es)?|keeps?|stays?|becomes?|gets?|ends?\s+up|adds?|grows?"
    r"|accumulates?|sums?|holds?)\b)",
    regex.IGNORECASE,
)
_AHEAD = 24  # characters: more than the longest word an opener looks ahead to ("tensorflow")


# Round 36: the clauses whose comma-less consequence is read as above: an if-clause or a
# when-clause, also after a conjunction ("when you don't reset the buffers they keep adding
# up", "the buffers are yours and if you never clear them they keep adding up"), and a premise of
# absence ("without zero_grad() the gradients would pile up": "without" denies zero_grad, not
# the piling up).
_CONDITION_OPENS = regex.compile(
    r"\W*+(?:(?:and|or|but|so|because|since|then|also|plus|now)\s++)*+"
    r"(?:if|when|whenever|without)\b",
    regex.IGNORECASE,
)
_JOINED_CONDITION = regex.compile(r"\b(?:and|or|but)\s++(?:if|when|whenever)\b", regex.IGNORECASE)


def consequence_start(masked: str, start: int) -> int:
    """Where the comma-less consequence of a condition opens before `start` (the start of a
    match in it), or -1: the match's clause opens on a condition (or one opens after "and",
    "or", "but" in it) and a subject opens after the condition's object (above), at the
    latest on the match's first word. One search over the clause up to the match."""
    clause_start = start_of_clause(masked, start)
    if _CONDITION_OPENS.match(masked, clause_start) is None:
        joined = [found.end() for found in _JOINED_CONDITION.finditer(masked, clause_start, start)]
        if not joined:
            return -1
        clause_start = joined[-1]
    # Round 36: searched a few characters past the match's start, whose look-aheads read the
    # words that open the match ("... reset it the tape ...", the match on "the tape": up to its
    # start, no look-ahead could see them). An opener that runs into the match (the match takes
    # the condition's object: "without it the tape doesn't see ..." read from "it") opens the
    # consequence at the match's start: the condition's denial denies its verb, outside the match.
    last, past = -1, min(len(masked), start + _AHEAD)
    for found in _CONSEQUENCE_OPENS.finditer(masked, clause_start, past):
        if found.start() <= start:
            last = min(found.end(), start)
    return last


def in_open_condition(masked: str, start: int, end: int, written: str = "") -> bool:
    """Whether a match lies inside an open if-clause with a consequence, affirmed as
    written: "if you pass model.variables instead, the frozen layers get trained" reasons
    from the condition; it does not recommend it. A denied action there ("if you don't
    reset them, ...") says the action is needed (`in_open_negated_condition`)."""
    clause_start = start_of_clause(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    clause_end = end_of_clause(masked, end)
    if clause_end < end or in_counterfactual_condition(masked, start, end, written):
        return False
    cues = CUE.findall(masked, clause_start, clause_end)
    comma = _COMMA.search(masked, clause_start)
    alternative = _ALTERNATIVE.search(masked, clause_start, comma.start() if comma else len(masked))
    consequence = _consequence(masked, end, clause_end)
    if cues or consequence is None:
        return False
    if alternative is not None:
        return True
    if _INLINE_CONSEQUENCE.search(masked, clause_start, end):
        return False  # the match runs into the consequence ("if you passed X it'd work")
    return _warns(consequence)


def _consequence(masked: str, end: int, clause_end: int) -> str | None:
    """What follows an if-clause that ends at `clause_end` (None when nothing does): the
    rest of the sentence, or, where no mark ends the condition, from its consequence's
    subject on ("if you call it after the block I think you'd get None"; round 9)."""
    if clause_end < len(masked.rstrip(" .!?")):
        return masked[clause_end:]
    inline = _INLINE_CONSEQUENCE.search(masked, end)
    return masked[inline.start() :] if inline is not None else None


def _warns(consequence: str) -> bool:
    """Whether a consequence says the condition goes wrong (None, an error, nothing learnt),
    not denied ("without any error")."""
    return any(
        _UNDENIED.search(consequence[: failure.start()]) is None
        for failure in _FAILURE.finditer(consequence)
    )


_COMMA = re.compile(r"[,;:]")
# The consequence of an open condition that says the condition goes wrong: "if the inner
# gradient is computed outside the outer tape, the outer tape returns None" warns against
# it; it does not recommend it (round 9).
_FAILURE = re.compile(
    r"\bNone\b|\berrors?\b|\braises?\b|\bthrows?\b|\bfails?\b|\bcrash\w*|\bbreaks?\b"
    r"|(?:n't|\bnot)\s+(?:work|see|learn|train|record)\w*",
    re.IGNORECASE,
)
_UNDENIED = re.compile(r"\b(?:without|no|not|never)\s+(?:any\s+|an\s+|a\s+)?$", re.IGNORECASE)
_INLINE_CONSEQUENCE = re.compile(
    r"\b(?:you|it|they|tf|tensorflow)(?:'d|'ll|\s+(?:would|will|get|gets))\b", re.IGNORECASE
)
# The condition names the wrong choice as an alternative: "if you pass model.variables
# instead", "if you accidentally compute it outside".
_ALTERNATIVE = re.compile(
    r"\binstead\b|\b(?:by\s+mistake|by\s+accident|accidentally|mistakenly|wrongly)\b",
    re.IGNORECASE,
)


# Round 17: a claim of sameness or of no effect limited to models that lack a component
# ("if the model has no BatchNorm and no frozen layers, both lists are the same", "for models
# without Dropout or BatchNorm the flag changes nothing") is true in that scope; the tell is
# the claim without it. Only a lack in the model's make-up limits, and only such a claim: a
# mechanism stays stated ("for models without Dropout, training=True is what makes the tape
# record"), and so does a condition on what the learner does ("if you don't call zero_grad,
# the gradients pile up").
_LACKING_MODEL = re.compile(
    r"\b(?:(?:if|when|whenever)\s+(?:the|your|a|an|this|that|our)?\s*(?:model|network|net"
    r"|architecture)s?\s+(?:(?:has|have|contains?|includes?|uses?)\s+(?:no|neither)"
    r"|(?:doesn't|does\s+not|don't|do\s+not|lacks?)\s*(?:have|contain|include|use)?)"
    r"|for\s+(?:a\s+|any\s+|the\s+)?(?:models?|networks?|nets?)\s+(?:without|with\s+no)"
    r")\b[^;:.!?]*$",
    re.IGNORECASE,
)
_NO_DIFFERENCE = re.compile(
    r"\b(?:same|identical|equal|equivalent|irrelevant|harmless|no\s+difference|no\s+effect"
    r"|nothing|(?:doesn't|does\s+not|won't|will\s+not)\s+matter)\b",
    re.IGNORECASE,
)


def in_scope_of_lack(masked: str, start: int, end: int) -> bool:
    """Whether a claim of sameness or no effect follows, in its sentence, a condition that
    the model lacks a component: it holds for such models only, and names no tell."""
    if _LACKING_MODEL.search(masked, 0, start) is None:
        return False
    clause = masked[start_of_clause(masked, start) : end_of_clause(masked, end)]
    return _NO_DIFFERENCE.search(clause) is not None
