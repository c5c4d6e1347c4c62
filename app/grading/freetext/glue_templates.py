"""Word salads built on one glue template ("the X of the Y of ...", "X ka Y ki ...").

A bag of terms carries no glue (signals.is_keyword_list), and words in random order put
glue where English never does (signals.is_word_salad); a salad that puts the same glue
between every term ("the aaa of the aab of the aac of ...", "lr and zip, pairs and adam,
...", "tape ka gradient ki optimizer ka ...") passes both, and inside its one endless
clause a rubric's keyword reads as a claim. Prose never repeats one short frame of glue,
with a single term in each slot, more than a few times in a row: a sentence's glue varies
with what it says. So the answer's words are reduced to their frame - glue words and
punctuation as written, each run of other words one slot - and a stretch where that frame
repeats with a short period, MIN_REPEATS times or more (counted in filled slots), with two
terms or more in its slots, is a template, not a statement (round 28, issue 14). One pass
per period: linear in the answer's length.
"""

from __future__ import annotations

import re

from app.grading.freetext.hinglish import HINDI_GLUE

_TOKEN = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]|[.,;:!?]")
SLOT = "\x00"  # a run of words other than glue: one term, whatever its length
MAX_PERIOD = 12  # glue rotating over up to six words: "the X of the X in the X with ..."
MIN_REPEATS = 4


def frame(text: str, glue: frozenset[str]) -> tuple[list[str], list[str]]:
    """The text's tokens with glue words (`glue`, and Hindi's) and punctuation as written
    (lower-cased), each run of other words one SLOT; and beside each token the words of its
    slot ("" for glue)."""
    out: list[str] = []
    terms: list[str] = []
    for token in _TOKEN.findall(text):
        word = token.lower()
        if word in glue or word in HINDI_GLUE or not word[0].isalpha():
            out.append(word)
            terms.append("")
        elif not out or out[-1] != SLOT:
            out.append(SLOT)
            terms.append(word)
        else:
            terms[-1] += " " + word
    return out, terms


def template_stretches(tokens: list[str], min_repeats: int = MIN_REPEATS) -> list[tuple[int, int]]:
    """(start, end) of each maximal stretch of `tokens` (a frame) that repeats one unit of
    2..MAX_PERIOD tokens - a slot and at least one glue word among them - twice or more,
    its slots filled `min_repeats` times or more (a last unit cut short still counts the
    slots it fills: "the X of the X of the X of the X" repeats "the X of" four times)."""
    stretches = []
    for period in range(2, MAX_PERIOD + 1):
        start = 0
        for i in range(len(tokens) - period + 1):
            if i + period < len(tokens) and tokens[i] == tokens[i + period]:
                continue
            end = i + period  # tokens[start:end] repeat with this period
            unit = tokens[start : start + period]
            if (
                end - start >= 2 * period
                and tokens[start:end].count(SLOT) >= min_repeats * unit.count(SLOT)
                and _is_frame_unit(unit)
            ):
                stretches.append((start, end))
            start = i + 1
    return stretches


def _is_frame_unit(unit: list[str]) -> bool:
    """A slot and a glue word (not only punctuation), the unit not itself a shorter repeat."""
    glue = [t for t in unit if t != SLOT and t[0].isalpha()]
    if SLOT not in unit or not glue:
        return False
    return not any(
        len(unit) % p == 0 and unit == unit[:p] * (len(unit) // p) for p in range(1, len(unit))
    )


def template_share(text: str, glue: frozenset[str], min_repeats: int = MIN_REPEATS) -> float:
    """The share of the text's frame inside stretches of `min_repeats`+ repeats (0: none)
    that put two terms or more in their slots: one phrase written over and over ("the tape
    the tape ... the tape ends") packs no more terms than the phrase once, and is read as
    that."""
    tokens, terms = frame(text, glue)
    if not tokens:
        return 0.0
    covered = [False] * len(tokens)
    for start, end in template_stretches(tokens, min_repeats):
        slots = [t for t in terms[start:end] if t]
        if len(set(slots[1:-1])) >= 2:  # an edge slot may run into the words around it
            covered[start:end] = [True] * (end - start)
    return sum(covered) / len(tokens)
