"""Claims: a phrasing read as roles that one clause must carry, in any order.

An ordered phrasing ("all ~ gradients ~ None") fits the wordings its author saw; other
people put the same claim in another order ("the gradients will all be None"), in the
passive ("no update should touch them" / "they shouldn't get gradient updates") or with
the subject after the verb. A claim phrasing lists roles separated by ` & `
("(all|every) & gradients? & None"): it is stated when one clause (the matcher's clause
boundaries: punctuation, "but", "because", "and" + a new subject, ...) carries a match of
every role, in any order and without overlap, in the sentence as written or in its lemma
twin. Its polarity is read exactly like an ordered phrasing's over the span from the first
role to the last (negation cues, reported beliefs, myths, conditionals, other frameworks),
so "not all of the gradients are None" denies it. A role written `!(...)` must NOT occur
anywhere in the sentence, since context spans clauses ("take the gradient twice, first
with the inner tape"): "(all|every) & gradients? & None & !(before|upstream)" is the tell
"every gradient is None", not the correct "every variable before h gets None". A role
matches whole words ("all" is not in "allowed"); an excluded role starts at a word's start
("if" is not in "differentiate", round 35) and ends at its word's end, past an
inflection ("del" is not in "delete", round 42). A role written `!!(...)` is an answer guard
(answer_guards.py, round 36): the claim is not read in an answer that states it anywhere; one
written `!+(...)` is an answer requirement (round 54): read only in an answer that speaks of it.
Claims are read in prose only: code states what it does, and a role salad across code
lines is no claim.

Round 8 (issue 14): a clause whose object is "it"/"them" takes its antecedent's role from
the clause before ("numpy converts the array back and the tape can still track it"),
unless a contrast parts them or the clause before denies something - measured on the
personas nobody read (docs/freetext-rounds.md "Round 8: reading a claim across its clause").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from app.grading.freetext.answer_guards import admitted, guard_phrasing, is_guard, is_requirement
from app.grading.freetext.budget import BoundedPattern, deferred_bounded, stopped
from app.grading.freetext.carried_topics import carried_foreign
from app.grading.freetext.hinglish import alternation, glossed_as
from app.grading.freetext.joins import crosses, pronoun_joins
from app.grading.freetext.lemmas import is_base_verb
from app.grading.freetext.matching import (
    Hit,
    asks,
    described_clause,
    find_hits,
    is_foreign,
    layout_of,
    not_own_statement,
    units_that_may_hold,
)
from app.grading.freetext.normalise import Unit
from app.grading.freetext.per_answer import remembered_per_answer
from app.grading.freetext.phrasings import (
    CUE,
    TERMINATOR,
    compile_phrasing,
    denies_past_its_clause,
    mask,
)
from app.grading.freetext.polarity import (
    avoided,
    forget_denied,
    is_affirmed,
    judged_false_alone,
    softly_denied,
)
from app.grading.freetext.purposes import reset_purpose
from app.grading.freetext.quotations import quoted
from app.grading.freetext.subjects import STATEMENT_CONNECTIVE, goes_on_with_verb, holds_verb

CLAIM_SEPARATOR = re.compile(r"\s+&\s+")
# A word set against another by a bare "not" ("the gradient is None (not zero)", "it uses
# None, not 0") is the alternative being ruled out, so it fills no role (round 4).
# Round 9: as is a word right after "rather than" / "instead of" ("None rather than zero").
_CONTRASTED = re.compile(
    r"[(,;:\u2014]\s*not\s+$|\b(?:rather\s+than|instead\s+of)\s+(?:an?\s+|the\s+)?$"
    # round 12: "None (no path, which is different from 0)"
    r"|\b(?:different|distinct)\s+(?:from|to|than)\s+(?:an?\s+|the\s+)?$"
    r"|\b(?:as\s+opposed\s+to|not\s+the\s+same\s+as)\s+(?:an?\s+|the\s+)?$",
    re.IGNORECASE,
)
_NON_PREFIX = re.compile(r"\bnon-?$", re.IGNORECASE)


@lru_cache(maxsize=8192)
def is_claim(pattern: str) -> bool:
    """Whether a phrasing is a claim (roles separated by ` & `); asked for every phrasing
    on every answer, so remembered per phrasing (round 25)."""
    return CLAIM_SEPARATOR.search(pattern) is not None


@dataclass(frozen=True)
class Claim:
    roles: tuple[BoundedPattern, ...]  # each must match in the clause
    excluded: tuple[BoundedPattern, ...]  # none may match in the clause
    written: tuple[str, ...]  # the roles as written (round 36: one_role_hits reads them)
    guards: tuple[str, ...] = ()  # read over the whole answer (answer_guards.py)
    required: tuple[bool, ...] = ()  # per guard: must be spoken of (`!+`), or not stated (`!!`)


def claim_parts(pattern: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A claim's roles and its excluded roles as written (those keep their "!")."""
    parts = CLAIM_SEPARATOR.split(pattern.strip())
    return (
        tuple(p for p in parts if not p.startswith("!")),
        tuple(p for p in parts if p.startswith("!")),
    )


