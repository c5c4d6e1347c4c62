"""Find rubric phrasings in an answer: each match a hit, with its polarity and its topic.

A phrasing is searched in each sentence as written and, failing that, in its lemma twin; a
match must stay inside one statement (it is dropped where it runs into a new subject), and
a direct question states nothing. Statements about another framework ("in PyTorch you call
zero_grad") are attributed to it, not to the candidate's model of TensorFlow. Whether a
match is affirmed or denied is read by polarity.py; where a statement ends inside a match,
by statements.py (round 18).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

import regex

from app.grading.freetext.asides import inside_closed_aside, warned_in_conditional_aside
from app.grading.freetext.budget import BoundedPattern, PhrasingMatch, stopped
from app.grading.freetext.conditions import (
    in_counterfactual_consequence,
    in_open_condition,
    in_scope_of_lack,
)
from app.grading.freetext.hypotheses import supposed
from app.grading.freetext.labels import SHORT_LABEL
from app.grading.freetext.normalise import Unit
from app.grading.freetext.per_answer import remembered_per_answer
from app.grading.freetext.phrasings import (
    compile_phrasing,
    end_of_clause,
    mask,
    start_of_clause,
)
from app.grading.freetext.polarity import (
    avoided,
    denial_left_behind,
    forget_denied,
    is_affirmed,
    judged_false_alone,
    reported_or_qualified,
    softly_denied,
)
from app.grading.freetext.purposes import reset_purpose
from app.grading.freetext.required_text import Requirement, lowered, may_match
from app.grading.freetext.statements import statement_matches
from app.grading.freetext.subjects import object_of_verb

# Round 29: "Lightning" alone is PyTorch Lightning ("in Lightning you never call zero_grad").
# Round 34: Apple's MLX ("in MLX modules are in train mode by default").
FOREIGN = re.compile(
    r"\b(?:pytorch|torch|jax|flax|optax|haiku|mlx|other\s+frameworks?|chainer|mxnet"
    r"|lightning(?![\s-]+fast))\b",
    re.I,
)
# "Like PyTorch", "unlike PyTorch", "compared to PyTorch": a comparison with TensorFlow.
# "Analogous to retain_graph=False in PyTorch" too (round 9).
_COMPARED = regex.compile(
    r"\b(?:un)?like\s+(?:in\s+)?$|\b(?:un)?like\s+(?:[\w.()]+\s+){1,3}in\s+$|\bas\s+in\s+$"
    r"|\b(?:analogous|akin|similar|equivalent)\s+to\s+(?:[\w.()=]+\s+){1,3}in\s+$"
    r"|\bsame\s+as\s+(?:in\s+)?$"
    # round 49: "(the equivalent of pytorch's .grad)", "like opposite of torch.no_grad"
    r"|\b(?:opposite|reverse|inverse|equivalent|counterpart|analogue|analog)\s+(?:of|to)\s+$"
    r"|\bsimilar\s+to\s+$|\b(?:compared|contrast)\s+(?:to|with)\s+$|\bthan\s+(?:in\s+)?$"
    r"|\b(?:vs\.?|versus)\s+$"
    # "accumulate ... in the same way PyTorch's .grad buffers do" (round 21)
    r"|\bsame\s+way\s+(?:as\s+)?(?:in\s+)?$"
    # "..., the way they do in JAX", "..., as it does in PyTorch" (round 29); round 30: "the
    # way" with up to six words before "in" ("the way they keep piling up in .grad in PyTorch")
    r"|\b(?<!\b(?:long|soon|far)\s)as(?!\s+(?:long|soon|far)\b)\s+(?:[\w.()]+\s+){1,3}in\s+$"
    r"|\bthe\s+(?:same\s+)?way\s+(?:[\w.()]+\s+){1,6}in\s+$",
    regex.IGNORECASE,
)
_OTHER_API = re.compile(
    r"\b(?:pytorch|torch|jax|optax|flax|mlx)\b|\.grad\b|\bbackward\(|\bvalue_and_grad\b",
    re.IGNORECASE,
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


def is_foreign(sentence: str, masked: str, start: int, end: int) -> bool:
    """Whether the statement is about another framework rather than TensorFlow.

    The framework named in the match's own clause decides; failing that, the one named
    nearest to it in the sentence before it ("In PyTorch, you ...", "PyTorch is different:
    it ..."), or after it in a phrase that scopes it ("..., at least in PyTorch"). A
    framework named later in another role ("the optimizer clears them, so PyTorch users
    are surprised") sets no topic for the statement before it (round 8). "Like PyTorch"
    and "unlike PyTorch" compare with TensorFlow, so they count as statements about
    TensorFlow. Round 48: a mention outside the clause sets no topic where TensorFlow's own
    API (the tape, apply_gradients, `tf.`) is named in the match's clause or between that
    mention and the match: "for the same reason they call zero_grad in PyTorch: the tape
    keeps what it recorded, so gradients pile up" is said of the tape.
    """
    mentions = framework_mentions(sentence)
    if not any(foreign for _, foreign in mentions):
        return False
    # Round 49: a framework named in a bracketed aside closed before the match is the aside's
    # ("call tape.reset() (where zero_grad would go in pytorch) since the gradients ...").
    mentions = tuple(m for m in mentions if not inside_closed_aside(masked, m[0], start, start))
    clause_start, clause_end = start_of_clause(masked, start), end_of_clause(masked, end)
    clause = [f for pos, f in mentions if clause_start <= pos < clause_end]
    if clause:
        return all(clause)
    if _OWN_API.search(sentence, clause_start, clause_end) is not None:
        return False  # round 48: the clause's own subject is TensorFlow's (its tape, ...)
    topics = [m for m in mentions if m[0] < start or _scopes(sentence, end, m[0])]
    if not topics:
        return False
    nearest = min(topics, key=lambda m: min(abs(m[0] - start), abs(m[0] - end)))
    if nearest[1] and nearest[0] < start and _OWN_API.search(sentence, nearest[0], start):
        return False  # round 48: TensorFlow's API named since the other framework
    return nearest[1]


# "in PyTorch", "for torch", "with JAX", "using optax": a later mention that scopes the
# statement before it.
_SCOPE = re.compile(r"\b(?:in|for|with|on|under|using)\s+(?:the\s+)?$", re.IGNORECASE)
# Round 29: a relative clause between the statement and a later mention ("the tape adds
# them up, which is exactly what zero_grad in PyTorch is for") is a statement of its own
# about that framework; the one before it keeps its topic.
_RELATIVE = regex.compile(r"\b(?:which|what)\b", regex.IGNORECASE)
# Round 30: a contrast between the statement and a later mention that opens a clause of its
# own ("gradients pile up in .grad so you clear them, but in TensorFlow tape.gradient returns
# fresh tensors") fronts that clause's topic: the statement before keeps its own. "..., but
# only in PyTorch." (the mention closes its clause) still scopes it.
_CONTRAST_WORDS = r"but|whereas|while|whilst|although|though|however"
_CONTRAST = regex.compile(rf"\b(?:{_CONTRAST_WORDS}|yet)\b|;", regex.I)
_OPENS_CLAUSE = regex.compile(r"[\w.()]*+\s*+,?+\s*+[A-Za-z_]")


def _scopes(sentence: str, end: int, mention: int) -> bool:
    """Whether a framework named after a statement (ending at `end`) scopes it: named
    right after "in", "for", "with" ... and with no relative clause opened in between, nor
    a contrast whose own clause the mention opens."""
    if mention < end or _SCOPE.search(sentence, max(0, mention - 16), mention) is None:
        return False
    if _RELATIVE.search(sentence, end, mention) is not None:
        return False
    fronted = _OPENS_CLAUSE.match(sentence, mention) is not None
    return not (fronted and _CONTRAST.search(sentence, end, mention) is not None)


@lru_cache(maxsize=1024)
def framework_mentions(sentence: str) -> tuple[tuple[int, bool], ...]:
    """(position, is-foreign) of each framework named in the sentence (remembered per
    sentence: every hit in it asks; round 25)."""
    found = [(m.start(), False) for m in _OWN.finditer(sentence)]
    for index, m in enumerate(FOREIGN.finditer(sentence)):
        compared = _COMPARED.search(sentence[max(0, m.start() - 64) : m.start()])
        described = described_after(sentence, m.end())
        found.append((m.start(), compared is None or described is not None))
        clause = described_clause(sentence) if index == 0 else None
        found += [] if clause is None else [(clause[1], False)]  # the main clause: TensorFlow's
    found += [(m.start(), True) for m in _GRAD_BEFORE_TF_CONTRAST.finditer(sentence)]
    return tuple(found + _habit_before_tf_contrast(sentence, found))


# Round 32: a sentence that names no framework before a contrast fronting TensorFlow's own
# clause ("You must zero the gradients every step, whereas in TensorFlow each call returns
# fresh ones") opens on the other framework's habit, not on a claim about TensorFlow: its
# start is that framework's mention. Not where TensorFlow's API is named before the
# contrast ("the tape keeps them, but in TF 1 ..."), nor "in tf.function" (a TF context),
# nor Keras ("you apply them yourself, whereas with Keras fit does it": a custom TF loop).
_TF_CONTRAST = regex.compile(
    rf"\b(?:{_CONTRAST_WORDS})\s*+,?\s*+(?:(?:in|with|for|on)\s+)?(?:tensorflow|tf)(?![\w.])",
    regex.IGNORECASE,
)
_OWN_API = regex.compile(
    r"\b(?:tape|apply_gradients|trainable_variables|GradientTape)\b|\btf\.", regex.IGNORECASE
)


def _habit_before_tf_contrast(
    sentence: str, found: list[tuple[int, bool]]
) -> list[tuple[int, bool]]:
    """[(0, True)] where the sentence opens on another framework's habit (above)."""
    contrast = _TF_CONTRAST.search(sentence)
    if contrast is None or any(position < contrast.start() for position, _ in found):
        return []
    return [] if _OWN_API.search(sentence, 0, contrast.start()) else [(0, True)]


# Round 31: PyTorch's `.grad` is that framework's mention where a contrast later in the
# sentence fronts TensorFlow's own clause ("Gradients add up in .grad so you must zero them,
# whereas in TensorFlow ..."); alone ("nothing piles up in .grad") it names no framework
# (round 30 measured that: correct answers contrasting with `.grad` lost TensorFlow credit).
_GRAD_BEFORE_TF_CONTRAST = regex.compile(
    rf"(?<![\w.])\.grad\b(?=[^.;!?]{{0,160}}?\b(?:{_CONTRAST_WORDS})"
    r"\s*,?\s*(?:(?:in|with|for|on)\s+)?(?:tensorflow|tf|keras)\b)",
    regex.IGNORECASE,
)


# "Unlike PyTorch, where gradients accumulate into .grad, ...": the relative clause is about
# the framework compared with, not TensorFlow (round 11).
# Possessive (round 38): "where" starts with a word character, so giving no space or comma
# back changes no match, and a run of spaces is not split between the two runs every way.
WHERE_CLAUSE = re.compile(r"\s*+,?+\s*+(?:where|in\s+which)\b", re.IGNORECASE)
# Round 43: so is a "which", "whose" or (no comma before it) "that" clause after the
# framework's name or its API ("unlike PyTorch's model.train(), which flips a mode that
# sticks", "than torch.optim's SGD whose buffers ..."): the framework's name, a possessive
# and up to three words of its API (a word after the bare name only where it is an API's:
# "PyTorch model.train()", not "unlike PyTorch you call it, which ..."; no pronoun or article
# among them: "unlike PyTorch's way the tape that ..." is the tape's). Each run is
# possessive and bounded: a mention is read once, in time linear in what follows it.
_NOT_API = r"(?!(?:the|a|an|you|we|i|it|they|this|there|here)\b)"
_API_NAMED = rf"(?:'s(?:\s++{_NOT_API}[\w.()]++){{1,3}}?|[\w.()]*+(?:\s++\w*+[.(][\w.()]*+)?)"
_RELATIVE_CLAUSE = regex.compile(
    rf"{_API_NAMED}(?:\s*+,?+\s*+(?:where|in\s+which|which|whose)\b|\s++that\b)",
    regex.IGNORECASE,
)
# Round 43: after such a clause, "Unlike PyTorch's model.train(), which you undo with
# model.eval(), the training flag sticks" turns back to the comparison's own topic: the main
# clause after the relative clause's first comma or ";" is TensorFlow's again, where the
# comparison opens the sentence (no clause before it) and names the first framework in it (so
# one search per sentence: linear in its length).
# Round 44: that comma is a boundary no match crosses (`described_clause`): "Unlike torch's
# optimizer, which needs zero_grad every step, the tape returns new gradients each time" read
# "needs zero_grad every step, the tape returns new gradients" as TensorFlow's (the main
# clause's topic); it is two statements about two frameworks.
_CLAUSE_CUT = re.compile(r"[,;]")


def described_after(sentence: str, after: int) -> int | None:
    """Where a relative clause describing the framework named just before `after` ends
    its relative word (WHERE_CLAUSE, _RELATIVE_CLAUSE), or None."""
    where = WHERE_CLAUSE.match(sentence, after)
    if where is not None:
        return where.end()
    relative = _RELATIVE_CLAUSE.match(sentence, after)
    return None if relative is None else relative.end()


@lru_cache(maxsize=1024)
def described_clause(sentence: str) -> tuple[int, int] | None:
    """(end of the framework's name, start of the main clause) where a comparison opens the
    sentence on the first framework it names and a relative clause describes it (above): what
    lies between is that framework's, what follows TensorFlow's. None otherwise. Remembered per
    sentence: each phrasing's search asks (statements.py, claims.py)."""
    first = FOREIGN.search(sentence)
    if (
        first is None
        or _COMPARED.search(sentence[max(0, first.start() - 64) : first.start()]) is None
    ):
        return None
    relative_end = described_after(sentence, first.end())
    masked = mask(sentence)
    if relative_end is None or start_of_clause(masked, first.start()) != 0:
        return None
    cut = _CLAUSE_CUT.search(masked, relative_end)
    return None if cut is None else (first.end(), cut.end())


def names_other_framework(snippet: str) -> bool:
    """Whether matched words name PyTorch or its API (a phrasing about the contrast)."""
    return _OTHER_API.search(snippet) is not None


def find_hits(units: tuple[Unit, ...], patterns: list[str]) -> list[Hit]:
    """Every match of any phrasing in every unit, with its polarity."""
    hits = []
    layout = layout_of(units)  # one remembered reading per answer (per_answer.py)
    whole = layout.whole
    for pattern in patterns:
        if stopped():  # the answer's budget is spent: nothing more is read (budget.py)
            break
        compiled = compile_phrasing(pattern)
        if not anchored(pattern) and compiled.search(whole) is None:
            continue  # one search over the whole answer rules most phrasings out
        for index in units_that_may_hold(units, layout, compiled.required):
            if stopped():
                break
            following = units[index + 1].text if index + 1 < len(units) else ""
            hits += unit_hits(units[index], compiled, following)
    return hits


# Round 38: an answer that holds many phrasings (benchmarks/freetext_hostile.py's "every
# rubric phrasing written out": ~170 units) had every unit searched for each phrasing the
# whole answer holds, ~220,000 unit searches per ten answers, nearly all ruled out by the
# strings every match holds (required_text.py), one Python call chain each: most of the
# shape's time. The units are now found from where the whole answer holds the rarest of
# those strings (one `str.find` per unit that holds it), then tested as every search is.
# Round 39: a unit with a text beyond ASCII is found the same way, in the text as `may_match`
# reads it (required_text.lowered); before, it was always tested, and an answer in lookalike
# letters had every unit searched for each phrasing.


@dataclass(frozen=True)
class Layout:
    whole: str  # `whole_text(units)`
    lowered: str  # the same as `may_match` reads it (required_text.lowered, same length)
    starts: tuple[int, ...]  # where each unit's words or lemmas start in it
    ends: tuple[int, ...]
    owners: tuple[int, ...]  # the unit each of them belongs to


@remembered_per_answer
def layout_of(units: tuple[Unit, ...]) -> Layout:
    """Where each unit's words and lemmas sit in `whole_text(units)` (the same order)."""
    starts, ends, owners, low, at = [], [], [], [], 0
    for index, unit in enumerate(units):
        for text in (unit.text, unit.lemmas):
            if text:
                starts.append(at)
                ends.append(at + len(text))
                owners.append(index)
                at += len(text) + 1
                low.append(lowered(text))
    return Layout(whole_text(units), "\n".join(low), tuple(starts), tuple(ends), tuple(owners))


def units_that_may_hold(
    units: tuple[Unit, ...], layout: Layout, required: Requirement
) -> list[int]:
    """The units (in order) whose words or lemmas may hold a phrasing that requires
    `required`: holding one string of its rarest choice, then every choice (`may_match`,
    the test each search makes first). Every unit when nothing is required."""
    if not required:
        return list(range(len(units)))
    low, found = layout.lowered, set()
    for string in required[0]:
        position = low.find(string)
        while position >= 0:
            span = bisect_right(layout.starts, position) - 1
            found.add(layout.owners[span])
            position = low.find(string, max(layout.ends[span], position + 1))
    return [index for index in sorted(found) if _may_hold(units[index], required)]


def _may_hold(unit: Unit, required: Requirement) -> bool:
    return any(
        text and may_match(required, text, 0, len(text)) for text in (unit.text, unit.lemmas)
    )


_ANCHORED = re.compile(r"(?<!\\)[$^]")


@lru_cache(maxsize=8192)
def anchored(pattern: str) -> bool:
    """Whether a phrasing anchors on a line's start or end (not searched in the whole
    answer first); remembered per phrasing (round 25)."""
    return _ANCHORED.search(pattern) is not None


@remembered_per_answer
def whole_text(units: tuple[Unit, ...]) -> str:
    """All units and their lemma twins, one per line (a phrasing never spans a line)."""
    return "\n".join(text for u in units for text in (u.text, u.lemmas) if text)


# A direct question asks; it states nothing ("Do you need zero_grad before each step?",
# "Where should you call zero_grad?"). A hedge with a question mark ("tf.hessians maybe?")
# does not open with an interrogative word and stays a statement. Possessive runs of
# non-word characters (round 37): a label and every opener start with a word character, so
# giving none back changes no match, and an answer of 5,000 "(" no longer splits the run
# between the two `\W*` every way (quadratic: 7 s of CPU per answer, outside budget.py).
_QUESTION = re.compile(
    rf"^\W*+(?:{SHORT_LABEL})?\W*+(?:(?:so|and|but|well|ok|okay|now|then|um+|uh+|hmm+)\W++)*(?:do|does|did|is|are|was"
    r"|were|can|could|should|would|will|shall|must|has|have|where|what|why|how|which|who"
    r"|when\s+(?:do|does|did|is|are|should|would|can|will)"
    r"|isn't|aren't|doesn't|don't|didn't|shouldn't|wouldn't|can't|won't)\b[^?]*\?[\s\"')]*$",
    re.IGNORECASE,
)
# "I think you call tape.reset()?" is a hedged statement, not a question.
_HEDGE = re.compile(r"\b(?:i\s+(?:think|guess|believe|suppose)|maybe|probably)\b", re.IGNORECASE)


def asks(unit: Unit) -> bool:
    """Whether a prose unit is a direct question, which states no claim either way."""
    return not unit.is_code and asks_text(unit.text)


# Round 38: remembered per text. Each phrasing's and claim's search asked it of every unit
# again: ~270,000 `_QUESTION` matches, 13% of the grading, for the ten questions' "every
# rubric phrasing" shape of benchmarks/freetext_hostile.py (~50,000 once `find_hits` reads
# only the units that may hold a phrasing; claims.find_claim_hits still asks of each).
@lru_cache(maxsize=4096)
def asks_text(text: str) -> bool:
    return _QUESTION.match(text) is not None and _HEDGE.search(text) is None


def unit_hits(unit: Unit, compiled: BoundedPattern, following: str = "") -> list[Hit]:
    if asks(unit):
        return []
    for text in (unit.text, unit.lemmas) if unit.lemmas else (unit.text,):
        masked = mask(text)
        found = statement_matches(compiled, text, masked, described_clause(text))
        if found:  # the lemma twin is read only where the words as written say nothing
            return [_hit(unit, text, masked, m, following) for m in found if not stopped()]
    return []


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


# "non-persistent", "non-trainable": the prefix denies the word it is attached to.
_NON_PREFIX = re.compile(
    r"\bnon-(?=[a-z])|\bnon(?=(?:persistent|trainable|differentiable|zero)\b)", re.IGNORECASE
)


def _prefixes(match: PhrasingMatch, text: str, masked: str, end: int) -> tuple[bool, bool]:
    """Whether the matched words carry a "non-" the phrasing did not ask for in the clause
    the match ends in (a denial: "the tape is non-persistent by default" does not state "the
    tape is persistent by default"), and in an earlier clause it runs out of. Round 33: such
    a "non-" denies its own word, not the clause after it ("a GradientTape is non-persistent:
    it holds the activations" denies no holding); the hit is left behind as a cue in the
    match's first clause leaves it (polarity.denial_left_behind): it names no tell."""
    start = match.start()
    if "non" in match.re.pattern.lower() or _NON_PREFIX.search(match.group()) is None:
        return False, False
    last = max(start, start_of_clause(masked, end, inclusive=False))
    return _NON_PREFIX.search(text, last, end) is not None, (
        _NON_PREFIX.search(text, start, last) is not None
    )


# A phrasing that ends on a gap (`... ~ (memory|cost)?`) may end on the punctuation after
# its last word ("a persistent tape is not free: "); read from there, the match's last
# clause would be the empty one after the ":", and the "not" before it would deny nothing
# (round 8). Its polarity is read up to its last word.
_TRAILING = re.compile(r"[\s,;:!?\-]+$")


def not_own_statement(text: str, masked: str, start: int, end: int, written: str) -> bool:
    """Whether a match (`start:end` of the sentence) is not the answer's own statement: an open
    condition or a counterfactual's consequence, reported or qualified, an error warned of in a
    conditional aside (round 51), or supposed ("even if ...", round 35). The checks a phrasing's
    hit (below) and a claim's (claims.py) both make; each adds its own."""
    return (
        in_open_condition(masked, start, end, written)
        or in_counterfactual_consequence(masked, start, end, written)
        or reported_or_qualified(text, masked, start, end)
        or warned_in_conditional_aside(masked, start, end)
        or supposed(masked, start, end)
    )


def _hit(unit: Unit, text: str, masked: str, match: PhrasingMatch, following: str = "") -> Hit:
    start, end = match.span()
    trailing = _TRAILING.search(match.group())
    end = start + trailing.start() if trailing and trailing.start() else end
    if unit.is_code:  # code states what it does; `not` in code is logic, not denial
        return Hit(match.group(), unit.text, affirmed=True, foreign=False)
    written = mask(unit.text)
    prefix_denied, prefix_left_behind = _prefixes(match, text, masked, end)
    affirmed = (
        is_affirmed(masked, start, end, written)
        != judged_false_alone(masked, start, end, following)
    ) != (prefix_denied or forget_denied(text, start))
    affirmed = affirmed != softly_denied(masked, start, end, match.re.pattern)
    if not affirmed and reset_purpose(masked, start, end):
        affirmed = True  # "reset it so it does not accumulate" (round 18)
    foreign = is_foreign(text, masked, start, end)
    conditional = (
        not_own_statement(text, masked, start, end, written)
        or denial_left_behind(masked, start, end)
        or prefix_left_behind
        or avoided(masked, start, end, match.re.pattern)
        or object_of_verb(masked, start, end, match.re.pattern)
        or in_scope_of_lack(masked, start, end)
    )
    partial_word = _inside_argument(text, masked, match.end())
    return Hit(match.group(), unit.text, affirmed, foreign, conditional, partial_word)
