"""Decide whether a phrasing found in a sentence is affirmed or denied.

Keywords are not enough: "tape.gradient does not update the weights" contains every word
of the tell "tape.gradient updates the weights". Like NegEx, we treat negation and
contrast words ("not", "n't", "never", "no", "without", "instead of", "rather than",
"unlike") as cues whose scope runs to the end of their clause; a match is denied when an
odd number of cues lie in its clause before it or in the last clause it spans. A claim
reported as someone's false belief, judged false after it, or made in a counterfactual is
denied too; one inside an open condition is a hypothesis, not a claim.
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from app.grading.freetext.asides import inside_closed_aside
from app.grading.freetext.conditions import (
    consequence_start,
    in_counterfactual_condition,
    in_open_negated_condition,
)
from app.grading.freetext.hinglish import DENIALS, POST_VERBAL_NEGATION, alternation
from app.grading.freetext.labels import VERDICT_LABEL
from app.grading.freetext.phrasings import (
    CUE,
    denial_stops_at_cut,
    end_of_clause,
    start_of_clause,
)

# Cues that deny only the phrase right after them ("without the flag, ...", "unlike
# PyTorch you ...", "instead of model.variables"), not the rest of the clause.
_SHORT_CUE = re.compile(
    r"(?:no|nothing|neither|nor|without|unlike|instead\s+of|rather\s+than|different\s+from"
    r"|distinct\s+from)",
    re.IGNORECASE,
)
SHORT_SCOPE_WORDS = 6
# A word that opens a new phrase ends a short cue's scope: "without it | the gradients
# are None", "unlike PyTorch | you need ...".
_OPENERS = frozenset({
    "the", "a", "an", "you", "we", "i", "they", "he", "she", "tensorflow", "tf", "keras",
    "your", "our", "their", "its", "this", "these",
})  # fmt: skip
_PRONOUNS = frozenset({"it", "this", "that", "them", "these", "those"})
# Round 13: a keyword argument with its value or a call is a whole object, never a word
# that modifies the next one: "without training=True | dropout is still applied", "without
# model(x) | ..." - the cue's scope ends after it, as it does at an opener.
_CODE_OBJECT = re.compile(r"\w=\S|\w\([^()]*\)")


# A statement judged false, or a thing judged unneeded, by what follows it: "applying after
# each micro-batch is not the same thing", "optimizer.zero_grad() isn't needed",
# "watching the loss won't help".
_JUDGED_FALSE = re.compile(
    # round 17: a match may stop inside a call's brackets ("tape.watch(loss) does nothing")
    r"\)?\s*(?:(?:is|are|was|would\s+be|'s)\s+(?:(?:simply|just|also)\s+)?"
    r"(?:wrong|incorrect|false|unnecessary|unneeded|redundant|pointless|obsolete"
    r"|a\s+(?:myth|mistake|misconception|bug)"
    # round 34: a postposed denial of possibility ("getting X from one pass is not possible")
    r"|impossible|not\s+(?:really\s+)?possible"
    r"|not\s+(?:the\s+same|equivalent|true|correct|right|how|needed|necessary|required|a\s+thing)"
    r"|n't\s+(?:the\s+same|true|how|needed|necessary|required|a\s+thing|possible))"
    r"|(?:isn't|aren't|wasn't)\s+(?:the\s+same|equivalent|true|correct|right|how|needed"
    r"|necessary|required|a\s+thing|(?:really\s+)?possible)"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+exist"
    # round 14: "optimizer.zero_grad() isn't part of the TF API"
    r"|(?:isn't|aren't|is\s+not|are\s+not)\s+(?:part\s+of|available\s+in)\b"
    r"|(?:won't|will\s+not|doesn't|does\s+not|wouldn't|would\s+not|can't|cannot)\s+(?:help|work"
    r"|fix|give|produce|yield)"
    # round 17: an action said to have no effect ("watching the loss after the fact records
    # nothing", "tape.watch(loss) does nothing"); not "does nothing wrong", and not "changes
    # nothing" or "makes no difference", which state the harmlessness tells ("passing
    # model.variables makes no difference")
    r"|(?:records?|fix(?:es)?|solves?|achieves?|accomplish(?:es)?)\s+nothing\b"
    r"|(?:does|do|did|will\s+do|would\s+do)\s+nothing\b(?!\s+(?:wrong|bad|harmful|different|special))"
    r"|(?:doesn't|does\s+not|won't|will\s+not|wouldn't|would\s+not)\s+do\s+anything\b"
    r"(?!\s+(?:wrong|bad|harmful|different|special))"
    r"|(?:is|are|'s)\s+(?:completely\s+|totally\s+)?(?:useless|futile|no\s+use|of\s+no\s+use|a\s+no-?op))",
    re.IGNORECASE,
)


# A claim reported as someone else's mistake: "it's a myth that X", "beginners think X".
REPORTED_FALSE = re.compile(
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
    r"(?:[^.;]*?\bbut|[\s\"'`)]*;)"  # round 14: "People often say 'X'; it doesn't - ..."
    r"\s+(?:it|that|this|they|he|she)\s+(?:doesn't|does\s+not|don't|do\s+not"
    r"|isn't|is\s+not|aren't|are\s+not|won't|will\s+not|didn't|did\s+not)\s*(?:[.,;!]|\s-|$)",
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
    # Round 32: a denial in a comma-less if-clause before its consequence's subject denies
    # the condition, not a match in the consequence ("if you don't clear them the old
    # gradients get added"; conditions.consequence_start).
    clause_start = start_of_clause(masked, start)
    lead = max(clause_start, consequence_start(masked, start))
    last_start = start_of_clause(masked, end, inclusive=False)
    lead_in = [
        cue
        for cue in CUE.finditer(masked, lead, start)
        if (not _SHORT_CUE.fullmatch(cue.group()) or _reaches(masked[cue.end() : start]))
        and not inside_closed_aside(masked, cue.start(), start, end)
        # round 50: "none of the tapes may be released, so make them persistent"
        and not (last_start > start and _taken_up(masked, cue, last_start, end))
    ]
    lead_in += denied_reason(masked, clause_start)
    last_clause = [
        cue.group()
        for cue in CUE.finditer(masked, max(start, last_start), end)
        if not inside_closed_aside(masked, cue.start(), start, end)  # round 48 (asides.py)
    ]
    last_clause += _nor_after(masked, max(start, last_start), end)
    cues = len(lead_in) + len(last_clause)
    # Round 27: Hinglish denies after its verb ("weights update nahi karta"; hinglish.py).
    cues += POST_VERBAL_NEGATION.match(masked, end) is not None
    cues += denied_after_verb(masked, end, written)
    if last_start > start:  # the match runs across a clause boundary (round 9)
        cues = _across_clauses(lead_in, cues - len(lead_in))
    if in_open_negated_condition(masked, start, end, cues, written):
        return True
    reported = is_reported(masked, start, end) or in_counterfactual_condition(
        masked, start, end, written
    )
    return (cues + reported) % 2 == 0


# Round 50: a pronoun that takes up the plural noun "none of" quantifies ("none of the tapes
# ..., so make them persistent"); "it" takes up another subject ("none of the gradients are
# stored on the tape; it keeps the forward ops": "it" is the tape).
_PLURAL_PRONOUN = re.compile(r"\b(?:them|they|these|those)\b", re.IGNORECASE)


def _taken_up(masked: str, cue: re.Match[str], last_start: int, end: int) -> bool:
    """Whether a "none of" before a match denies its own clause only: its clause ends at a cut
    a new belief follows (phrasings.denial_stops_at_cut) and the match's last clause takes its
    noun up by a plural pronoun inside the match. "None of the numpy ops are recorded, so the
    tape cannot track them" keeps the denial of a match that stops at "the tape"."""
    return (
        denial_stops_at_cut(masked, cue)
        and _PLURAL_PRONOUN.search(masked, last_start, end) is not None
    )


