"""Whether a match starts where its statement's subject stands.

A tell is a claim about something (the tape, tape.gradient, model.variables), and its
phrasing starts with that subject: "each ~ updates ~ variable", "tape ~ sums ~ gradients",
"it ~ compiles ~ XLA". When the words it starts on are the object of a verb in the same
clause ("The optimizer takes **each** (gradient, variable) pair and updates the variable",
"Do one **tape** per micro-batch, sum the gradients", "TF can optimise **it** ... and
optionally compile with XLA"), or a quantifier is the object of a preposition ("for
**each** pair it runs the update rule", round 13), the statement's subject is someone else
and the tell is not stated. Round 12 (issue 14): such a hit names no tell; it still credits
a concept.
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex
from lemminflect import getAllLemmas

from app.grading.freetext.phrasings import start_of_clause
from app.packs.rubric import GAP_REGEX


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that open a noun phrase: a determiner, a quantifier or a possessive.
_DETERMINERS = _words(
    "the a an one each every its their your our his her my this these those all both two "
    "some any most many few several other such"
)
# Words a statement's subject may be on its own: a pronoun, a quantifier, "also" (a
# phrasing's stand-in for "it also ...").
_STANDALONE = frozenset({"it", "they", "them", "everything", "also", "each", "both", "all"})
# Verbs that take a whole statement as their object ("I think the tape ...", "you'll see
# it accumulates", "make it ..."), and "be" / "have", whose complement is no object: what
# follows them may be a statement with its own subject.
_CLAUSE_VERBS = _words(
    "think believe guess know say tell assume suppose mean feel reckon hear read see find "
    "note notice recall remember suspect bet expect hope claim argue understand learn "
    "realise realize seem sound look show prove imagine doubt worry agree confirm check "
    "ensure verify make let be have"
)
# Round 13: a quantifier after a preposition is that preposition's object ("For each
# (g, v) pair it runs the optimizer's update rule and assigns the result into the
# variable"); a pronoun there may still stand for the subject ("model.variables has the
# optimizer stuff in it too, like the momentum slots").
_QUANTIFIERS = frozenset({"each", "both", "all"})
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def object_of_verb(masked: str, start: int, end: int, pattern: str) -> bool:
    """Whether the match `start:end` begins as the object of a verb in its own clause, so
    the statement's subject is another (the verb's subject, or the reader of an
    imperative). A match that opens on a pronoun or quantifier the phrasing has as its
    whole first role ("it ~ compiles", "each ~ updates") is read so wherever it ends; one
    that opens on a noun phrase ("one tape", "both losses") only when it runs on into an
    imperative: "Take the first derivative after the outer block" and "Pass both losses in
    a list" are statements whose verbs are "take" and "pass"."""
    words = [w.lower() for w in _WORD.findall(masked, start_of_clause(masked, start), start)]
    if not _opens_subject(masked, start, end, pattern, words[-1:]):
        return False
    opening = _WORD.match(masked, start)
    first = opening.group().lower() if opening is not None else ""
    quantifier = first in _QUANTIFIERS and _stands_alone(first, pattern)
    while words and words[-1] in _DETERMINERS | _MODIFIERS:
        words.pop()
    if quantifier and words and words[-1] in _PREPOSITIONS:
        return True  # round 13: "for each (g, v) pair it runs the update ..."
    before = words[-2] if len(words) > 1 else ""
    return bool(words) and _is_verb(words[-1]) and before not in _DETERMINERS | _PREPOSITIONS


def _opens_subject(masked: str, start: int, end: int, pattern: str, last: list[str]) -> bool:
    """Whether the match opens where a subject would stand: on a pronoun or quantifier
    that is the phrasing's whole first role, or on a noun phrase (`last` is the word
    before it) that runs on into an imperative."""
    first = _WORD.match(masked, start)
    if first is None:
        return False
    word = first.group().lower()
    if _stands_alone(word, pattern):
        return True
    noun_phrase = word in _DETERMINERS or (bool(last) and last[0] in _DETERMINERS | _MODIFIERS)
    return noun_phrase and _runs_into_imperative(masked, start, end)


def _stands_alone(word: str, pattern: str) -> bool:
    """Whether a pronoun or quantifier is the phrasing's whole first role (its subject)."""
    if word not in _STANDALONE:
        return False
    role = pattern.partition(GAP_REGEX)[0]
    # the engine phrasings are written for (`regex`): `re` refuses some of its syntax, such as
    # round 28's variable-width look-behinds, and raised inside the grading
    try:
        return regex.fullmatch(role, word, regex.IGNORECASE | regex.V0) is not None
    except regex.error:
        return False


def _runs_into_imperative(masked: str, start: int, end: int) -> bool:
    """Whether the match runs on into a clause with no subject of its own, an imperative
    ("Do one tape per micro-batch, sum the gradients"): one with a subject ("You create the
    tape with persistent=True, so it keeps the gradients") states its own claim."""
    clause = start_of_clause(masked, end, inclusive=False)
    if clause <= start:
        return _joins_bare_verb(masked, start, end)
    words = [w.lower() for w in _WORD.findall(masked, clause, end)]
    while words and words[0] in _LINKS:
        words.pop(0)
    return bool(words) and words[0] not in _STANDALONE and _is_verb(words[0])


