"""Spoken self-corrections: a claim the candidate withdraws in the same breath states nothing.

People correct themselves as they answer, in speech and in text: "the gradient is zero...
hmm, no, not zero, None", "tape.gradient updates them - no wait, apply_gradients does",
"I think you need zero_grad, because... actually no", "persistent=True frees it. Sorry, I
mean del frees it", "you pass model.variables, or rather model.trainable_variables",
"that's for something else". Read literally, the withdrawn claim is asserted (and named as
a misconception). Round 6 (issue 14): a claim followed by a retraction marker - later in its
own sentence, or at the start of the next one - is withdrawn: its words are taken out of the
text before anything is matched, so it neither credits a concept nor names a tell, and the
corrected claim after the marker is read as usual. The whole reader (grading, practice
feedback, an interview's closed-question tells) goes through `normalise`, so all of them
read retractions the same way.

What is withdrawn: the stretch of the sentence before the marker, from the sentence start or
the last `;` (a pause - an ellipsis or a dash - does not end it: "I think A, because B...
actually no" withdraws A too). A marker opening a sentence withdraws the last such stretch
of the sentence before it.

What is not a retraction: ordinary negation and answers. "No, you don't need zero_grad" and
"No." answering the prompt are claims; a bare "no" becomes a marker only with a word of
hesitation or correction next to it ("no wait", "hmm, no", "actually no", "no, sorry",
"well, no") and only when it is not a determiner ("hmm, no gradient flows" denies nothing
before it). "That's wrong" after someone else's claim is read by the matcher's verdicts, as
before; here it withdraws only after a hesitation or an apology.
"""

from __future__ import annotations

import re

from app.grading.freetext.injections import addresses_grader