@lru_cache(maxsize=1024)
def parse_claim(pattern: str) -> Claim:
    roles, excluded = claim_parts(pattern)
    return Claim(
        tuple(compile_phrasing(p) for p in roles),
        tuple(from_word_start(p[1:]) for p in excluded if not is_guard(p)),
        roles,
        tuple(guard_phrasing(p) for p in excluded if is_guard(p)),
        tuple(is_requirement(p) for p in excluded if is_guard(p)),
    )


# Round 35: an excluded role starts at a word's start, as a role does (`_whole_words`):
# searched as written, "!(if|when)" was found inside "differentiate" and "!(just)" inside
# "adjust", so a sentence was kept out of a claim by a word it does not have. One that opens
# on a non-word character (`!(\.grad)`) is unaffected.
_WORD_EDGE = r"(?:(?<![^\W_])|(?![^\W_]))"  # no word character on one side
# Round 42: its end is closed too. Open, "!(del)" kept "delete" out of a claim whose own role
# is `delet\w*` and "!(tensors?)" every sentence naming TensorFlow. Rubric authors write
# excluded roles as stems ("!(small|gpu|eager)" keeps out "smaller", "GPUs", "eagerly"; a bare
# `\b` raised three false tells on correct answers, round 35), so the role may take an
# inflection or a compound in -most / -ward(s) ("innermost", "afterwards": the rubrics use them
# as the same word); a role ending on a non-letter ends where it ends (`jacobian\(`), and "_"
# or a digit goes on with it ("inner_tape", "outer2"). Measured: docs/freetext-rounds.md
# "Round 42: an excluded role's closed end (engineer M14)".
EXCLUDED_END = r"(?:(?<![^\W\d_])|(?:s|es|ed|d|ing|er|ers|est|ly|e|most|wards?)?(?![^\W\d_]))"


def from_word_start(excluded: str) -> BoundedPattern:
    """An excluded role read only where it starts at a word's start and ends at its word's
    end (`EXCLUDED_END`). Built from the role as written, not from its compile: the form as
    written is never searched, so compiling it (reading its flags) would compile an
    expression no start-up preload keeps."""
    return compile_phrasing(f"{_WORD_EDGE}(?:{excluded}){EXCLUDED_END}", lexicon=False)


def find_phrasings(
    units: tuple[Unit, ...], patterns: list[str], *, across: bool = False
) -> list[Hit]:
    """Hits of ordered phrasings (the matcher) and of claims (roles in one clause); with
    `across` (reading tells), also those read across a sentence that opens on "it"/"they"
    (`joins.pronoun_joins`), and a sentence that carries another framework's topic from the one
    before is that framework's (`carried_foreign`; a concept it states still earns credit);
    a tell read wholly inside double quotes is mentioned, not stated (`quoted`, round 16).
    A claim whose answer guard the answer states is not read (answer_guards.py, round 36), nor
    one whose answer requirement it never speaks of (round 54)."""
    return list(_phrasing_hits(units, patterns, across))