_LINKS = frozenset({"and", "then", "just", "also"})
# Round 17: adjectives between an imperative's verb and its object ("use a new tape per
# micro-batch and accumulate the gradients").
_MODIFIERS = _words("new fresh separate single own same whole second first different extra")
# "... and accumulate": a verb in its bare form after "and", no subject between.
_AND_VERB = re.compile(r"\band\s+(?:then\s+|also\s+|just\s+)?([a-z]+)\b", re.IGNORECASE)


def _joins_bare_verb(masked: str, start: int, end: int) -> bool:
    """Whether the match runs over "and" into a verb in its bare form ("Use a new tape per
    micro-batch and accumulate the gradients"): after an imperative, the verb goes on with
    the imperative's reader, not with the noun it took as object (round 17). A verb that
    agrees with a singular noun ("and accumulates") is left to the clause reading."""
    for joint in _AND_VERB.finditer(masked, start, end):
        word = joint.group(1).lower()
        if word in _AUX | _STANDALONE | _SUBJECT_WORDS or not _is_verb(word):
            continue
        if word in {lemma.lower() for lemma in getAllLemmas(word).get("VERB", ())}:
            return True
    return False


_PREPOSITIONS = _words("of in on for with by per to at from into over across")


@lru_cache(maxsize=4096)
def _is_verb(word: str) -> bool:
    """A word English reads as a verb here: lemminflect knows it as a verb (or an
    auxiliary such as "can", "would") and not as an adjective or adverb, and it does not
    take a clause as its object."""
    readings = getAllLemmas(word)
    if not ({"VERB", "AUX"} & readings.keys()) or {"ADJ", "ADV"} & readings.keys():
        return False
    lemmas = {lemma.lower() for forms in readings.values() for lemma in forms}
    return not lemmas & _CLAUSE_VERBS


# Round 16: a clause after "and" (or "then") that opens on a verb has no subject of its own:
# it goes on with the subject of the clause before ("the tape records the ops, and then
# updates the weights"), so a claim may take its subject from there. A word followed by an
# auxiliary or a verb is a subject itself ("..., and weights are ..."), not this verb.
_GOES_ON = re.compile(
    r"[\s,]*(?:and\s+(?:then\s+|also\s+|just\s+|simply\s+)?|then\s+)([A-Za-z]+)\s+([A-Za-z]+)",
    re.IGNORECASE,
)
_AUX = _words(
    "is are was were be been has have had do does did will would can could should must may might"
)
_SUBJECT_WORDS = _words("the each every a an both all its their your our my this these those")


def goes_on_with_verb(text: str, position: int) -> bool:
    """Whether the clause at `position` (after its "and") opens on a verb, no subject."""
    match = _GOES_ON.match(text, position)
    if match is None:
        return False
    word, after = match.group(1).lower(), match.group(2).lower()
    if word in _AUX | _SUBJECT_WORDS | _STANDALONE or after in _AUX:
        return False
    return _is_verb(word) and not _is_verb_form(after)


# Round 30: a sentence with its subject dropped, as notes and terse answers write it ("The
# optimizer. Clears the gradients after applying them.", "tape.gradient computes them. Also
# updates the weights."): it opens (after "also", "then" or "just") on a verb in its "-s"
# form, followed by no auxiliary, verb or preposition ("Updates are applied ...", "Changes to
# the weights happen ...", "Weights change ..." open on a noun, their subject); a word that
# may be a plural noun is a verb only before its object ("Updates the weights").
_DROPPED = re.compile(r"\W*(?:(?:also|then|just)\s+)?([A-Za-z]+)\s+([A-Za-z']+)", re.IGNORECASE)


def dropped_subject(text: str) -> bool:
    """Whether a sentence opens on a verb with no subject before it."""
    match = _DROPPED.match(text)
    if match is None:
        return False
    word, after = match.group(1).lower(), match.group(2).lower()
    if not word.endswith("s") or word.endswith("ss") or word in _AUX | _STANDALONE:
        return False
    if after in _AUX | _MODALS | _PREPOSITIONS or _is_verb_form(after) or not _is_verb(word):
        return False
    if after in getAllLemmas(after).get("VERB", ()):  # "Weights change ...": a plural's verb
        return False
    readings = getAllLemmas(word)
    if "NOUN" in readings and after not in _OBJECT_OPENERS:  # "Layers after are fine"
        return False
    return word not in readings.get("VERB", ())


# What a dropped subject's verb takes as its object, where the verb may be a plural noun
# ("Updates the weights", "Returns them").
_OBJECT_OPENERS = _DETERMINERS | _words("them it nothing everything no new fresh any")


# Round 31: after ";" a clause may state its own subject with its copula dropped, as notes
# and non-native answers write it ("small models gain most; heavy model like ResNet already
# GPU bound"). A match whose words after the ";" are only that clause's opening noun phrase
# (one to four words, none a verb form, an auxiliary or a pronoun, not a verb opening a
# clause with its subject dropped) took that subject as its own object.
_PHRASE_WORD = regex.compile(r"[A-Za-z_][\w.()']*+")
_NOT_NOUN_PHRASE = _AUX | _words(
    "it they he she this that these those there which who what you we i so then also just"
)


