"""Where one statement ends inside a phrasing's match: the match is dropped when it runs
from one statement into the next.

A phrasing's gaps (` ~ `) cross commas and clause words, so "tape.gradient computes
gradients, apply_gradients updates the variables" would read "tape.gradient ... updates
the variables". A match that runs across a clause boundary into a new subject, a clause
with its own subject and copula, a parallel clause, or out of a denied clause is no
statement; it is searched again from the boundary. Split out of matching.py (round 18),
which finds the matches and reads their polarity.
"""

from __future__ import annotations

import re

from app.grading.freetext.budget import BoundedPattern, PhrasingMatch
from app.grading.freetext.hinglish import alternation, glossed_as
from app.grading.freetext.phrasings import CUE, TERMINATOR, start_of_clause
from app.grading.freetext.polarity import REPORTED_FALSE
from app.grading.freetext.subjects import only_next_subject

_NEW_SUBJECT = re.compile(
    r"\s*(?:(?:once|when|after|before|if|as\s+soon\s+as|in)\s+)?(?:the\s+)?(?:apply_gradients|optimizer|tape\.gradient|tensorflow|tf|pytorch|torch|keras"
    r"|you|we|i)\b"
    # round 9: a short adverbial before the subject ("so after the outer block you call")
    r"|\s*(?:(?:then|now)\s+)?(?:once|when|after|before|outside|inside|at\s+the\s+end|later)\b"
    r"(?:\s+[\w.()]+){1,4}\s+(?:you|we|i)\b"
    # round 17: "..., and then apply_gradients updates the weights": a named step with a verb
    # of its own after "and then" ("and then tape.gradient(g, x) for the second derivative"
    # has none: the verb before "and" goes on)
    r"|(?<=\band\s)(?:then|afterwards|next|finally|later)\s*,?\s+(?:the\s+)?"
    r"(?:apply_gradients|optimizer|tape\.gradient)(?:\(x*\))?\s+(?:\w+ly\s+)?"
    r"(?:updates?|changes?|appl(?:y|ies)|modif(?:y|ies)|assigns?|writes?|moves?|steps?|does"
    r"|is|will|can|computes?|returns?|gives?|takes?|uses?)\b",
    re.IGNORECASE,
)
# A noun that is the object of "with" ("each with its own tape, sum the gradients") is no
# subject for what follows the clause (round 6).
_WITH_OBJECT = re.compile(
    r"\bwith\s+(?:(?:its|their|a|an|the|one|his|her|your)\s+)?(?:own\s+)?$"
    # round 9: "each under its own tape so the activations are freed, sum the gradients"
    r"|\b(?:under|using|in|inside)\s+(?:its|their|his|her|your|a|an)\s+(?:own\s+|separate\s+|new\s+|fresh\s+)?$",
    re.I,
)
# "Once both blocks are closed, you call ...": the subject of the main clause comes after a
# subordinate clause, so a phrasing that starts there may run into it.
_SUBORDINATE = re.compile(r"(?:once|after|when|before|as soon as)\b", re.IGNORECASE)


def _new_subject_inside(masked: str, start: int, end: int) -> int | None:
    """End of a terminator inside the span that a new subject follows, if any.

    "tape.gradient computes gradients, apply_gradients updates the variables" holds two
    statements; a phrasing must not take its subject from the first and its verb from
    the second. Pronouns are left alone: they usually point back at the same subject.
    """
    for term in TERMINATOR.finditer(masked, start, end):
        if term.start() > start and (
            _NEW_SUBJECT.match(masked, term.end())
            or _opens_own_clause(masked, term)
            or _repeats_subject(masked, start, term)
            or _denied_before(masked, start, term)
            or _CONSEQUENCE.fullmatch(term.group())
            or (term.group() == ";" and only_next_subject(masked, term.end(), end))
        ):
            return term.end()
    denying = _DENYING_SUBJECT.search(masked, start + 1, end)
    return denying.end() if denying is not None else None


# Round 47: "and" before a denying subject ("nothing", "nobody") joins a statement of its own:
# "the variables have no gradient attribute and nothing accumulates between calls" must not
# read "gradient ... accumulates between calls" (the "no" and the "nothing" deny two clauses,
# they do not undo each other); not "and nothing else", the end of an object. Not a clause
# terminator (phrasings.py): a claim's roles still read across it.
_DENYING_SUBJECT = re.compile(
    r"\band\s+(?=(?:nothing|nobody)\b(?!\s+(?:else|more|less|but|except|other)\b))",
    re.IGNORECASE,
)