# Round 51: "not because X" denies X, the reason, not the clause before "because", which the
# terminator ends: "Not because the gradients are derived analytically: ..." and "it's faster
# not because X, but because Y" state no X (C46's finding, round 50). The "not" stands right
# before "because" (an adverb of degree between at most); "not just/only because X" (X and
# more) is no cue (phrasings.mask), nor is "not simply because". The denial reaches the
# because-clause only: Y after "but because" opens a clause of its own.
_NOT_BECAUSE = re.compile(
    r"(?:\bnot|n't)\s+(?:(?:really|actually|necessarily|entirely)\s+)?because\s*$", re.IGNORECASE
)


def denied_reason(masked: str, clause_start: int) -> list[re.Match[str]]:
    """The "not because" before a clause that opens on "because" (one cue), or none."""
    found = _NOT_BECAUSE.search(masked, max(0, clause_start - 40), clause_start)
    return [] if found is None else [found]


# Round 29: German, Dutch and Scandinavian speakers put the denial after the verb and its
# object ("the optimizer changes the weights not", "this is needed not", "the tape records
# them never"): a "not" or "never" that closes the match's clause, a few words after it at
# most, and an adverb after it at most ("not directly", "not at all"). Not "or not", "if
# not", "why not", "of course not", "more often than not", where the "not" answers or
# weighs the clause rather than denying it. Not in a code-switched Hinglish sentence, whose
# English-order twin may leave a "not" after a verbless clause ("... zero_grad zaroorat
# not": the need is denied, not the match); hinglish.py reads its denials.
_DENIAL_AFTER = regex.compile(
    r"\s+(?:(?!(?:and|or|but|if|whether|than|why|course|surely|certainly|probably|hopefully"
    r"|maybe|perhaps|think|hope|guess|believe)\b)[\w.'-]+\s+){0,4}(?:not|never)"
    r"(?:\s+(?:directly|itself|themselves|at\s+all|really|yet|anymore|automatically|alone"
    r"|here|there|so))?[\s.!)\"']*",
    regex.IGNORECASE,
)


