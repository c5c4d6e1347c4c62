"""Find rubric phrasings in an answer and decide whether each one is affirmed or denied.

Keywords are not enough: "tape.gradient does not update the weights" contains every word
of the tell "tape.gradient updates the weights". Like NegEx, we treat negation and
contrast words ("not", "n't", "never", "no", "without", "instead of", "rather than",
"unlike") as cues whose scope runs to the end of their clause; a match is denied when an
odd number of cues lie in its clause before it or in the last clause it spans. Statements about
another framework ("in PyTorch you call zero_grad") are attributed to it, not to the
candidate's model of TensorFlow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from app.grading.freetext.lexicon import widen
from app.grading.freetext.normalise import Unit
from app.packs.rubric import expand_phrasing

_CUE = re.compile(
    r"\b(?:not|never|no|nothing|nobody|neither|nor|without|cannot|unlike|instead\s+of|rather\s+than"
    r"|dont|doesnt|isnt|arent|wont|cant|didnt|shouldnt|wasnt|werent|hasnt|havent)\b|n't\b",
    re.IGNORECASE,
)
# Cues that deny only the phrase right after them ("without the flag, ...", "unlike
# PyTorch you ...", "instead of model.variables"), not the rest of the clause.
_SHORT_CUE = re.compile(
    r"(?:no|nothing|neither|nor|without|unlike|instead\s+of|rather\s+than)", re.IGNORECASE
)
SHORT_SCOPE_WORDS = 6
# A word that opens a new phrase ends a short cue's scope: "without it | the gradients
# are None", "unlike PyTorch | you need ...".
_OPENERS = frozenset({
    "the", "a", "an", "you", "we", "i", "they", "he", "she", "tensorflow", "tf", "keras",
    "your", "our", "their", "its", "this", "these",
})  # fmt: skip
_PRONOUNS = frozenset({"it", "this", "that", "them", "these", "those"})
# Phrases that contain a cue word but deny nothing.
_NOT_CUES = re.compile(
    r"\bnot\s+(?:only|just|merely)\b|\bno\s+(?:matter|doubt)\b|\bnot\s+sure\b|\bif\s+not\b"
    # "X is not the only difference" affirms X and adds more (round 8)
    r"|(?:\bnot|n't)\s+the\s+only\b"
    r"|\b(?:don't|dont|do\s+not|never)\s+forget\b",
    re.IGNORECASE,
)
_SUBJECT = (
    r"(?:it|the|then|you|we|i|they|this|that|these|tf|tensorflow|pytorch|keras|optimizer"
    r"|apply_gradients|tape|gradients?|grads|numpy|everything)"
)
_TERMINATOR = re.compile(
    r"[,;:!?]|\s-+>?\s|=>|\b(?:but|however|whereas|although|though|while|so|because|since"
    r"|which|otherwise|therefore|hence|yet|instead(?!\s+of)|thus|unless)\b"
    r"|\band\s+(?=" + _SUBJECT + r"\b)"
    r"|\band\s+(?=(?:don't|dont|do\s+not|not|never|no|neither|nor)\b)",
    re.IGNORECASE,
)
_NEW_SUBJECT = re.compile(
    r"\s*(?:(?:once|when|after|before|if|as\s+soon\s+as|in)\s+)?(?:the\s+)?(?:apply_gradients|optimizer|tape\.gradient|tensorflow|tf|pytorch|torch|keras"
    r"|you|we|i)\b",
    re.IGNORECASE,
)
# A noun that is the object of "with" ("each with its own tape, sum the gradients") is no
# subject for what follows the clause (round 6).
_WITH_OBJECT = re.compile(
    r"\bwith\s+(?:(?:its|their|a|an|the|one|his|her|your)\s+)?(?:own\s+)?$", re.I
)
# "Once both blocks are closed, you call ...": the subject of the main clause comes after a
# subordinate clause, so a phrasing that starts there may run into it.
_SUBORDINATE = re.compile(r"(?:once|after|when|before|as soon as)\b", re.IGNORECASE)
_CALL_ARGS = re.compile(r"(?<=[\w\]])\([^()\n]*\)")
_FOREIGN = re.compile(
    r"\b(?:pytorch|torch|jax|flax|optax|haiku|other\s+frameworks?|chainer|mxnet)\b", re.I
)
# "Like PyTorch", "unlike PyTorch", "compared to PyTorch": a comparison with TensorFlow.
_COMPARED = re.compile(
    r"\b(?:un)?like\s+(?:in\s+)?$|\b(?:un)?like\s+(?:[\w.()]+\s+){1,3}in\s+$|\bas\s+in\s+$"
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


@lru_cache(maxsize=4096)
def compile_phrasing(pattern: str, lexicon: bool = True) -> re.Pattern[str]:
    """A phrasing as a regular expression: its word alternatives widened to the shared
    lexicon's synonyms (lexicon.py; not for a claim's excluded role), its ` ~ ` gaps
    expanded."""
    return re.compile(expand_phrasing(widen(pattern) if lexicon else pattern), re.IGNORECASE)


@lru_cache(maxsize=2048)
def _mask(text: str) -> str:
    """Blank call arguments and non-cues so `f(a, b)` and 'not only' cut no clauses; the
    "neither" of "neither X nor Y" is one denial with its "nor", not a second one that
    would cancel it: "nor" alone denies X (its clause) and Y (its short scope; round 8)."""
    text = _CALL_ARGS.sub(lambda m: "(" + "x" * (len(m.group()) - 2) + ")", text)
    text = _NEITHER_NOR.sub(lambda m: "x" * 7 + m.group()[7:], text)
    return _NOT_CUES.sub(lambda m: "x" * len(m.group()), text)


_NEITHER_NOR = re.compile(r"\bneither\b(?:[^.;:!?]|\.(?=\w))*?\bnor\b", re.IGNORECASE)


def _clause_start(masked: str, position: int, *, inclusive: bool = True) -> int:
    """Where the clause holding `position` starts.

    With inclusive=False a terminator ending exactly at `position` is ignored: a match
    that ends on "unless" still belongs to the clause before it.
    """
    start = 0
    for term in _TERMINATOR.finditer(masked):  # whole text: look-aheads must see past
        if term.end() > position or (term.end() == position and not inclusive):
            break
        start = term.end()
    return start


# A statement judged false, or a thing judged unneeded, by what follows it: "applying after
# each micro-batch is not the same thing", "optimizer.zero_grad() isn't needed",
# "watching the loss won't help".
_JUDGED_FALSE = re.compile(
    r"\s*(?:(?:is|are|was|would\s+be|'s)\s+(?:(?:simply|just|also)\s+)?"
    r"(?:wrong|incorrect|false|unnecessary|unneeded|redundant|pointless|obsolete"
    r"|a\s+(?:myth|mistake|misconception|bug)"
    r"|not\s+(?:the\s+same|equivalent|true|correct|right|how|needed|necessary|required|a\s+thing)"
    r"|n't\s+(?:the\s+same|true|how|needed|necessary|required|a\s+thing))"
    r"|(?:isn't|aren't|wasn't)\s+(?:the\s+same|equivalent|true|correct|right|how|needed"
    r"|necessary|required|a\s+thing)"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+exist"
    r"|(?:won't|will\s+not|doesn't|does\s+not|wouldn't|would\s+not|can't|cannot)\s+(?:help|work"
    r"|fix|give|produce|yield))",
    re.IGNORECASE,
)


# A claim reported as someone else's mistake: "it's a myth that X", "beginners think X".
_REPORTED_FALSE = re.compile(
    r"\b(?:myth|misconception|mistake|wrong|false|incorrect|untrue|fallacy)\s+"
    r"(?:to\s+(?:think|say|believe|assume)\s+)?that\b"
    # round 8: "a common misconception is that X", "it's a mistake to think X" ("the
    # mistake is that X" diagnoses a bug: it reports no belief)
    r"|\b(?:myth|misconception|fallacy)s?\s+(?:is|was)\s+that\b"
    r"|\b(?:myth|misconception|mistake|wrong|fallacy)\s+(?:is\s+)?to\s+(?:think|say|believe"
    r"|assume)\b"
    r"|\b(?:people|beginners|newcomers|many|some|others|folks|candidates|tutorials|blogs?"
    r"|articles|posts|courses|someone|somebody)\s+"
    r"(?:often\s+|sometimes\s+|usually\s+|wrongly\s+|mistakenly\s+|still\s+)?"
    r"(?:think|believe|assume|claim|blame|suspect|insist)s?\b"
    r"|\byou(?:\s+(?:might|may|would|could)|'d|\s+'d)\s+(?:think|expect|assume|believe|guess)\b"
    r"|\b(?:tempting|easy)\s+to\s+(?:think|assume|believe)\b"
    # round 8: a belief given up ("I used to think X, but ..."), a claim judged later in
    # its sentence ("the claim that X is false", "the idea that X is a myth")
    r"|\bi\s+(?:used\s+to|use\s+to|once|originally)\s+(?:think|believe|assume)\b"
    r"|\b(?:claim|idea|notion|belief|assumption|statement)\s+that\b(?=(?:[^.;!?]|\.(?=\w))*\b(?:is|are|was)"
    r"\s+(?:(?:simply|just|plain|completely|totally)\s+)?(?:false|wrong|incorrect|untrue"
    r"|a\s+myth|nonsense|not\s+true)\b)",
    re.IGNORECASE,
)
# A sentence labelled as a myth: "Myth: ...", "A common misconception - ...", "Myth #2: ...".
_MYTH_LABEL = re.compile(
    r"^\W*(?:\w+\s+){0,2}(?:myths?|misconceptions?)\s*(?:#?\d+\s*)?"
    r"(?::|-+>?\s)",
    re.IGNORECASE,
)
# A verdict right after a statement, in the same sentence ("X - false", "X - that's a
# myth") or as the next sentence ("X? No.", "X. That's a myth.").
_VERDICT_FALSE = re.compile(
    r"\W*(?:(?:that|this|which|it)(?:'s|\s+is)\s+(?:(?:simply|just|a\s+total)\s+)?)?"
    r"(?:false|wrong|untrue|incorrect|a\s+myth|a\s+misconception|not\s+true|nope\b"
    r"|no\s*(?:[.!]|$))",
    re.IGNORECASE,
)
_VERDICT_AFTER = re.compile(r"[\s\"'`]*(?:-+|:|\(|,)\s*(?=\w)")
# An elliptical denial later in the sentence: "you'd expect it to raise, but it doesn't".
_ELLIPTICAL_DENIAL = re.compile(
    r"[^.;]*?\bbut\s+(?:it|that|this|they|he|she)\s+(?:doesn't|does\s+not|don't|do\s+not"
    r"|isn't|is\s+not|aren't|are\s+not|won't|will\s+not|didn't|did\s+not)\s*(?:[.,;!]|$)",
    re.IGNORECASE,
)


# A short phrase that qualifies the match before its verdict: "watching the loss with
# tape.watch does not fix None gradients" (round 8).
_QUALIFIER = re.compile(
    r"\s+(?:with|on|in|inside|for|of|to|after|before|at|by|from)\s+(?:the\s+|a\s+|an\s+)?"
    r"[\w.()]+",
    re.IGNORECASE,
)


def judged_false(masked: str, end: int, next_text: str = "") -> bool:
    """Whether the words right after a match call it false.

    "X isn't needed", "X - that's a myth", "X, but it doesn't." in the same sentence; a
    bare verdict as the next sentence ("X? No.", "X. That's a myth.") when X ends its own.
    """
    if _JUDGED_FALSE.match(masked, end) is not None:
        return True
    qualifier = _QUALIFIER.match(masked, end)
    if qualifier is not None and _JUDGED_FALSE.match(masked, qualifier.end()) is not None:
        return True
    after = _VERDICT_AFTER.match(masked, end)
    if after is not None and _VERDICT_FALSE.match(masked, after.end()):
        return True
    if _ELLIPTICAL_DENIAL.match(masked, end) is not None:
        return True
    rest = masked[end:].strip(" \t\"'`)")
    if rest in ("", ".", "?", "!") and next_text:
        return _VERDICT_FALSE.fullmatch(next_text.strip().rstrip(".!")) is not None
    return False


def is_affirmed(masked: str, start: int, end: int, written: str = "") -> bool:
    """Even number of negation cues in the lead-in and the last clause of the match.

    The lead-in (clause start to match start) catches "rather than tape.gradient, ...";
    the match's last clause catches "tape.gradient does not update". Cues in earlier
    clauses of a long match ("the loss did not - it was computed after") deny nothing.
    `written` is the sentence as written (masked) when `masked` is its lemma twin.
    """
    lead_in = [
        cue
        for cue in _CUE.finditer(masked, _clause_start(masked, start), start)
        if not _SHORT_CUE.fullmatch(cue.group()) or _reaches(masked[cue.end() : start])
    ]
    last_clause = _CUE.findall(masked, max(start, _clause_start(masked, end, inclusive=False)), end)
    if _open_negated_condition(masked, start, end, len(lead_in) + len(last_clause), written):
        return True
    reported = is_reported(masked, start, end) or _counterfactual(masked, start, end, written)
    return (len(lead_in) + len(last_clause) + reported) % 2 == 0


def is_reported(masked: str, start: int, end: int) -> bool:
    """Whether the match is reported as someone's false belief: a report that starts in its
    clause before its end (and may look past it: "the claim that X is false"), or a myth
    label opening the sentence."""
    found = _REPORTED_FALSE.search(masked, _clause_start(masked, start))
    return (found is not None and found.start() < end) or _MYTH_LABEL.match(
        masked[:start]
    ) is not None


def judged_false_alone(masked: str, start: int, end: int, following: str = "") -> bool:
    """A verdict after a match that is not already reported as false: "you'd think it
    would complain, but it doesn't" and "the claim that X is false" deny it once, not twice
    (round 8)."""
    return judged_false(masked, end, following) and not is_reported(masked, start, end)


_IF_CLAUSE = re.compile(r"\s*if\b", re.IGNORECASE)
# Past tense in an if-clause, not a passive or perfect ("is computed", "has recorded").
_PAST = re.compile(
    r"\b(?:were|did|had)\b|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bbe\s)(?<!\bbeen\s)"
    r"(?<!\bget\s)(?<!\bgets\s)(?<!\bgot\s)(?<!\bhas\s)(?<!\bhave\s)\b[a-z]{3,}ed\b",
    re.IGNORECASE,
)
_WOULD = re.compile(r"\b(?:would|wouldn't|'d)\b|\w'd\b", re.IGNORECASE)


def _counterfactual(masked: str, start: int, end: int, written: str = "") -> bool:
    """A claim in a counterfactual if-clause: "if tape.gradient updated the weights, you
    wouldn't need an optimizer" states that it does not. An open condition ("if the loss
    is computed outside the tape, you'd get None") states nothing false: it needs a past
    tense in the if-clause, not a passive. A match that runs into the consequence states the
    consequence: "if you passed model.variables it'd still work" says it would (round 6)."""
    clause_start = _clause_start(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    if _WOULD.search(masked, clause_start, end) is not None:
        return False
    clause_end = _clause_end(masked, end)
    if not _past_in_clause(masked, clause_start, written):
        return False
    return _WOULD.search(masked, clause_end) is not None


def _past_in_clause(masked: str, clause_start: int, written: str = "") -> bool:
    """Whether the clause starting at `clause_start` has a past tense, read in the words as
    written: a lemma twin has lost it ("if tape.gradient update the weight, ..."; round 8).
    Lemmas change words, not clause marks, so the twin's n-th clause is the written one's."""
    if not written or written == masked:
        return _PAST.search(masked, clause_start, _clause_end(masked, clause_start)) is not None
    n = sum(1 for term in _TERMINATOR.finditer(masked) if term.end() <= clause_start)
    terms = list(_TERMINATOR.finditer(written))
    if n > len(terms):
        return False
    start = terms[n - 1].end() if n else 0
    return _PAST.search(written, start, _clause_end(written, start)) is not None


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
    clause_start = _clause_start(masked, start)
    if not clause_start or _WOULD.search(masked, clause_start, end) is None:
        return False
    premise = _clause_start(masked, clause_start - 1)
    condition = _IF_CLAUSE.match(masked, premise)
    if condition is None or _WOULD.search(masked, premise, clause_start):
        return False
    if _ACTOR.match(masked, condition.end()):
        return False
    if _CUE.search(masked, premise, clause_start) or _OMITTED.search(masked, premise, clause_start):
        return False
    return _past_in_clause(masked, premise, written)


def _open_negated_condition(
    masked: str, start: int, end: int, cues: int, written: str = ""
) -> bool:
    """ "If you don't reset the accumulators, the gradients add up" says the reset is
    needed: a denied action in an open if-clause that has a consequence is affirmed."""
    if cues % 2 == 0:
        return False
    clause_start = _clause_start(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    clause_end = _clause_end(masked, end)
    has_consequence = clause_end < len(masked.rstrip(" .!?"))
    return has_consequence and not _counterfactual(masked, start, end, written)


def in_open_condition(masked: str, start: int, end: int, written: str = "") -> bool:
    """Whether a match lies inside an open if-clause with a consequence, affirmed as
    written: "if you pass model.variables instead, the frozen layers get trained" reasons
    from the condition; it does not recommend it. A denied action there ("if you don't
    reset them, ...") says the action is needed (`_open_negated_condition`)."""
    clause_start = _clause_start(masked, start)
    if _IF_CLAUSE.match(masked, clause_start) is None:
        return False
    clause_end = _clause_end(masked, end)
    if clause_end < end or _counterfactual(masked, start, end, written):
        return False
    cues = _CUE.findall(masked, clause_start, clause_end)
    comma = _COMMA.search(masked, clause_start)
    alternative = _ALTERNATIVE.search(masked, clause_start, comma.start() if comma else len(masked))
    return not cues and alternative is not None and clause_end < len(masked.rstrip(" .!?"))


_COMMA = re.compile(r"[,;:]")
# The condition names the wrong choice as an alternative: "if you pass model.variables
# instead", "if you accidentally compute it outside".
_ALTERNATIVE = re.compile(
    r"\binstead\b|\b(?:by\s+mistake|by\s+accident|accidentally|mistakenly|wrongly)\b",
    re.IGNORECASE,
)


# "Don't forget the reset": "don't forget" is no denial of what follows (the reset is
# needed), but it denies a phrasing that is itself about forgetting (round 6).
_FORGET_DENIED = re.compile(r"(?:\bdon't|\bdont|\bdo\s+not|\bnever)\s+$", re.IGNORECASE)


def forget_denied(text: str, start: int) -> bool:
    """Whether a match that starts with "forget" follows a "don't"/"never"."""
    return (
        text[start : start + 6].lower() == "forget"
        and _FORGET_DENIED.search(text[max(0, start - 12) : start]) is not None
    )


def _reaches(between: str) -> bool:
    """Whether a short cue's scope spans the words between it and a match."""
    words = between.lower().split()
    if len(words) > SHORT_SCOPE_WORDS:
        return False
    if words and words[0].strip(",") in _PRONOUNS:  # "without it, BN uses ...": it is the object
        return False
    return not any(word in _OPENERS for word in words[1:])


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
        found.append((m.start(), compared is None))
    return found


def _clause_end(masked: str, position: int) -> int:
    term = _TERMINATOR.search(masked, position)
    return term.start() if term else len(masked)


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
            _NEW_SUBJECT.match(masked, term.end()) or _denied_before(masked, start, term)
        ):
            return term.end()
    return None


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
        subordinate = _SUBORDINATE.match(match.group()) is not None
        split = None
        if "\n" not in match.group() and not subordinate:
            split = _new_subject_inside(masked, *match.span())
            if split is None and _WITH_OBJECT.search(
                text, max(0, match.start() - 30), match.start()
            ):
                term = _TERMINATOR.search(masked, match.start(), match.end())
                split = term.end() if term is not None else None
        if split is None:
            found.append(_tightest(pattern, text, masked, match))
        position = split or max(match.end(), match.start() + 1)
    return found


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
    foreign = _is_foreign(text, masked, start, end)
    conditional = in_open_condition(masked, start, end, written) or in_counterfactual_consequence(
        masked, start, end, written
    )
    return Hit(match.group(), unit.text, affirmed, foreign, conditional)