# Round 14: after ";" a clause with a subject and verb of its own is a statement of its
# own: "the speedup is largest for small models; it is small for big models", "tape.gradient
# only reads; the update of each weight is apply_gradients' job", "open two tapes, one per
# loss; each tape is used once". A phrasing must not take its first words from the clause
# before the ";" and its last from this one. Only a copula marks it ("it is", "each tape
# is"): a clause that goes on with a verb ("...; it changes the variables", "...; it will
# add them up") keeps the subject before it (round 8: ";" joins clauses).
# Round 46: the head may take one prepositional phrase of its own ("the activations of all
# 256 samples are kept", five words after "the"): a head of four words at most, then one;
# a hyphenated word is one word ("the activations of every micro-batch are kept").
_WORD = r"\s+[\w.()]+(?:-[\w.()]+)*"
_DETERMINED = (
    rf"(?:the|each|every|a|an|both|all|its|their|his|her|your|our|my)(?:{_WORD}){{1,4}}?"
    rf"(?:\s+(?:of|for|from|in|on)(?:{_WORD}){{1,4}}?)?"
)
_COPULA = r"(?:'s|\s+(?:is|are|was|were)\b)"
# Round 17: a determiner phrase with a modal is a subject of its own too ("move the loss
# inside the block; the gradient call itself can sit after the block"); a pronoun with one
# still goes on ("...; it will add them up").
_MODAL = r"\s+(?:can|could|may|might|must|should|will|would)\b"
_PRONOUN = r"(?:it|they|he|she|this|these|those|there)"
_OWN_CLAUSE = re.compile(
    rf"\s*(?:(?:{_PRONOUN}|{_DETERMINED}){_COPULA}|{_DETERMINED}{_MODAL})", re.IGNORECASE
)
# Round 15: the same after ",", "->", "=>" and a dash (an em-dash reads as " - "), for a
# subject that is a determiner phrase: "the tape is gone, and its gradients were only ever
# local variables", "watched automatically, the missing piece is that the loss line isn't
# inside the block" are two statements each. A pronoun there goes on with the subject before
# it ("the loss did not - it was computed after the block closed", "apply_gradients is where
# the weights change, and it's always ..."): measured, three labelled answers moved.
_OWN_NOUN_CLAUSE = re.compile(r"\s*(?:(?:and|but)\s+)?" + _DETERMINED + _COPULA, re.IGNORECASE)
_CLAUSE_JOINS = frozenset({",", "->", "=>", "-"})


def _opens_own_clause(masked: str, term: re.Match[str]) -> bool:
    """Whether the terminator joins a clause with a subject and copula of its own."""
    joint = term.group().strip().replace("--", "-")
    if joint == ";":
        return _OWN_CLAUSE.match(masked, term.end()) is not None
    return joint in _CLAUSE_JOINS and _OWN_NOUN_CLAUSE.match(masked, term.end()) is not None


# Round 15: "Layers after it train, layers before it get None grads": after "," a clause
# that opens on the noun its clause before opened on is a parallel statement with a
# subject of its own (a contrast), not the first one going on.
_HEAD = re.compile(r"\s*(?:(?:and|but|while)\s+)?(?:(?:the|all|some|any)\s+)?([a-z_]\w*)", re.I)
_NOT_HEADS = frozenset(
    """it its they them you we i he she this that these those there then so and or but if when
    what which who to in on at for with of as is are was were be""".split()  # noqa: SIM905
)


def _parallel_inside(masked: str, start: int, end: int) -> int | None:
    """End of a "," inside the span that a parallel clause follows, if any."""
    for term in TERMINATOR.finditer(masked, start, end):
        if term.start() > start and _repeats_subject(masked, start, term):
            return term.end()
    return None


def _repeats_subject(masked: str, start: int, term: re.Match[str]) -> bool:
    """Whether the clause after a "," opens on the same noun as the match's clause."""
    lead = start_of_clause(masked, start)
    if term.group() != "," or masked[:lead].rstrip()[-1:] not in ("", ",", ";", ":"):
        return False  # a clause after "while", "because" ... is no parallel main clause
    before, after = _HEAD.match(masked, lead), _HEAD.match(masked, term.end())
    if before is None or after is None or before.end() > term.start():
        return False
    head = before.group(1).lower()
    return (
        head not in _NOT_HEADS
        and head == after.group(1).lower()
        and _COMPARATIVE.fullmatch(head) is None  # "the bigger the model, the bigger the gain"
    )