_HINGLISH_DENIAL = regex.compile(rf"\b(?:{alternation(DENIALS)})\b", regex.IGNORECASE)


def denied_after_verb(masked: str, end: int, written: str = "") -> bool:
    """Whether a denial closes the clause after the match, as German word order places it."""
    closing = end_of_clause(masked, end)
    if _DENIAL_AFTER.fullmatch(masked, end, closing) is None:
        return False
    return _HINGLISH_DENIAL.search(written or masked) is None


# The "neither" of "neither X nor Y" is blanked (phrasings.mask); its "nor" denies X.
_BLANKED_NEITHER = re.compile(r"(?<=\s)x{7}(?=\s)")
_NOR = re.compile(r"\bnor\b", re.IGNORECASE)


def _nor_after(masked: str, clause_start: int, end: int) -> list[str]:
    """The "nor" of a "neither" inside the match when the match stops before it: "it
    changes neither the variables nor the optimizer" denies "it changes ... the variables"
    (round 14; before, the denial was read only when the match ran on past "nor")."""
    if _BLANKED_NEITHER.search(masked, clause_start, end) is None:
        return []
    nor = _NOR.search(masked, end, end_of_clause(masked, end))
    return [] if nor is None else [nor.group()]


def _across_clauses(lead_in: list[re.Match[str]], last_clause: int) -> int:
    """Denials (0 or 1) of a match that starts in one clause and ends in another: a denial
    in each clause is the same denial said twice, not two that cancel: "no need, no
    zero_grad" (round 9)."""
    return int(bool(len(lead_in) % 2) or bool(last_clause % 2))