# "no" as an interjection: followed by punctuation, the end, or a word that cannot follow a
# determiner "no" ("no wait", "no, it's None"); not "no gradient", "no need".
_NO = (
    r"(?:no+|nope|nah)(?:\s*,?\s*no+)?(?=\s*(?:[,.!;:)-]|$)|\s+(?:wait|sorry|actually|not|that"
    r"|that's|it|it's|its|they|you|i|i'm|scratch|strike|hold|hang|my|wrong|hmm+|um+|uh+)\b)"
)
_PAUSE = r"\s*[,.!:-]*\s*"
_FILLER = r"(?:hmm+|hm+|um+|uh+|er+m?|ah+|oh+|well|wait|actually|sorry|oops|ugh)"
_MARKER = re.compile(
    "|".join(
        [
            # "no wait", "no, sorry", "no, actually", "no no", "no, scratch that"; round 34: "no,
            # hmm" and "no, um", the hesitation after the "no" as "hmm, no" has it before (a
            # hedged self-question taken back: "X, or does it? No, hmm, Y")
            rf"\b(?:no+|nope|nah){_PAUSE}(?:wait|sorry|actually|hold\s+on|hang\s+on|scratch\s+that"
            r"|strike\s+that|i\s+mean|i\s+meant|that's\s+wrong|no+|hm+|um+|uh+|er+m?)\b",
            # "wait, no", "hmm, no", "well, no", "actually no", "oh no, sorry", "um no"
            rf"\b{_FILLER}{_PAUSE}(?:{_FILLER}{_PAUSE})?{_NO}",
            # "well, actually", "hmm, actually": a second thought ("X... well, actually, Y"),
            # which withdraws only when what follows does not narrow X (_narrows below)
            rf"\b(?P<second>(?:well|hmm+|hm+|um+|uh+|er+m?|oh+|wait){_PAUSE}actually)\b",
            # "sorry, I mean", "sorry, wrong one", "sorry - not X"
            rf"\bsorry{_PAUSE}(?:i\s+mean|i\s+meant|wrong|my\s+mistake|my\s+bad|not\b|that's"
            r"\s+(?:wrong|not\s+right|the\s+other)|scratch|strike|let\s+me)",
            r"\b(?:scratch|strike)\s+that\b|\bforget\s+(?:that|what\s+i\s+(?:just\s+)?said)\b",
            r"\bignore\s+(?:that|what\s+i\s+(?:just\s+)?said)\b|\bnever\s*mind\b",
            r"\blet\s+me\s+(?:correct|rephrase|take\s+(?:that|it)\s+back|retract)\b"
            r"(?:\s+(?:that|myself|this|it))?",
            r"\bi\s+take\s+(?:that|it)\s+back\b|\bi\s+misspoke\b|\bmy\s+(?:bad|mistake)\b",
            r"\bi\s+(?:was|am)\s+wrong\b|\bi'm\s+wrong\b|\bcorrection\s*:|\bthat\s+came\s+out\s+wrong\b",
            # "that's wrong" after a hesitation: "hmm, that's wrong", "wait, that's not right"
            # round 30: "wait, that's backwards", "hmm, that's the wrong way round", "no wait, I
            # had it reversed"
            rf"\b{_FILLER}{_PAUSE}that(?:'s|\s+is|\s+was)\s+(?:wrong|not\s+right|incorrect|backwards?"
            r"|reversed|the\s+wrong\s+way\s+(?:round|around))\b",
            rf"\b{_FILLER}{_PAUSE}i\s+(?:had|got)\s+(?:it|that|them)\s+(?:backwards?|reversed|wrong"
            r"|the\s+wrong\s+way\s+(?:round|around)|mixed\s+up|swapped)\b",
            # a self-correction that replaces a word: "zero, I mean None", "X, or rather Y"
            r"(?<=[,\-])\s*(?:i\s+mean|i\s+meant)\b(?!\s+(?:that|it|this)\b)",
            r"\bor\s+rather\b(?!\s+than)",
            # "no, that's the other thing", "or that's for something else"
            r"\b(?:or\s+)?(?:is\s+)?that(?:'s|\s+is)\s+(?:for\s+)?(?:something\s+else"
            r"|the\s+other\s+(?:thing|one|way\s+round|way\s+around))\b",
        ]
    ),
    re.IGNORECASE,
)
# Round 7: a second thought says nothing itself ("well, actually"); what follows decides.
# One that narrows or adds to the claim keeps it: "X. Well, actually, only for watched
# tensors", "... mostly for small models", "... unless you accumulate them", "... BatchNorm
# too". One that contradicts or replaces it ("well, actually, it's the big ones", "...
# apply_gradients does", "... no, it returns them") withdraws it, as before. A restriction
# led by "only"/"just" that ends on a bare verb ("only apply_gradients does") replaces the
# subject; one that negates outside a preposition ("only X, not Y") contradicts.
_NARROWING = re.compile(
    r"^(?:but\s+|and\s+|(?:it's|that's|this\s+is|that\s+is|it\s+is)\s+(?=only|just|mostly|"
    r"mainly|usually|not\s+always))?(?:(?P<restrict>only|just|mostly|mainly|largely|usually|"
    r"typically|generally|often|sometimes|not\s+always|not\s+only|not\s+just)|except|apart\s+"
    r"from|other\s+than|unless|as\s+long\s+as|so\s+long\s+as|provided|at\s+(?:least|most)|"
    r"especially|particularly|in\s+particular|specifically|more\s+precisely|to\s+be\s+(?:precise"
    r"|exact|fair|clear)|strictly(?:\s+speaking)?|technically|also|and\s+also|plus|as\s+well|"
    r"even|(?:the\s+)?same\s+(?:goes|for|with)|in\s+(?:most|some|many|all|general)(?:\s+cases)?"
    r"|not\s+(?=for|when|if|in|with|inside|on|during|under)|or|(?:only\s+)?(?:the\s+ones|those)"
    r"(?=\s+(?:that|which|with|who|where)))?\s*(?P<scope>for|when|whenever|if|in"
    r"|inside|within|with|under|during|on|once|while|after|before|where)?\b",
    re.IGNORECASE,
)
# An addition or a hedge inside the clause ("it also bumps the counter", "that matters
# mostly for persistent tapes") narrows too, when nothing in it contradicts.
_ADDED = re.compile(
    r"\b(?:too|as\s+well|also|mostly|mainly|largely|in\s+particular)\b", re.IGNORECASE
)
_REPLACED = re.compile(
    r"\b(?:does|do|did|is|are|was|were|can|will|has|have|should|must)\s*[.!]?$"
    r"|(?:\bnot\b|n't\b|\bnever\b|\bno\b|\bwrong\b|\binstead\b|\brather\b|\bopposite\b)",
    re.IGNORECASE,
)