_COMPARATIVE = re.compile(r"more|less|fewer|\w+er", re.IGNORECASE)


# "Otherwise" opens a new statement: "divide the sum by 4, otherwise the learning rate is
# 4x" must not read "divide ... learning rate ... 4" (round 9). Splitting at "so",
# "therefore", "hence" and "thus" as well was measured and dropped: tells are stated across
# them ("tape.gradient is backprop, so that's where the weights get updated"; tune named
# 860 -> 844).
# Round 27: Hinglish's "warna" is "otherwise" ("sum ko 4 se divide karo, warna learning rate
# 4 guna ho jayega").
_CONSEQUENCE = re.compile("otherwise|" + alternation(glossed_as("otherwise")), re.IGNORECASE)


def _denied_before(masked: str, start: int, term: re.Match[str]) -> bool:
    """Whether a ";" inside a match ends a clause that denies or reports what it says:
    "the tape does not add the new gradients to the old ones; every step starts from
    scratch" must not take its verb from the denied clause and its last words from the next
    one, where no cue is left to read (round 8). Other clauses joined by ";" stay one
    statement ("the inner one records y; inner.gradient(y, x) is computed ...")."""
    if term.group() != ";":
        return False
    lead = start_of_clause(masked, start)
    return bool(
        CUE.search(masked, lead, term.start())
        or REPORTED_FALSE.search(masked, lead, term.start())
        or _VERDICT_INSIDE.search(masked, lead, term.start())
    )


# "the tape records NumPy is false; it sees only TensorFlow ops": the verdict ends the
# statement it judges.
_VERDICT_INSIDE = re.compile(
    r"\b(?:is|are|was)\s+(?:false|wrong|incorrect|untrue|a\s+myth|not\s+true)\b", re.IGNORECASE
)


def statement_matches(
    pattern: BoundedPattern, text: str, masked: str, described: tuple[int, int] | None = None
) -> list[PhrasingMatch]:
    """Every match of a phrasing that stays inside one statement, each read from its
    latest clause start (`_tightest`). `described`: another framework's relative clause and
    where the main clause after it starts (matching.described_clause), a boundary no match
    that starts inside the clause crosses (round 44)."""
    found, position = [], 0
    while (match := pattern.search(text, position)) is not None:
        split = _out_of_described(text, match, described) or _split(text, masked, match)
        if split is None:
            found.append(_tightest(pattern, text, masked, match))
        position = split or max(match.end(), match.start() + 1)
    return found


def _out_of_described(
    text: str, match: PhrasingMatch, described: tuple[int, int] | None
) -> int | None:
    """The main clause's start where a match runs into it from the other framework's
    relative clause before it ("which needs zero_grad every step, the tape returns new
    gradients"); None otherwise."""
    if described is None or not described[0] <= match.start() < described[1]:
        return None
    return described[1] if text[described[1] : match.end()].strip() else None


def _split(text: str, masked: str, match: PhrasingMatch) -> int | None:
    """Where a match runs into a statement of its own (None: it stays one statement)."""
    if "\n" in match.group():
        return None
    if _SUBORDINATE.match(match.group()) is not None:
        return _parallel_inside(masked, *match.span())  # round 15: only a parallel clause
    split = _new_subject_inside(masked, *match.span())
    if split is None and _WITH_OBJECT.search(text, max(0, match.start() - 30), match.start()):
        term = TERMINATOR.search(masked, match.start(), match.end())
        split = term.end() if term is not None else None
    return split


def _tightest(
    pattern: BoundedPattern, text: str, masked: str, match: PhrasingMatch
) -> PhrasingMatch:
    """The same statement matched from the latest clause start inside the match.

    "It's not the variables - trainable variables are watched automatically" matches
    from the first "variables"; judged from there the "not" would deny it.
    """
    for term in reversed(list(TERMINATOR.finditer(masked, match.start() + 1, match.end()))):
        tighter = pattern.search(text, term.end() + _leading_space(text, term.end()))
        if tighter is not None and tighter.start() < match.end():
            return tighter
    return match


def _leading_space(text: str, position: int) -> int:
    return len(text[position:]) - len(text[position:].lstrip())