def denial_left_behind(masked: str, start: int, end: int) -> bool:
    """Whether a match runs out of a clause whose own negation cue (not a short cue that
    reaches the match) stays behind: the cue denies that clause's verb, and the statement
    the match ends in is neither stated nor denied by it. "don't keep it longer than
    needed, del the tape" does not deny "need ... del the tape"; "I wouldn't leave
    persistent=True on, just costs memory" does not deny "persistent ... costs memory".
    Such a hit names no tell; it still credits a concept as read before (round 9)."""
    if start_of_clause(masked, end, inclusive=False) <= start:
        return False
    lead = start_of_clause(masked, start)
    if any(not _SHORT_CUE.fullmatch(cue.group()) for cue in CUE.finditer(masked, lead, start)):
        return True
    # Round 11: a cue inside the match's first clause denies that clause's own words:
    # "the tape has no record of it: numpy ops aren't TF ops" states no "tape records numpy".
    return CUE.search(masked, start, end_of_clause(masked, start)) is not None


def is_reported(masked: str, start: int, end: int) -> bool:
    """Whether the match is reported as someone's false belief: a report that starts in its
    clause before its end (and may look past it: "the claim that X is false"), or a myth
    label opening the sentence."""
    found = REPORTED_FALSE.search(masked, start_of_clause(masked, start))
    return (found is not None and found.start() < end) or VERDICT_LABEL.match(
        masked[:start]
    ) is not None


def judged_false_alone(masked: str, start: int, end: int, following: str = "") -> bool:
    """A verdict after a match that is not already reported as false: "you'd think it
    would complain, but it doesn't" and "the claim that X is false" deny it once, not twice
    (round 8)."""
    return judged_false(masked, end, following) and not is_reported(masked, start, end)


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
    if _CODE_OBJECT.search(between) is not None:  # round 13: "without training=True | dropout ..."
        return False
    return not any(word in _OPENERS for word in words[1:])


# Round 10: "barely", "hardly", "scarcely" deny like "not" ("tape.gradient hardly changes
# the weights", "you barely need persistent=True"), in the match's lead-in or its last
# clause; kept out of `CUE` because the rubrics spell them as content ("small models ~
# barely ~ matter" is big-models-gain-most): a soft cue the phrasing itself names is what
# the claim says, not a denial of it (as a "non-" the phrasing asks for, matching.py).
_SOFT_CUE = re.compile(r"\b(?:barely|hardly|scarcely)\b", re.IGNORECASE)
# Round 11: verbs that deny their object, "avoid" and "prevent" ("it avoids creating
# optimizer slots for frozen weights"), inside the match's last clause, or in its lead-in
# when their scope reaches it ("you avoid the None gradients by computing the loss inside"
# says nothing about the loss). What is avoided is neither stated nor denied: such a hit
# names no tell and credits as before ("it's simple and avoids keeping everything in
# memory" must not deny "it keeps ... memory" into a tell). Named by a phrasing, content.
_DENYING_VERB = re.compile(r"\b(?:avoid|prevent)(?:s|ed|ing)?\b", re.IGNORECASE)


def softly_denied(masked: str, start: int, end: int, phrasing: str) -> bool:
    """Whether an odd number of soft cues the phrasing does not name sit in the match's
    lead-in (its clause before it) or the last clause it spans."""
    if not _has_soft_cue(masked):
        return False  # most sentences: no clause scan per hit
    last_start = max(start, start_of_clause(masked, end, inclusive=False))
    spans = [(start_of_clause(masked, start), start), (last_start, end)]
    named = phrasing.lower()
    cues = [
        cue.group().lower()
        for a, b in spans
        for cue in _SOFT_CUE.finditer(masked, a, b)
        if not (a == last_start and cue.group().lower() in named)
    ]
    return len(cues) % 2 == 1