# Round 40: a tell is named by its first hit that counts (grader._hit_for), yet every phrasing
# of it was read, in every sentence and every pronoun join, before the first was taken: an
# answer that states the tell (benchmarks/freetext_hostile.py's "every rubric phrasing
# written out" states them all) paid for each of its phrasings. `first_hit` reads the same
# hits, one phrasing at a time, and stops at the first one kept: the same hit.
def first_hit(
    units: tuple[Unit, ...],
    patterns: list[str],
    keep: Callable[[Hit], bool],
    *,
    across: bool = False,
) -> Hit | None:
    """The first of `find_phrasings(units, patterns, across=across)` that `keep` takes,
    read no further than it."""
    return next((hit for hit in _phrasing_hits(units, patterns, across) if keep(hit)), None)


def _phrasing_hits(units: tuple[Unit, ...], patterns: list[str], across: bool) -> Iterator[Hit]:
    """`find_phrasings`' hits in its order, read lazily (the sentences carrying another
    framework's topic are found at the first hit: most tells have none, round 25)."""
    patterns = [p for p in patterns if _admitted(units, p)]
    if not across:
        yield from _found_in(units, patterns)
        return
    carried: set[str] | None = None
    for hit in _in_order(units, patterns):
        if quoted(hit.sentence, hit.snippet):
            continue
        if carried is None:
            carried = {units[i].text for i in carried_foreign(units)}
        yield dataclasses.replace(hit, foreign=True) if hit.sentence in carried else hit


def _in_order(units: tuple[Unit, ...], patterns: list[str]) -> Iterator[Hit]:
    """The answer's own sentences' hits, then (budget left) those read across pronoun joins."""
    yield from _found_in(units, patterns)
    if not stopped():
        for joined, parts in pronoun_joins(units):
            yield from (h for h in _found_in((joined,), patterns) if crosses(h, parts))


def _admitted(units: tuple[Unit, ...], pattern: str) -> bool:
    if not is_claim(pattern):
        return True
    claim = parse_claim(pattern)
    return admitted(units, claim.guards, claim.required)


def _found_in(units: tuple[Unit, ...], patterns: list[str]) -> Iterator[Hit]:
    """The ordered phrasings' hits (pattern by pattern, as `find_hits` reads them), then the
    claims' (round 40: one phrasing at a time, so `first_hit` may stop)."""
    for pattern in patterns:
        if not is_claim(pattern):
            yield from find_hits(units, [pattern])
    for pattern in patterns:
        if stopped():  # the answer's budget is spent (budget.py)
            break
        if is_claim(pattern):
            claim = parse_claim(pattern)
            found = find_claim_hits(units, claim)
            if len(claim.roles) == 1:
                found += one_role_hits(units, claim, found)
            yield from found


def one_role_hits(units: tuple[Unit, ...], claim: Claim, found: list[Hit]) -> list[Hit]:
    """Round 34: a claim of one role and excluded ones (`X ~ Y & !(Z)`) is the ordered phrasing
    `X ~ Y` kept out of the sentences that say Z. Read as a claim, its one role had to fit in
    one clause (with the joined one before), so "gamma and beta are learned, via gradients"
    went unread while the same words as a phrasing were read. Its prose sentences with no claim
    hit are read as the phrasing reads them; a sentence saying an excluded role is skipped."""
    (role,) = claim.written
    read = {h.sentence for h in found}
    prose = {u.text: u for u in units if not u.is_code}
    return [
        hit
        for hit in find_hits(units, [role])
        if hit.sentence in prose
        and hit.sentence not in read
        and not _excluded(claim, hit.sentence, prose[hit.sentence].lemmas)
    ]


@remembered_per_answer
def whole_prose(units: tuple[Unit, ...]) -> str:
    return "\n".join(t for u in units if not u.is_code for t in (u.text, u.lemmas) if t)


