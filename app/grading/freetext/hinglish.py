"""Code-switched Hindi-English (Hinglish, Latin script) read as the statements it makes.

Indian English in an interview often switches into Hindi for everything but the technical
terms: "tape.gradient weights ko update nahi karta" (tape.gradient does not update the
weights). Read with English's tables such a sentence has no function words (signals.py calls
it a list of terms), its verb comes last (an ordered phrasing "tape.gradient ~ updates ~
weights" never matches) and its negation follows the verb ("nahi karta"), outside the span
the polarity reader looks at.

One small table serves all three readers (round 27, issue 14):
- `glue_flags`: which words are Hindi sentence glue *where Hindi grammar puts them* - a
  postposition after a content word ("weights ko"), a light verb after a verb or another
  light verb ("update karta hai"), a negation before a light verb - so a salad padded with
  "hai ka ki ko" gains one word of glue at most, not four (a postposition never follows
  another, except the compound ones: "ke liye", "ke andar").
- `english_order`: the English-order twin of a code-switched sentence, read where normalise
  reads the lemma twin (as written first, the twin only where the words say nothing). Each
  clause ending on a verb and its light verbs ("S O V [nahi] karta hai") is rewritten
  "S [not] V O"; a predicate before a bare copula ("S X nahi hai") is "S is [not] X"; a
  postpositional phrase becomes a prepositional one ("apply_gradients se" -> "by
  apply_gradients"); a few particles and Hindi verbs are glossed ("sirf" -> "only",
  "nikalta" -> "computes"). The denial is written as "not" before the verb, where the
  existing polarity reader reads it.
- `POST_VERBAL_NEGATION`: "update nahi karta" as written denies the verb before it.
Everything is a word-by-word pass: linear in the sentence's length.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas

# Postpositions (after their noun): "weights ko", "tape ke andar", "4 se".
POSTPOSITIONS = frozenset("ka ki ke ko se mein me mei pe par tak ne wala wale wali".split())  # noqa: SIM905
# The second word of a compound postposition ("ke liye", "ke andar", "ki tarah").
_COMPOUND_TAILS = frozenset(
    "liye andar bahar baad saath sath bina upar neeche pehle through tarah jaisa jaise".split()  # noqa: SIM905
)
# Light verbs, auxiliaries and the copula that close a Hindi clause: "update karta hai",
# "record ho jaata hai", "reset kar do", "call karo".
LIGHT_VERBS = frozenset(
    """hai hain ho hu hoon tha thi the hota hoti hote hoga hogi honge hua hue hui karta karti
    karte kar karo karna karne karni karega karegi karenge kiya kiye ki kare karein jaata jata
    jaati jati jaate jate jayega jaayega jayegi jaenge jaayenge jaega gaya gayi gaye jao jaana
    deta deti dete diya diye dena dete dijiye leta leti lete liya liye lena lo sakta sakti
    sakte sakega padta padti padte padega padegi pada chahiye raha rahi rahe rehta rehti rehte
    rakho rakhna do de dena""".split()  # noqa: SIM905
)
# Negations: before a light verb ("update nahi karta", "update na kare") or closing a clause.
# DENIALS are the ones the English readers also read as a denial (phrasings.CUE and
# POST_VERBAL_NEGATION); "nai" counts as glue only.
DENIALS = frozenset("nahi nahin nahiin nhi mat".split())  # noqa: SIM905
NEGATIONS = DENIALS | {"nai"}
_CLAUSE_NEGATIONS = NEGATIONS | {"na"}
# Conjunctions, particles, pronouns and other words of Hindi's sentence frame.
_FRAME = frozenset(
    """aur ya lekin magar kyunki kyonki kyuki kyoki warna varna isliye jabki agar toh jab tab
    phir fir taaki matlab yaani sirf bas bhi hi yeh ye woh wo vo yahan wahan kahin kuch koi
    sab saare sare sabhi har ek dono apna apne apni uska uski uske unka unki unke iska iski
    iske inka jo jis jise jisse kaise kyun kya aap hum tum main mujhe humein usko isko unko
    inko isse usse""".split()  # noqa: SIM905
)
HINDI_GLUE = POSTPOSITIONS | _COMPOUND_TAILS | LIGHT_VERBS | NEGATIONS | _FRAME | {"na"}
# Hindi words English also spells: they never mark a sentence as code-switched by themselves.
_SHARED_SPELLING = frozenset(
    "to the do me par hi ho main ki ban mat na jo tab ya lo hu ne kar ek har sab".split()  # noqa: SIM905
)
MIN_HINDI_WORDS = 2

_WORD = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]")


def is_code_switched(words: list[str]) -> bool:
    """Whether lower-case words carry MIN_HINDI_WORDS+ Hindi glue words English never spells."""
    return sum(w in HINDI_GLUE and w not in _SHARED_SPELLING for w in words) >= MIN_HINDI_WORDS


def glue_flags(
    words: list[str], english: frozenset[str], switched: bool | None = None
) -> list[bool]:
    """For each lower-case word, whether it is Hindi glue in a place Hindi grammar puts it
    (see the module's docstring): a postposition after a content word and before no other
    postposition or light verb, a light verb after a verb, a negation or another light verb
    and before no postposition; never a word right after itself. `english` is the caller's
    table of English glue words (no content word either). All False unless the words (or,
    given `switched`, the answer they come from) are code-switched."""
    if not (is_code_switched(words) if switched is None else switched):
        return [False] * len(words)
    flags = []
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        content_before = bool(before) and before not in HINDI_GLUE and before not in english
        if word == before:  # "hai hai hai": a word after itself is no chain
            flag = False
        elif word in POSTPOSITIONS:
            flag = content_before and after not in POSTPOSITIONS and after not in LIGHT_VERBS
        elif word in _COMPOUND_TAILS:
            flag = before in POSTPOSITIONS or content_before
        elif word in LIGHT_VERBS:
            flag = after not in POSTPOSITIONS and (
                content_before or before in LIGHT_VERBS or before in _CLAUSE_NEGATIONS
            )
        elif word in _CLAUSE_NEGATIONS:
            flag = content_before or before in LIGHT_VERBS
        else:
            flag = word in _FRAME and before not in _FRAME
        flags.append(flag)
    return flags


# A salad's Hindi pairs: two postpositions in a row ("ka ki", "ko se") that no compound
# postposition writes; English spells none of these words.
SALAD_POSTPOSITIONS = POSTPOSITIONS - {"me", "par", "ne", "wala", "wale", "wali"}


# Hindi verbs the answers use for what English phrasings name: stem -> English verb.
_VERB_STEMS = {
    "nikal": "computes", "nikaal": "computes", "laga": "applies", "lag": "applies",
    "badal": "changes", "badl": "changes", "rakh": "keeps", "bana": "creates",
    "chala": "runs", "chal": "runs", "jod": "adds", "jor": "adds", "hata": "removes",
    "bhool": "forgets", "bhul": "forgets", "padh": "reads", "daal": "puts", "dal": "puts",
    "mil": "gets", "de": "gives", "le": "takes", "bata": "tells",
    "ghata": "subtracts", "bhej": "sends", "sambhal": "holds",
}  # fmt: skip
_VERB_ENDINGS = ("ta", "ti", "te", "o", "na", "ne", "ega", "egi", "enge", "a", "e", "kar")
_SHORT_STEMS = frozenset({"de", "le", "mil", "lag", "dal"})  # only with a clear verb ending


@lru_cache(maxsize=4096)
def hindi_verb(word: str) -> str | None:
    """The English verb a Hindi verb form glosses ("nikalta" -> "computes"), or None."""
    for ending in _VERB_ENDINGS:
        stem = word[: -len(ending)] if word.endswith(ending) else ""
        if stem in _VERB_STEMS and (stem not in _SHORT_STEMS or ending in ("ta", "ti", "te")):
            return _VERB_STEMS[stem]
    return None


# Particles glossed in place (the word they qualify stays where it is).
_GLOSS = {
    "sirf": "only", "bas": "only", "hi": "only", "bhi": "also", "saare": "all", "sare": "all",
    "sab": "all", "sabhi": "all", "har": "every", "koi": "any", "kuch": "some", "yeh": "this",
    "ye": "this", "woh": "it", "wo": "it", "vo": "it", "dono": "both", "ek": "one",
    "naya": "new", "naye": "new", "nayi": "new", "kabhi": "ever", "hamesha": "always",
}  # fmt: skip
# Postposition -> the preposition English puts before the same noun.
_PREPOSITION = {
    "se": "by", "mein": "in", "me": "in", "mei": "in", "pe": "on", "par": "on", "tak": "until",
    "andar": "inside", "bahar": "outside", "baad": "after", "pehle": "before",
    "liye": "for", "saath": "with", "sath": "with", "bina": "without", "upar": "on",
}  # fmt: skip
_GENITIVE = frozenset({"ka", "ki", "ke"})
# Conjunctions that part clauses, glossed: "warna" is "otherwise", "kyunki" "because".
_CONJUNCTION = {
    "aur": "and", "lekin": "but", "magar": "but", "kyunki": "because", "kyonki": "because",
    "kyuki": "because", "kyoki": "because", "warna": "otherwise", "varna": "otherwise",
    "isliye": "so", "toh": "so", "jabki": "whereas", "agar": "if", "jab": "when",
    "phir": "then", "fir": "then", "taaki": "so that", "matlab": "meaning", "yaani": "meaning",
}  # fmt: skip


def glossed_as(*english: str) -> frozenset[str]:
    """The Hindi conjunctions glossed as these English ones: the clause breaks the English
    readers add for Hinglish (phrasings.TERMINATOR, claims' contrasts, statements' "otherwise")."""
    return frozenset(hindi for hindi, gloss in _CONJUNCTION.items() if gloss in english)


def alternation(words: frozenset[str]) -> str:
    """Words as a regular expression's alternatives (sorted, so the pattern is stable)."""
    return "|".join(sorted(words))


_COPULA = frozenset("hai hain ho hu hoon tha thi hota hoti hote hoga hogi honge".split())  # noqa: SIM905
_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = re.compile(r"^([\"'`(\[]*)(.*?)([\"'`)\].,;:!?]*)$", re.DOTALL)


@lru_cache(maxsize=4096)
def english_order(sentence: str) -> str:
    """The English-order twin of a code-switched sentence; the sentence itself otherwise."""
    tokens = _TOKEN.findall(sentence)
    words = [_EDGE_PUNCT.match(t).group(2).lower() for t in tokens]  # type: ignore[union-attr]
    if not is_code_switched(words):
        return sentence
    out: list[str] = []
    clause: list[tuple[str, str]] = []  # (word as written, lower case)
    for token in tokens:
        lead, word, trail = _EDGE_PUNCT.match(token).groups()  # type: ignore[union-attr]
        lower = word.lower()
        if lower in _CONJUNCTION and not lead:
            out += _reordered(clause)
            out.append(_CONJUNCTION[lower])
            clause = []
            continue
        if lead:
            out += _reordered(clause)
            clause = []
            out.append(lead)
        if word:
            clause.append((word, lower))
        if trail:
            out += _reordered(clause)
            clause = []
            out[-1:] = [out[-1] + trail] if out else [trail]
    out += _reordered(clause)
    return " ".join(w for w in out if w)


_EMPHASIS = frozenset({"bhi", "hi"})  # between a verb and its light verbs: "touch bhi nahi karta"
_IMPERATIVE = frozenset("karo kar do dijiye karna karein lo rakho jao".split())  # noqa: SIM905


def _reordered(clause: list[tuple[str, str]]) -> list[str]:
    """One clause: its verb-final chain read as "S [not] V O", its postpositions as
    prepositions and its particles glossed (see the module's docstring)."""
    if not clause:
        return []
    lowers = [lower for _, lower in clause]
    end = len(clause)
    while end and lowers[end - 1] in LIGHT_VERBS | _CLAUSE_NEGATIONS | _EMPHASIS:
        end -= 1
    chain = [w for w in lowers[end:] if w not in _EMPHASIS]
    if chain and chain[-1] == "na":  # "simple hai na": a tag asking for agreement
        chain = chain[:-1]
    denied = any(w in _CLAUSE_NEGATIONS for w in chain)
    verbs = [w for w in chain if w not in _CLAUSE_NEGATIONS]
    imperative = bool(verbs) and verbs[-1] in _IMPERATIVE
    verb: str | None = None
    if end and (glossed := hindi_verb(lowers[end - 1])) is not None:
        verb, end = glossed, end - 1
        imperative = imperative or lowers[end].endswith(("o", "na"))
    elif end >= 2 and verbs:
        written = clause[end - 1][0]
        copula = all(w in _COPULA for w in verbs) and not _english_verb(lowers[end - 1])
        verb = ("is " + written) if copula else written
        end -= 1
    phrases, object_marked = _phrases(clause[:end])
    negation = ["not"] if denied else []
    if verb is None:
        return [w for phrase in phrases for w in phrase] + negation
    if verb.startswith("is "):
        return [w for p in phrases for w in p] + ["is", *negation, verb[3:]]
    if not phrases:
        return [*negation, verb]
    if len(phrases) == 1 and not (imperative or object_marked):
        return [*phrases[0], *negation, verb]  # "tape record karta hai": subject, verb
    subject = [w for p in phrases[:-1] for w in p]
    return [*subject, *negation, verb, *phrases[-1]]


@lru_cache(maxsize=4096)
def _english_verb(word: str) -> bool:
    """Whether an English word can be a verb ("update", "changes"): before "hota hai" it
    is what happens, not a predicate of the copula ("None hota hai")."""
    return "VERB" in getAllLemmas(word)


def _phrases(clause: list[tuple[str, str]]) -> tuple[list[list[str]], bool]:
    """A clause's words grouped into phrases in English order ("apply_gradients se" ->
    "by apply_gradients", "model ke weights" -> "weights of model"; glossed particles join
    the next phrase), and whether the last phrase was marked as an object ("weights ko")."""
    phrases: list[list[str]] = []
    pending: list[str] = []  # glossed particles waiting for their phrase
    owner: list[str] | None = None  # "model ke ...": the phrase that owns the next one
    object_marked = False
    for word, lower in clause:
        if lower in _GENITIVE and phrases and owner is None:
            owner = phrases.pop()
            continue
        if lower in ("ko", "ne") and phrases:
            object_marked = lower == "ko"
            continue
        if lower in _PREPOSITION and (phrases or owner):
            governed = owner if owner is not None else phrases.pop()
            phrases.append([_PREPOSITION[lower], *governed])
            owner = None
            continue
        object_marked = False
        if lower in _EMPHASIS and phrases:  # "apply_gradients hi": after what it stresses
            phrases[-1].append(_GLOSS[lower])
            continue
        if lower in _GLOSS:
            pending.append(_GLOSS[lower])
            continue
        phrase = [*pending, word]
        if owner is not None:
            phrase += ["of", *owner]
            owner = None
        phrases.append(phrase)
        pending = []
    if owner is not None:
        phrases.append(owner)
    if pending:
        phrases.append(pending)
    return phrases, object_marked


# "update nahi karta", "reset na karo", "watch mat karo": a negation right after a match
# (the verb it denies), closing the clause or followed by a light verb.
_LIGHT = "|".join(sorted(LIGHT_VERBS, key=len, reverse=True))
POST_VERBAL_NEGATION = re.compile(
    rf"\s+(?:(?:{alternation(DENIALS)})\b(?!\s+(?:sirf|bas|only)\b)"
    rf"|na\b(?=\s+(?:{_LIGHT})\b))",
    re.IGNORECASE,
)