def only_next_subject(text: str, position: int, end: int) -> bool:
    """Whether text[position:end] (after a ";") is only the opening noun phrase of a
    clause with a subject of its own."""
    if dropped_subject(text[position : position + 80]):
        return False
    words = _PHRASE_WORD.findall(text, position, end)
    if not 1 <= len(words) <= 4:
        return False
    lowered = [w.lower() for w in words]
    return not (set(lowered) & _NOT_NOUN_PHRASE) and not any(map(_is_verb_form, lowered))


def _is_verb_form(word: str) -> bool:
    readings = getAllLemmas(word)
    return "VERB" in readings and "NOUN" not in readings and "ADJ" not in readings


# Round 17: a sentence whose subject is a demonstrative pronoun ("That gives you the same
# gradient as a batch of 256", "This changes the weights directly") states its claim about
# the sentence before, as "it" does (round 14). "That" and "this" are a pronoun before a
# verb in its "-s" form (a determiner before a noun: "This tape records ..."), "these" and
# "those" before a word English reads only as a verb, and any of them before a modal.
# Round 22: "That's ..." reads as "That is ..." ("Call tape.reset() each step. That's TF's
# version of zero_grad"), which the verb rule below already takes.
_DEMONSTRATIVE = re.compile(
    r"\W*(this|that|these|those)(?:\s+one)?(?:\s+|(?='s\b))([A-Za-z']+)", re.IGNORECASE
)
_MODALS = _words(
    "can could will would should must may might does did has had doesn't didn't can't won't "
    "wouldn't shouldn't"
)


# Round 37: "That's why you always pass it", "This is because the tape ...": the
# demonstrative is the whole statement before, and the clause after "why" / "because" has a
# subject of its own, so its roles are its own: no join (joins.pronoun_joins; the same
# connective inside a sentence, ", which is why ...", is claims._PRONOUN_SUBJECT's).
STATEMENT_CONNECTIVE = r"(?:'s|\s+(?:is|was))\s+(?:why|how|because|what|when)\b"
_CONNECTIVE = re.compile(rf"\W*(?:this|that){STATEMENT_CONNECTIVE}", re.IGNORECASE)


def demonstrative_subject(text: str) -> bool:
    """Whether a sentence opens on a demonstrative pronoun as its subject."""
    match = _DEMONSTRATIVE.match(text)
    if match is None or _CONNECTIVE.match(text):
        return False
    word = match.group(2).lower()
    if word == "'s":
        word = "is"
    if word in _MODALS:
        return True
    readings = getAllLemmas(word)
    if "VERB" not in readings or {"ADJ", "ADV"} & readings.keys():
        return False
    if match.group(1).lower() in ("this", "that"):
        return word.endswith("s") and not word.endswith("ss") and word not in readings["VERB"]
    return "NOUN" not in readings and word not in readings["VERB"]


def as_relative_clause(text: str) -> str:
    """The sentence with its demonstrative subject read as "which" ("That runs four
    micro-batches" -> "which runs four micro-batches"), to follow the sentence before."""
    if not text:
        return text
    return _DEMONSTRATIVE_HEAD.sub("which ", _CONTRACTED.sub("which is ", text, count=1), count=1)


_CONTRACTED = re.compile(r"^\W*(?:this|that)'s\s+", re.IGNORECASE)
_DEMONSTRATIVE_HEAD = re.compile(r"^\W*(?:this|that|these|those)(?:\s+one)?\s+", re.IGNORECASE)


# Round 53 (issue 14): whether a clause holds a verb of its own, read from the words English
# reads only as a verb or an auxiliary ("is", "gets", "happens", a contracted "doesn't"); a
# word that may also be a noun or an adjective ("model", "gain", "returns", "zero") is no
# evidence, and an identifier ("tape.reset()") is no word; a word before a sentence's full stop
# is one ("... the inner gradient is."). One lookup per word, remembered.
_PLAIN_WORD = re.compile(r"(?<![\w.])[A-Za-z]+(?:'[A-Za-z]+)?(?![\w(]|\.\w)")


def holds_verb(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` holds a word that can only be a verb (a clause, not a bare
    noun phrase such as "the model with the most parameters")."""
    return any(_only_verb(m.group().lower()) for m in _PLAIN_WORD.finditer(text, start, end))


# A contraction holding a verb ("doesn't", "they're", "it's", "there's"); "optimizer's" and
# "model's" are possessives.
_CONTRACTED_VERB = re.compile(
    r"\w+(?:n't|'re|'ve|'ll|'d|'m)|(?:it|that|there|here|what|who|where|he|she)'s", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def _only_verb(word: str) -> bool:
    if "'" in word:
        return _CONTRACTED_VERB.fullmatch(word) is not None
    readings = getAllLemmas(word).keys()
    return bool(readings) and readings <= {"VERB", "AUX"}