def find_claim_hits(units: tuple[Unit, ...], claim: Claim) -> list[Hit]:
    """Every clause of the prose that carries all the roles, with its polarity (a clause
    may also take roles from the one before it, `_joined_start`)."""
    whole = whole_prose(units)
    if not all(role.search(whole) for role in claim.roles):
        return []  # one role absent from the whole answer: no clause can carry the claim
    hits: list[Hit] = []
    # Round 38: only the units whose words or lemmas may hold every role (matching.py's
    # `units_that_may_hold`; `carries_roles` asks each of them again)
    required = tuple(choice for role in claim.roles for choice in role.required)
    held = units_that_may_hold(units, layout_of(units), required)
    prose = [(i, units[i]) for i in held if not units[i].is_code and not asks(units[i])]
    for index, unit in prose:
        if stopped():
            break
        following = units[index + 1].text if index + 1 < len(units) else ""
        hits += unit_claims(unit, claim, following)
    return hits


def unit_claims(unit: Unit, claim: Claim, following: str) -> list[Hit]:
    for text in (unit.text, unit.lemmas) if unit.lemmas else (unit.text,):
        if not carries_roles(text, claim):
            continue  # some role nowhere in the sentence: no clause of it carries the claim
        masked = mask(text)
        found = []
        clauses = split_clauses(masked)
        for index, (start, end) in enumerate(clauses):
            if stopped():
                break
            taken = _roles_taken(text, claim.roles, start, end)
            back = _joined_start(text, masked, clauses, index) if taken is None else None
            if back is not None:
                taken = _roles_taken(text, claim.roles, back, end)
                taken = taken if taken is not None and _span(taken)[1] > start else None
            if taken is not None and not _excluded(claim, unit.text, text):
                read = _roles_as_content(masked, taken)
                hit = _claim_hit(unit, text, read, _span(taken), following)
                named = " ".join(role.pattern for role in claim.roles)
                if softly_denied(masked, *_span(taken), named):
                    hit = dataclasses.replace(hit, affirmed=not hit.affirmed)
                if not hit.affirmed and reset_purpose(read, *_span(taken)):
                    hit = dataclasses.replace(hit, affirmed=True)  # round 18, purposes.py
                if avoided(masked, *_span(taken), named):
                    hit = dataclasses.replace(hit, conditional=True)
                found.append(hit)
        if found:  # the lemma twin is read only where the words as written say nothing
            return found
    return []


def carries_roles(text: str, claim: Claim) -> bool:
    """Whether every role matches somewhere in the sentence (round 35: a speed-up only; a
    clause's roles are found by the same `word_edged` search within it, so a sentence
    lacking one has no clause that carries the claim, and masking and splitting it is
    skipped)."""
    return all(word_edged(role).search(text) for role in claim.roles)


# A clause whose subject is a pronoun (", and it updates the weights", ", which records the
# ops") takes its antecedent from the clause before it. Read from the end of that clause,
# so the terminator itself ("and", "which") counts. So does a consequence of it ("call
# tape.jacobian(y, x) and you get the second derivative", round 4): what you get is what
# the clause before gives. Round 52: so does "that" as a subject ("..., so that's where the
# old gradients end up", "that is", "that was", "that means"), as "this" does; not the
# conjunction ("so that you can ...", `_PURPOSE`; "and that the tape ...") nor "that's why"
# (STATEMENT_CONNECTIVE).
_PRONOUN_SUBJECT = re.compile(
    r"[\s,;:]*(?:(?:and|then|so|also|like|but|because|since)\s+)*(?:it|they|which|this|these|those"
    r"|that(?='s|\s+(?:is|was|means)\b)"
    r"|you(?:'ll|\s+will)?\s+(?:get|obtain|end\s+up\s+with))\b"
    rf"(?!{STATEMENT_CONNECTIVE})",  # round 37: ", which is why you ..." has its own subject
    re.IGNORECASE,
)
# Round 31: a cause whose subject is a pronoun ("The loss isn't connected to the weights
# because it's computed outside the block") states it of the clause before's subject; an
# adverb alone between ("..., usually because it ...") is no clause to take it from.
_ADVERB_ALONE = re.compile(
    r"[\s,;:]*(?:most\s+)?(?:[a-z]{2,}ly|often|mostly|again|maybe|perhaps)[\s,;:]*", re.IGNORECASE
)
# Round 17: a purpose clause ("make the tape persistent so you can call gradient twice",
# "use persistent=True, so that you can ...") says what the clause before it is for: the
# two are one statement.
_PURPOSE = re.compile(
    r"[\s,;:]*so\s+(?:that\s+)?(?:you|we|it|they)\s+(?:can|could|are\s+able\s+to)\b",
    re.IGNORECASE,
)


