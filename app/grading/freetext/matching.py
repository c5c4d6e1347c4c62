"""Find rubric phrasings in an answer: each match a hit, with its polarity and its topic.

A phrasing is searched in each sentence as written and, failing that, in its lemma twin; a
match must stay inside one statement (it is dropped where it runs into a new subject), and
a direct question states nothing. Statements about another framework ("in PyTorch you call
zero_grad") are attributed to it, not to the candidate's model of TensorFlow. Whether a
match is affirmed or denied is read by polarity.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from app.grading.freetext.conditions import (
    in_counterfactual_consequence,
    in_open_condition,
    in_scope_of_lack,
)
from app.grading.freetext.normalise import Unit
from app.grading.freetext.phrasings import (
    _CUE,
    _TERMINATOR,
    _clause_end,
    _clause_start,
    _mask,
    compile_phrasing,
)
from app.grading.freetext.polarity import (
    _REPORTED_FALSE,
    avoided,
    denial_left_behind,
    forget_denied,
    is_affirmed,
    judged_false_alone,
    reported_or_qualified,
    softly_denied,
)
from app.grading.freetext.subjects import object_of_verb

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
_FOREIGN = re.compile(
    r"\b(?:pytorch|torch|jax|flax|optax|haiku|other\s+frameworks?|chainer|mxnet)\b", re.I
)
# "Like PyTorch", "unlike PyTorch", "compared to PyTorch": a comparison with TensorFlow.
# "Analogous to retain_graph=False in PyTorch" too (round 9).
_COMPARED = re.compile(
    r"\b(?:un)?like\s+(?:in\s+)?$|\b(?:un)?like\s+(?:[\w.()]+\s+){1,3}in\s+$|\bas\s+in\s+$"
    r"|\b(?:analogous|akin|similar|equivalent)\s+to\s+(?:[\w.()=]+\s+){1,3}in\s+$"
    r"|\bsame\s+as\s+(?:in\s+)?$"
    r"|\bsimilar\s+to\s+$|\b(?:compared|contrast)\s+(?:to|with)\s+$|\bthan\s+(?:in\s+)?$"
    r"|\b(?:vs\.?|versus)\s+$",
    re.IGNORECASE,
)
_OTHER_API = re.compile(
    r"\b(?:pytorch|torch|jax|optax|flax)\b|\.grad\b|\bbackward\(|\bvalue_and_grad\b", re.IGNORECASE
)
_OWN = re.compile(r"\b(?:tensorflow|tf|keras|GradientTape)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Hit:
    """One phrasing found: the sentence it was in, the matched words, and its polarity."""

    snippet: str
    sentence: str
    affirmed: bool
    foreign: bool  # said about another framework, not about TensorFlow
    # Inside an open if-clause that has a consequence ("if you pass model.variables
    # instead, the frozen layers ..."): a hypothesis the sentence reasons from, not a claim.
    # It still credits a concept; it names no tell (round 6).
    conditional: bool = False
    # The match stops inside an identifier in a call's arguments ("first" of
    # `f(first_grad)`): the word written is another one. It still credits a concept; it
    # names no tell (round 11).
    partial_word: bool = False


def _is_foreign(sentence: str, masked: str, start: int, end: int) -> bool:
    """Whether the statement is about another framework rather than TensorFlow.

    The framework named in the match's own clause decides; failing that, the one named
    nearest to it in the sentence before it ("In PyTorch, you ...", "PyTorch is different:
    it ..."), or after it in a phrase that scopes it ("..., at least in PyTorch"). A
    framework named later in another role ("the optimizer clears them, so PyTorch users
    are surprised") sets no topic for the statement before it (round 8). "Like PyTorch"
    and "unlike PyTorch" compare with TensorFlow, so they count as statements about
    TensorFlow.
    """
    mentions = _mentions(sentence)
    if not any(foreign for _, foreign in mentions):
        return False
    clause_end = _clause_end(masked, end)
    clause = [f for pos, f in mentions if _clause_start(masked, start) <= pos < clause_end]
    if clause:
        return all(clause)
    topics = [
        m for m in mentions if m[0] < start or _SCOPE.search(sentence, max(0, m[0] - 16), m[0])
    ]
    if not topics:
        return False
    nearest = min(topics, key=lambda m: min(abs(m[0] - start), abs(m[0] - end)))
    return nearest[1]


# "in PyTorch", "for torch", "with JAX", "using optax": a later mention that scopes the
# statement before it.
_SCOPE = re.compile(r"\b(?:in|for|with|on|under|using)\s+(?:the\s+)?$", re.IGNORECASE)


def _mentions(sentence: str) -> list[tuple[int, bool]]:
    """(position, is-foreign) of each framework named in the sentence."""
    found = [(m.start(), False) for m in _OWN.finditer(sentence)]
    for m in _FOREIGN.finditer(sentence):
        compared = _COMPARED.search(sentence[max(0, m.start() - 40) : m.start()])
        described = _WHERE.match(sentence, m.end()) is not None
        found.append((m.start(), compared is None or described))
    return found


# "Unlike PyTorch, where gradients accumulate into .grad, ...": the relative clause is about
# the framework compared with, not TensorFlow (round 11).
_WHERE = re.compile(r"\s*,?\s*(?:where|in\s+which)\b", re.IGNORECASE)


def names_other_framework(snippet: str) -> bool:
    """Whether matched words name PyTorch or its API (a phrasing about the contrast)."""
    return _OTHER_API.search(snippet) is not None


def _new_subject_inside(masked: str, start: int, end: int) -> int | None:
    """End of a terminator inside the span that a new subject follows, if any.

    "tape.gradient computes gradients, apply_gradients updates the variables" holds two
    statements; a phrasing must not take its subject from the first and its verb from
    the second. Pronouns are left alone: they usually point back at the same subject.
    """
    for term in _TERMINATOR.finditer(masked, start, end):
        if term.start() > start and (
            _NEW_SUBJECT.match(masked, term.end())
            or _opens_own_clause(masked, term)
            or _repeats_subject(masked, start, term)
            or _denied_before(masked, start, term)
            or _CONSEQUENCE.fullmatch(term.group())
        ):
            return term.end()
    return None


# Round 14: after ";" a clause with a subject and verb of its own is a statement of its
# own: "the speedup is largest for small models; it is small for big models", "tape.gradient
# only reads; the update of each weight is apply_gradients' job", "open two tapes, one per
# loss; each tape is used once". A phrasing must not take its first words from the clause
# before the ";" and its last from this one. Only a copula marks it ("it is", "each tape
# is"): a clause that goes on with a verb ("...; it changes the variables", "...; it will
# add them up") keeps the subject before it (round 8: ";" joins clauses).
_DETERMINED = r"(?:the|each|every|a|an|both|all|its|their|his|her|your|our|my)(?:\s+[\w.()]+){1,4}?"
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
    for term in _TERMINATOR.finditer(masked, start, end):
        if term.start() > start and _repeats_subject(masked, start, term):
            return term.end()
    return None


def _repeats_subject(masked: str, start: int, term: re.Match[str]) -> bool:
    """Whether the clause after a "," opens on the same noun as the match's clause."""
    lead = _clause_start(masked, start)
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
_CONSEQUENCE = re.compile(r"otherwise", re.IGNORECASE)


def _denied_before(masked: str, start: int, term: re.Match[str]) -> bool:
    """Whether a ";" inside a match ends a clause that denies or reports what it says:
    "the tape does not add the new gradients to the old ones; every step starts from
    scratch" must not take its verb from the denied clause and its last words from the next
    one, where no cue is left to read (round 8). Other clauses joined by ";" stay one
    statement ("the inner one records y; inner.gradient(y, x) is computed ...")."""
    if term.group() != ";":
        return False
    lead = _clause_start(masked, start)
    return bool(
        _CUE.search(masked, lead, term.start())
        or _REPORTED_FALSE.search(masked, lead, term.start())
        or _VERDICT_INSIDE.search(masked, lead, term.start())
    )


# "the tape records NumPy is false; it sees only TensorFlow ops": the verdict ends the
# statement it judges.
_VERDICT_INSIDE = re.compile(
    r"\b(?:is|are|was)\s+(?:false|wrong|incorrect|untrue|a\s+myth|not\s+true)\b", re.IGNORECASE
)


def _matches(pattern: re.Pattern[str], text: str, masked: str) -> list[re.Match[str]]:
    found, position = [], 0
    while (match := pattern.search(text, position)) is not None:
        split = _split(text, masked, match)
        if split is None:
            found.append(_tightest(pattern, text, masked, match))
        position = split or max(match.end(), match.start() + 1)
    return found


def _split(text: str, masked: str, match: re.Match[str]) -> int | None:
    """Where a match runs into a statement of its own (None: it stays one statement)."""
    if "\n" in match.group():
        return None
    if _SUBORDINATE.match(match.group()) is not None:
        return _parallel_inside(masked, *match.span())  # round 15: only a parallel clause
    split = _new_subject_inside(masked, *match.span())
    if split is None and _WITH_OBJECT.search(text, max(0, match.start() - 30), match.start()):
        term = _TERMINATOR.search(masked, match.start(), match.end())
        split = term.end() if term is not None else None
    return split


def _inside_argument(text: str, masked: str, end: int) -> bool:
    """Whether a match stops inside an identifier among a call's arguments: "call
    outer.gradient ~ first" is not stated by "outer.gradient(first_grad, x)" - the argument
    is `first_grad`, not the word "first" (round 11). A phrasing may still spell the start
    of an identifier in prose ("you call dy" of "you call dy_dx = ...")."""
    return (
        0 < end < len(text) - 1
        and text[end] == "_"
        and text[end - 1].isalnum()
        and masked[end] != text[end]  # call arguments are masked (phrasings.py)
    )


def _tightest(
    pattern: re.Pattern[str], text: str, masked: str, match: re.Match[str]
) -> re.Match[str]:
    """The same statement matched from the latest clause start inside the match.

    "It's not the variables - trainable variables are watched automatically" matches
    from the first "variables"; judged from there the "not" would deny it.
    """
    for term in reversed(list(_TERMINATOR.finditer(masked, match.start() + 1, match.end()))):
        tighter = pattern.search(text, term.end() + _leading_space(text, term.end()))
        if tighter is not None and tighter.start() < match.end():
            return tighter
    return match


def _leading_space(text: str, position: int) -> int:
    return len(text[position:]) - len(text[position:].lstrip())


def find_hits(units: tuple[Unit, ...], patterns: list[str]) -> list[Hit]:
    """Every match of any phrasing in every unit, with its polarity."""
    hits = []
    whole = _whole(units)
    for pattern in patterns:
        compiled = compile_phrasing(pattern)
        if _ANCHORED.search(pattern) is None and compiled.search(whole) is None:
            continue  # one search over the whole answer rules most phrasings out
        for index, unit in enumerate(units):
            following = units[index + 1].text if index + 1 < len(units) else ""
            hits += _unit_hits(unit, compiled, following)
    return hits


_ANCHORED = re.compile(r"(?<!\\)[$^]")


@lru_cache(maxsize=64)
def _whole(units: tuple[Unit, ...]) -> str:
    """All units and their lemma twins, one per line (a phrasing never spans a line)."""
    return "\n".join(text for u in units for text in (u.text, u.lemmas) if text)


# A direct question asks; it states nothing ("Do you need zero_grad before each step?",
# "Where should you call zero_grad?"). A hedge with a question mark ("tf.hessians maybe?")
# does not open with an interrogative word and stays a statement.
_QUESTION = re.compile(
    r"^\W*(?:(?:so|and|but|well|ok|okay|now|then|um+|uh+|hmm+)\W+)*(?:do|does|did|is|are|was"
    r"|were|can|could|should|would|will|shall|must|has|have|where|what|why|how|which|who"
    r"|when\s+(?:do|does|did|is|are|should|would|can|will)"
    r"|isn't|aren't|doesn't|don't|didn't|shouldn't|wouldn't|can't|won't)\b[^?]*\?[\s\"')]*$",
    re.IGNORECASE,
)
# "I think you call tape.reset()?" is a hedged statement, not a question.
_HEDGE = re.compile(r"\b(?:i\s+(?:think|guess|believe|suppose)|maybe|probably)\b", re.IGNORECASE)


def asks(unit: Unit) -> bool:
    """Whether a prose unit is a direct question, which states no claim either way."""
    if unit.is_code or _QUESTION.match(unit.text) is None:
        return False
    return _HEDGE.search(unit.text) is None


def _unit_hits(unit: Unit, compiled: re.Pattern[str], following: str = "") -> list[Hit]:
    if asks(unit):
        return []
    for text in (unit.text, unit.lemmas) if unit.lemmas else (unit.text,):
        masked = _mask(text)
        found = _matches(compiled, text, masked)
        if found:  # the lemma twin is read only where the words as written say nothing
            return [_hit(unit, text, masked, match, following) for match in found]
    return []


# "non-persistent", "non-trainable": the prefix denies the word it is attached to.
_NON_PREFIX = re.compile(
    r"\bnon-(?=[a-z])|\bnon(?=(?:persistent|trainable|differentiable|zero)\b)", re.IGNORECASE
)


def _denied_by_prefix(match: re.Match[str]) -> bool:
    """Whether the matched words carry a "non-" the phrasing did not ask for: "the tape
    is non-persistent by default" does not state "the tape is persistent by default"."""
    return _NON_PREFIX.search(match.group()) is not None and "non" not in match.re.pattern.lower()


# A phrasing that ends on a gap (`... ~ (memory|cost)?`) may end on the punctuation after
# its last word ("a persistent tape is not free: "); read from there, the match's last
# clause would be the empty one after the ":", and the "not" before it would deny nothing
# (round 8). Its polarity is read up to its last word.
_TRAILING = re.compile(r"[\s,;:!?\-]+$")


def _hit(unit: Unit, text: str, masked: str, match: re.Match[str], following: str = "") -> Hit:
    start, end = match.span()
    trailing = _TRAILING.search(match.group())
    end = start + trailing.start() if trailing and trailing.start() else end
    if unit.is_code:  # code states what it does; `not` in code is logic, not denial
        return Hit(match.group(), unit.text, affirmed=True, foreign=False)
    written = _mask(unit.text)
    affirmed = (
        is_affirmed(masked, start, end, written)
        != judged_false_alone(masked, start, end, following)
    ) != (_denied_by_prefix(match) or forget_denied(text, start))
    affirmed = affirmed != softly_denied(masked, start, end, match.re.pattern)
    foreign = _is_foreign(text, masked, start, end)
    conditional = (
        in_open_condition(masked, start, end, written)
        or in_counterfactual_consequence(masked, start, end, written)
        or denial_left_behind(masked, start, end)
        or avoided(masked, start, end, match.re.pattern)
        or object_of_verb(masked, start, end, match.re.pattern)
        or reported_or_qualified(text, masked, start, end)
        or in_scope_of_lack(masked, start, end)
    )
    partial_word = _inside_argument(text, masked, match.end())
    return Hit(match.group(), unit.text, affirmed, foreign, conditional, partial_word)