# A hedged claim of its own after a second thought replaces the claim, whatever opens it.
_NEW_CLAIM = re.compile(
    r"\bi\s+(?:think|believe|guess|suppose|reckon|remember)\b|\bi'd\s+(?:say|guess|think)\b",
    re.IGNORECASE,
)


def _narrows(rest: str) -> bool:
    """Whether the words after a second thought narrow the claim before it (above)."""
    rest = _HEAD.sub("", rest)
    rest = rest[: end if (end := rest.find(";")) >= 0 else len(rest)].strip()
    if _NEW_CLAIM.search(rest):  # "in a custom loop I believe the default is ...": a claim
        return False
    opener = _NARROWING.match(rest)
    if opener is None or not opener.group():
        return _ADDED.search(rest) is not None and _REPLACED.search(rest) is None
    if opener.group("scope"):  # "only for ...", "unless ...": a condition on the claim
        return True
    if opener.group("restrict"):  # "only X": unless "only X does" or "only X, not Y"
        return _REPLACED.search(rest[opener.end() :]) is None
    return True


# Words that may stand before a marker at the start of a sentence ("Oh, and actually no").
_LEAD = re.compile(r"^[\W_]*(?:(?:and|so|ok|okay|oh|but|then)[\W_]+)*$", re.IGNORECASE)
_HEAD = re.compile(r"^[\s,.!:;-]+")
# Round 30: a sentence of hesitation alone ("Hmm.", "Wait...", "Let me think.", "Hold on.")
# claims nothing: a marker after it withdraws the claim before it ("tape.gradient updates the
# weights. Hmm. Actually no, it only returns them"). Bounded: one or two such sentences.
_HESITATION = re.compile(
    r"^(?=.*[A-Za-z])[\W_]*(?:(?:and|so|ok|okay|oh|but|then|hm+|um+|uh+|er+m?|ah+|well|wait|hold\s+on"
    r"|hang\s+on|one\s+sec(?:ond)?|let\s+me\s+(?:think|see)|let's\s+see)[\W_]+)*$",
    re.IGNORECASE,
)
_HESITATIONS_SKIPPED = 2


def _segment_start(text: str, before: int) -> int:
    """Start of the stretch a marker at `before` withdraws: after the last `;` that has a
    claim after it. Round 30: a stretch with no words ("X; actually no, scratch that; Y",
    the second marker of "X; no wait; Y") reaches back to the `;` before."""
    start = text.rfind(";", 0, before) + 1
    while start and _LEAD.match(text[start:before]):
        start = text.rfind(";", 0, start - 1) + 1
    return start


def _claim_before(out: list[str], index: int) -> int | None:
    """The sentence a marker opening sentence `index` withdraws from: the one before,
    past at most two sentences of hesitation (round 30); None where there is none."""
    for back in range(1, _HESITATIONS_SKIPPED + 2):
        if index - back < 0:
            return None
        if not _HESITATION.match(out[index - back]):
            return index - back
        out[index - back] = ""  # the hesitation is withdrawn with the claim
    return None