# A clause whose object is a pronoun ("... and the tape can still track it") takes its
# antecedent from the clause before (round 8), unless a contrast parts the two clauses or
# the clause before denies something ("x is a constant rather than a Variable, so watch
# it": the denied word is no antecedent to assert).
_PRONOUN_OBJECT = re.compile(r"(?<=\w)\s+(?:it|them)\b", re.IGNORECASE)
_CONTRAST = re.compile(
    r"\b(?:but|however|whereas|although|though|while|unless|otherwise|yet|instead"
    r"|" + alternation(glossed_as("but", "whereas", "otherwise")) + r")\b",  # round 27: Hinglish
    re.IGNORECASE,
)


# An instruction and what follows from it, joined by "and" ("Pass X and the None gradients
# are fixed", "Set X and the problem is solved"): the result clause states what the
# instruction does, so it may take roles from it, like "... and you get ..." (round 12). The
# instruction is the sentence's first clause and opens with a verb in its base form.
_RESULT_AFTER = re.compile(r"\s*and\s+(?:the|your|that|this|these|those)\b", re.IGNORECASE)
_INSTRUCTION = re.compile(
    r"\s*(?:(?:just|simply|then|now|also|first)\s+)?([A-Za-z]+)\b", re.IGNORECASE
)


# Round 53 (issue 14): a clause after a colon that is a bare noun phrase, no verb of its own,
# names what the statement before the colon is about ("The kind of model where the gain is
# largest: the model with the most parameters", "So the equivalent is a reset: tape.reset()"):
# the two are one statement, so the phrase may fill the claim's roles beside the clause's. Not
# after a clause with no verb of its own either ("biggest gain: small or op-heavy models", a
# note, is read as before), nor for an instruction after the colon ("...: call tape.reset()"),
# nor at a colon with no space after it ("WARNING:tensorflow:", "kernel:0"). Measured:
# docs/freetext-rounds.md "Round 53: matcher causes left by round 52 (engineer W11)".
_COLON = re.compile(r":(?=\s)")


def _elaborates(masked: str, before_start: int, before_end: int, end: int) -> bool:
    """Whether the clause from `before_end` to `end` is a verbless noun phrase after a colon
    that ends a clause with a verb."""
    if _COLON.match(masked, before_end) is None:
        return False
    start = before_end + 1
    if _is_instruction(masked, start) or holds_verb(masked, start, end):
        return False
    return _is_instruction(masked, before_start) or holds_verb(masked, before_start, before_end)


def _is_instruction(text: str, start: int) -> bool:
    match = _INSTRUCTION.match(text, start)
    if match is None:
        return False
    return is_base_verb(match.group(1).lower())


# A sentence that opens with a short prepositional phrase and a comma ("From one forward
# pass, TensorFlow only gives the sum", "On a GPU, the gain is small") states one claim:
# the phrase is where or when the main clause holds, not a statement of its own (round 13).
# Round 33: a fronted clause of time too ("When you call apply_gradients, the gradients are
# reset", "Once apply_gradients runs, ..."): it says when the main clause holds, as "After
# apply_gradients, ..." does; it is no condition the speaker reasons from.
_FRONTED = re.compile(
    r"\s*(?:from|in|on|with|for|after|before|during|inside|within|at|by|under|over|across"
    r"|per|via|through|when|whenever|once|as\s+soon\s+as)\s+[^\s]+(?:\s+[^\s]+){0,4}\s*$",
    re.IGNORECASE,
)