def avoided(masked: str, start: int, end: int, phrasing: str) -> bool:
    """Whether a denying verb the phrasing does not name governs the match (round 11)."""
    if _DENYING_VERB.search(masked) is None:
        return False
    last_start = max(start, start_of_clause(masked, end, inclusive=False))
    named = phrasing.lower()
    return any(
        (verb.start() >= last_start or _reaches(masked[verb.end() : start]))
        and verb.group().lower()[:5] not in named
        for verb in _DENYING_VERB.finditer(masked, start_of_clause(masked, start), end)
    )


@lru_cache(maxsize=2048)
def _has_soft_cue(masked: str) -> bool:
    return _SOFT_CUE.search(masked) is not None


# Round 13: what other people get wrong, in any words: "the thing ppl mess up is calling
# the inner gradient after the outer block closed", "what people get wrong is ...",
# "Typical slip: ...", "X is the mistake people usually make". The sentence describes
# someone else's error: it names no tell. It still credits as read (the error people make
# is often the very diagnosis the question asks for: "the classic mistake is computing the
# loss outside the tape"), so it is not a denial.
_OTHERS_ERROR = re.compile(
    r"\b(?:people|ppl|folks|beginners|newcomers|newbies|everyone|everybody|devs|users"
    r"|learners|students|juniors|many|most)\s+(?:often\s+|usually\s+|sometimes\s+"
    r"|commonly\s+|typically\s+|always\s+|still\s+|tend\s+to\s+)?(?:mess(?:es)?\s+up"
    r"|get(?:s)?\s+(?:this\s+|it\s+)?wrong|screw(?:s)?\s+up|trip(?:s)?\s+(?:up|over)"
    r"|mix(?:es)?\s+up|do\s+wrong|forget|slip\s+up)\b"
    r"|\b(?:mistake|error|slip)s?\s+(?:that\s+)?(?:people|ppl|folks|beginners|everyone"
    r"|many)\s+(?:\w+\s+)?make\b"
    r"|\b(?:common|typical|classic|usual|frequent|rookie|beginner'?s?|newbie)\s+"
    r"(?:mistake|slip|error|pitfall|gotcha|trap|bug|footgun)s?\b",
    re.IGNORECASE,
)


def reported_or_qualified(text: str, masked: str, start: int, end: int) -> bool:
    """Whether a hit is not the answer's own statement (round 13): its sentence describes
    what other people get wrong, or the match runs into a bracketed qualification. Such a
    hit names no tell; it still credits. Read by the phrasings (matching) and the claims."""
    return others_error(masked) or into_aside(text, start, end)


@lru_cache(maxsize=2048)
def others_error(masked: str) -> bool:
    """Whether a sentence describes what other people get wrong (round 13)."""
    return _OTHERS_ERROR.search(masked) is not None


def into_aside(text: str, start: int, end: int) -> bool:
    """Whether a match runs from its statement into a bracketed qualification it does not close:
    "equivalent to one batch of 256 (apart from BN batch statistics)", "has to skip them
    (warning, or an error if every gradient is None)". The aside qualifies the statement
    (an exception, a condition, an alternative); a phrasing that takes its first words from
    the statement and its last from the aside states neither. Such a hit names no tell; it
    still credits (round 13). A call's bracket ("outer.gradient(first") is no aside."""
    aside = text.rfind(" (", start, end)
    if aside <= start or ")" in text[aside:end]:
        return False
    close = text.find(")", aside)
    return _QUALIFYING.search(text, aside, close if close > 0 else len(text)) is not None


# Words that make an aside a qualification rather than a list of examples: "model.variables
# also holds the optimizer's vars (Adam m/v, momentum, iterations)" states the tell.
_QUALIFYING = re.compile(
    r"\b(?:apart\s+from|aside\s+from|except|excluding|besides|other\s+than|unless|if|or|but"
    r"|only|not|no)\b",
    re.IGNORECASE,
)