def _keeps(marker: re.Match[str], text: str, previous: str) -> bool:
    """A marker that withdraws nothing: a second thought that narrows the claim, or one
    whose claim talks to the grader (an injection is not taken back by "scratch that": it
    stays for injections.py to read)."""
    if marker.group("second") and _narrows(text[marker.end() :]):
        return True
    claim = previous[_segment_start(previous, len(previous)) :] if previous else ""
    claim += " " + text[_segment_start(text, marker.start()) : marker.start()]
    return addresses_grader(claim)


# Round 35: a claim put as a question to oneself ("X, right?", "X, or does it?", "X, I
# think?") is still open: the "no" that answers it takes it back, said bare at the start of
# the next sentence ("No, it only ...", "Or not... no, ...") or after words that go on with
# the question ("Like, when you call it... no, actually ..."). Elsewhere a bare "no" is an
# answer to the prompt and states its claim (above); "X? No." alone is a verdict that denies
# X (polarity.judged_false), as before.
_SELF_QUESTION = re.compile(r"\?[\s\"')]*$")
_ANSWERED_NO = re.compile(
    rf"^[\W_]*(?:(?:or\s+not|so|and|well|hmm+|um+|uh+){_PAUSE})?(?:no+|nope|nah)\b(?=\s*[,.!;:-]+\s*\w)",
    re.IGNORECASE,
)


def _after_question(out: list[str], index: int) -> bool:
    return index > 0 and _SELF_QUESTION.search(out[index - 1]) is not None


# Round 40: a hedge put as a question ("I think you still call set_weights or something?")
# doubts aloud the claim before it and goes on with it; the "no" that takes the doubt back
# takes back the claim it doubted too - the last stretch of the sentence before, past
# hesitation ("X, and then you assign them yourself. I think you still call set_weights or
# something? Hmm, no, actually I've never written that"). Round 30's reach went one sentence
# back only, so X stayed stated.
_HEDGED = re.compile(
    r"\b(?:i\s+(?:think|guess|believe|suppose)|maybe|probably|perhaps|or\s+something)\b",
    re.IGNORECASE,
)


def _withdraw_last_stretch(out: list[str], index: int) -> None:
    previous = out[index]
    out[index] = previous[: _segment_start(previous, len(previous))].strip()
    doubted = _SELF_QUESTION.search(previous) and _HEDGED.search(previous)
    claimed = _claim_before(out, index) if doubted and not out[index] else None
    if claimed is not None and _SELF_QUESTION.search(out[claimed]) is None:
        before = out[claimed]
        out[claimed] = before[: _segment_start(before, len(before))].strip()


def withdraw(sentences: list[str]) -> list[str]:
    """The sentences with every withdrawn claim taken out (a sentence left with no words
    becomes ""). The list keeps its length and order."""
    out = list(sentences)
    for index, sentence in enumerate(sentences):
        text, position, first = sentence, 0, True
        answer = _ANSWERED_NO.match(text) if _after_question(out, index) else None
        if answer is not None:  # "X, right? No, Y"
            _withdraw_last_stretch(out, index - 1)
            text, first = _HEAD.sub("", text[answer.end() :]), False
        while (marker := _MARKER.search(text, position)) is not None:
            opens = first and _LEAD.match(text[: marker.start()]) is not None
            if _keeps(marker, text, out[index - 1] if opens and index else ""):
                first = False
                position = marker.end()
                continue
            claimed = _claim_before(out, index) if opens and index else None
            if claimed is not None and out[claimed]:  # withdraws the sentence before
                _withdraw_last_stretch(out, claimed)
            cut = _segment_start(text, marker.start()) if not opens else 0
            if first and not opens and not cut and _after_question(out, index):
                _withdraw_last_stretch(out, index - 1)  # "X, right? Like ... no, actually Y"
            first = False
            rest = _HEAD.sub("", text[marker.end() :])
            text = (text[:cut] + " " + rest).strip() if cut else rest
            position = cut
        out[index] = text
    return out