def _is_fronted_phrase(masked: str, start: int, end: int) -> bool:
    phrase = masked[start:end]
    return _FRONTED.match(phrase) is not None and CUE.search(phrase) is None


def _joined_start(text: str, masked: str, clauses: list[tuple[int, int]], index: int) -> int | None:
    """Where clause `index` may also take roles from (`_joined_to_before`); round 33: a
    clause joined to the main clause after a fronted phrase takes the phrase too ("When you
    call apply_gradients, the gradients are used, and then reset": the third clause goes on
    with the second's subject, and both hold when the first says). Round 44: the main clause
    after another framework's relative clause (matching.described_clause) takes nothing from
    it ("Unlike torch's optimizer, which you zero every step, the tape hands them back fresh")."""
    back = _joined_to_before(text, masked, clauses, index)
    if index == 2 and back == clauses[1][0] and _fronted(masked, clauses[0]):
        return clauses[0][0]
    described = described_clause(text)  # round 44: no roles from another framework's clause
    if back is not None and described and described[0] <= back < described[1] <= clauses[index][0]:
        return None
    return back


def _fronted(masked: str, clause: tuple[int, int]) -> bool:
    """A fronted phrase, or (round 39) a fronted "while" clause ("While the outer tape is
    still open, the inner tape computes dy/dx, and it logs the backward pass")."""
    return (
        _is_fronted_phrase(masked, *clause)
        or _WHILE_OPENS.fullmatch(masked, 0, clause[0]) is not None
    )


_WHILE_OPENS = re.compile(r"\s*while\s*", re.IGNORECASE)


def _joined_to_before(
    text: str, masked: str, clauses: list[tuple[int, int]], index: int
) -> int | None:
    """Where clause `index` may also take roles from: the start of the clause before it
    when its subject or its object is a pronoun, or when it is the result of an instruction;
    None when only from its own words."""
    if not index:
        return None
    before_start, before_end = clauses[index - 1]
    start, end = clauses[index]
    if _PRONOUN_SUBJECT.match(text, before_end) or _PURPOSE.match(text, before_end):
        if index > 1 and _ADVERB_ALONE.fullmatch(masked, before_start, before_end):
            return clauses[index - 2][0]  # "X, usually because it ..." (round 31)
        return before_start
    if goes_on_with_verb(text, before_end):
        return before_start
    if _elaborates(masked, before_start, before_end, end):
        return before_start
    if index == 1 and _RESULT_AFTER.match(text, before_end) and _is_instruction(text, before_start):
        return before_start
    if index == 1 and _is_fronted_phrase(masked, before_start, before_end):
        return before_start
    if (
        _PRONOUN_OBJECT.search(text, start, end)
        and not _CONTRAST.search(masked, before_end, start)
        and not denies_past_its_clause(masked, before_start, before_end)  # round 50
    ):
        return before_start
    return None


def _excluded(claim: Claim, written: str, read: str) -> bool:
    """Whether an excluded role occurs in the sentence, as written or in its lemma twin
    ("used to" is history; its twin "use to" is not)."""
    return any(x.search(written) or x.search(read) for x in claim.excluded)


def split_clauses(masked: str) -> list[tuple[int, int]]:
    """The (start, end) of each clause of a masked sentence, split at its terminators."""
    bounds = [0]
    for term in TERMINATOR.finditer(masked):
        bounds += [term.start(), term.end()]
    bounds.append(len(masked))
    pairs = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds) - 1, 2)]
    return [(a, b) for a, b in pairs if masked[a:b].strip()]  # ", and it": no empty clause


def _span(taken: list[tuple[int, int]]) -> tuple[int, int]:
    """From the first role to the last."""
    return min(a for a, _ in taken), max(b for _, b in taken)


_CUE_ROLE = re.compile(r"(?:without|no|never|nothing|unlike|instead\s+of)\W*", re.IGNORECASE)


