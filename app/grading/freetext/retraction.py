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
            # "no wait", "no, sorry", "no, actually", "no no", "no, scratch that"
            rf"\b(?:no+|nope|nah){_PAUSE}(?:wait|sorry|actually|hold\s+on|hang\s+on|scratch\s+that"
            r"|strike\s+that|i\s+mean|i\s+meant|that's\s+wrong|no+)\b",
            # "wait, no", "hmm, no", "well, no", "actually no", "oh no, sorry", "um no"
            rf"\b{_FILLER}{_PAUSE}(?:{_FILLER}{_PAUSE})?{_NO}",
            # "well, actually", "hmm, actually": a second thought ("X... well, actually, Y")
            rf"\b(?:well|hmm+|hm+|um+|uh+|er+m?|oh+|wait){_PAUSE}actually\b",
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
            rf"\b{_FILLER}{_PAUSE}that(?:'s|\s+is|\s+was)\s+(?:wrong|not\s+right|incorrect)\b",
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
# Words that may stand before a marker at the start of a sentence ("Oh, and actually no").
_LEAD = re.compile(r"^[\W_]*(?:(?:and|so|ok|okay|oh|but|then)[\W_]+)*$", re.IGNORECASE)
_HEAD = re.compile(r"^[\s,.!:;-]+")


def _segment_start(text: str, before: int) -> int:
    """Start of the stretch a marker at `before` withdraws: after the last `;`."""
    return text.rfind(";", 0, before) + 1


def withdraw(sentences: list[str]) -> list[str]:
    """The sentences with every withdrawn claim taken out (a sentence left with no words
    becomes ""). The list keeps its length and order."""
    out = list(sentences)
    for index, sentence in enumerate(sentences):
        text, position, first = sentence, 0, True
        while (marker := _MARKER.search(text, position)) is not None:
            opens = first and _LEAD.match(text[: marker.start()]) is not None
            first = False
            if opens and index and out[index - 1]:  # withdraws the sentence before
                previous = out[index - 1]
                out[index - 1] = previous[: _segment_start(previous, len(previous))].strip()
            cut = _segment_start(text, marker.start()) if not opens else 0
            rest = _HEAD.sub("", text[marker.end() :])
            text = (text[:cut] + " " + rest).strip() if cut else rest
            position = cut
        out[index] = text
    return out