def _roles_as_content(masked: str, taken: list[tuple[int, int]]) -> str:
    """A role that is itself a negation word ("(omit|without) & (breaks|matters)") is what
    the claim says, not a denial of it (round 6: "trained without dropout and with a broken
    normalisation" stated "leaving the flag out breaks nothing"): blanked for polarity."""
    for a, b in taken:
        if _CUE_ROLE.fullmatch(masked, a, b):
            masked = masked[:a] + "x" * (b - a) + masked[b:]
    return masked


def _roles_taken(
    text: str, roles: tuple[BoundedPattern, ...], start: int, end: int
) -> list[tuple[int, int]] | None:
    """Each role's match when every role matches in the clause, each on words no other role
    took; None otherwise."""
    taken: list[tuple[int, int]] = []
    for role in roles:
        span = _role_span(text, role, start, end, taken)
        if span is None:
            return None
        taken.append(span)
    return taken


def _role_span(
    text: str, role: BoundedPattern, start: int, end: int, taken: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """The role's first match in the clause on whole words that no span in `taken` holds, not
    after a "non-" prefix and not the alternative a contrast rules out (`_CONTRASTED`)."""
    return next(
        (
            m.span()
            for m in word_edged(role).finditer(text, start, end)
            if m.end() > m.start()
            and _whole_words(text, *m.span())
            and not any(m.start() < b and a < m.end() for a, b in taken)
            and not _NON_PREFIX.search(text[max(start, m.start() - 4) : m.start()])
            and not _CONTRASTED.search(text[max(start, m.start() - 16) : m.start()])
        ),
        None,
    )


RoleSpans = tuple[tuple[int, int] | None, ...]


def clause_role_spans(text: str, claim: Claim) -> list[tuple[tuple[int, int], RoleSpans]]:
    """Round 49 (issue 14): where each role matched, clause by clause - each clause's (start,
    end) in `text` and, per role in the claim's order, its span or None where it does not match
    there (roles taken in order, each on words no role before it took, as `_roles_taken` reads
    them). A clause where all roles but one match is a near-miss of the claim
    (benchmarks/freetext_role_synonyms.py learns what stands in the missing role's place).
    Roles only: polarity and excluded roles are not read here. Linear in the sentence's length
    (one bounded search per role per clause)."""
    out: list[tuple[tuple[int, int], RoleSpans]] = []
    for start, end in split_clauses(mask(text)):
        taken: list[tuple[int, int]] = []
        spans: list[tuple[int, int] | None] = []
        for role in claim.roles:
            span = _role_span(text, role, start, end, taken)
            spans.append(span)
            if span is not None:
                taken.append(span)
        out.append(((start, end), tuple(spans)))
    return out


@lru_cache(maxsize=4096)
def word_edged(role: BoundedPattern) -> BoundedPattern:
    """The role made to end at a word edge, so that an alternative which stops inside a
    word backtracks to a longer one: `(records?|record\\w*)` reads "recorded" (round 8;
    `_whole_words` rejected the first, shorter match and the role went unread). Compiled at
    its first search that runs (round 29)."""
    return deferred_bounded(f"(?:{role.pattern}){_WORD_EDGE}", role.flags)


def _whole_words(text: str, start: int, end: int) -> bool:
    """Whether a role's match starts and ends at word edges: "all" is not in "allowed"
    (a role that takes any ending says so: `updat\\w*`)."""
    inside_left = start > 0 and text[start - 1].isalnum() and text[start].isalnum()
    inside_right = end < len(text) and text[end - 1].isalnum() and text[end].isalnum()
    return not (inside_left or inside_right)


def _claim_hit(unit: Unit, text: str, masked: str, span: tuple[int, int], following: str) -> Hit:
    start, end = span
    written = mask(unit.text)
    affirmed = (
        is_affirmed(masked, start, end, written)
        != judged_false_alone(masked, start, end, following)
    ) != forget_denied(text, start)
    foreign = is_foreign(text, masked, start, end)
    conditional = not_own_statement(text, masked, start, end, written)
    return Hit(text[start:end], unit.text, affirmed, foreign, conditional)
