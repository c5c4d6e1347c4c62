"""Shape signals that say whether an answer makes statements at all.

A rule-based matcher can be gamed by pasting the right terms ("tape, loss, inside, None,
trainable_variables"). Real explanations, even terse or non-native ones, carry verbs,
modals and connectives; a bag of terms carries almost none. We measure that share on the
prose (code is judged by the phrasings themselves).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

from lemminflect import getAllLemmas

from app.grading.freetext.glue_templates import MIN_REPEATS, template_share
from app.grading.freetext.hinglish import SALAD_POSTPOSITIONS, glue_flags, is_code_switched
from app.grading.freetext.injections import addresses_grader
from app.grading.freetext.normalise import MAX_CHARS, Normalised
from app.grading.freetext.word_order import long_run_score, order_score, tokens

FUNCTION_WORDS = frozenset(
    """a an the this that these those it its they them their you your we our i my he she
    is are was were be been being am do does did done doing has have had having will would
    can could should must may might shall need needs needed to of in on at for from by with
    one another other into onto about as than then so because since if when while after
    before until unless
    not no never nothing n't dont doesnt isnt without and or but also only just still even
    which who what where why how there here all each every any some both either neither nor
    get gets got become becomes make makes made keep keeps let lets it's you're don't
    doesn't isn't aren't won't can't didn't otherwise instead rather via like means happen
    happens give gives take takes""".split()  # noqa: SIM905 - a word list reads best as text
)
_WORD = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]")  # identifiers stay one word
MIN_WORDS_FOR_SHAPE = 4
MIN_FUNCTION_SHARE = 0.12
LIST_FUNCTION_SHARE = 0.3
BARE_FUNCTION_SHARE = 0.06


def prose_words(normalised: Normalised) -> list[str]:
    text = " ".join(u.text for u in normalised.units if not u.is_code)
    return [w.lower() for w in _WORD.findall(text)]


def function_share(words: list[str]) -> float:
    """The share of sentence glue: English function words, and (round 27) Hindi ones where
    code-switched Hinglish puts them (hinglish.glue_flags: "weights ko update karta hai",
    not a tail of "hai ka ki ko")."""
    if not words:
        return 0.0
    hindi = glue_flags(words, FUNCTION_WORDS)
    return sum(w in FUNCTION_WORDS or h for w, h in zip(words, hindi, strict=True)) / len(words)


def _is_list_shaped(normalised: Normalised) -> bool:
    """Mostly short items separated by commas, semicolons or lines: a list of terms."""
    text = "\n".join(u.text for u in normalised.units if not u.is_code)
    # An arrow between terms states something ("gradient -> backprop"); it joins an item.
    items = [i for i in re.split(r"[,;\n]|\s-+\s|\.\s", text) if i.strip()]
    switched = is_code_switched([w.lower() for w in _WORD.findall(text)])
    return len(items) >= 4 and sum(_is_term(i, switched) for i in items) >= 0.75 * len(items)


def _punctuated(normalised: Normalised) -> bool:
    """Whether the prose marks any clause ("x. y", "x: y", "x -> y"); a run of terms does not."""
    text = " ".join(u.text for u in normalised.units if not u.is_code)
    return re.search(r"[.:;!?]\s|->|[.!?]$|\(", text.strip()) is not None


def _is_term(item: str, switched: bool = False) -> bool:
    """A bare term: at most three words, none of them a function word. Terse statements
    ("Nothing recorded", "Indent it", "grads return karo") carry one."""
    words = [w.lower() for w in _WORD.findall(item)]
    hindi = glue_flags(words, FUNCTION_WORDS, switched)
    return len(words) <= 3 and not any(w in FUNCTION_WORDS for w in words) and not any(hindi)


def is_keyword_list(normalised: Normalised) -> bool:
    """True when the prose is a list of terms with (almost) no statement in it."""
    words = prose_words(normalised)
    has_code = any(u.is_code for u in normalised.units)
    share = function_share(words)
    if len(words) < MIN_WORDS_FOR_SHAPE or (has_code and len(words) < 2 * MIN_WORDS_FOR_SHAPE):
        return False  # too short to judge its shape; the rubric alone decides
    if is_word_salad(normalised) or is_glue_template(normalised):
        return True
    if _shuffled_after_the_cut([u.text for u in normalised.units if not u.is_code]):
        return True
    list_shaped = _is_list_shaped(normalised)
    if share < MIN_FUNCTION_SHARE and len(words) >= 2 * MIN_WORDS_FOR_SHAPE:
        # Terse experts drop function words too, but write clauses ("traces python ->
        # graph once: no per-op dispatch"); a bag of terms has almost none, or is a list.
        return share < BARE_FUNCTION_SHARE or list_shaped or not _punctuated(normalised)
    return share < LIST_FUNCTION_SHARE and list_shaped


# Round 9 (issue 14): words of the topic in random order, function words included ("the
# tape is not gradient the, apply_gradients of loss the. inside"), carry as many function
# words as prose, so the shares above pass them, and 5,000 characters of them spell most
# concepts somewhere. English never puts an article before another function word or a
# punctuation mark ("the is", "a of", "the ."), a preposition before an auxiliary, a
# conjunction or another preposition ("of is", "in and", "to of"), or a core word twice in
# a row ("is is"; a topic word twice is padding, read below). Random words of a model answer
# do so once in every 8-25 words (once in 22-150 without articles); no labelled answer (all
# 2,559, every persona; round 10: 2,799, one has 5) has more than 4 such pairs, hence
# MIN_MISPLACED; the share keeps a long real answer's few from adding up.
_ARTICLES = frozenset(["the", "a", "an"])
_NOT_AFTER_ARTICLE = frozenset(
    """the a an is are was were be been to of and or but not no in on at for with by from it
    its they you we i this that these those does do did has have had will can would should
    could must if then so than as because which who when where""".split()  # noqa: SIM905
)
_PREPOSITIONS = frozenset("of in on at for with by from into to".split())  # noqa: SIM905
_NOT_AFTER_PREPOSITION = frozenset(
    """is are was were of to in on at for with by from into and or but can will does did
    has had""".split()  # noqa: SIM905
)
# Round 10: "not" and "no" are never followed by a form of "be", a conjunction or another
# cue ("not is", "no and", "not never"), "never" by a conjunction or "no" ("never was" is
# English), nor a subordinator by a finite "be" or "have" ("if is", "because was"): none of
# these pairs occurs in the 2,799 labelled answers, while random words without articles
# (whose other misplaced pairs are rarer) write them as often as the pairs above.
_NOT_AFTER_NEGATION = {
    "not": frozenset("is are was were and or but not no never".split()),  # noqa: SIM905
    "no": frozenset("is are was were and or but not no never".split()),  # noqa: SIM905
    "never": frozenset("and or but no never".split()),  # noqa: SIM905
}
_SUBORDINATORS = frozenset("because if while unless although whereas since".split())  # noqa: SIM905
_NOT_AFTER_SUBORDINATOR = frozenset("is are was were has had".split())  # noqa: SIM905
_TOKEN = re.compile(r"[A-Za-z][\w'.-]*[\w']|[A-Za-z]|[.,;:!?)]")
MIN_MISPLACED = 8
MISPLACED_SHARE = 0.01
# Round 10: any other word twice in a row ("outer outer", "x x") counts too - random words
# of a model answer whose function words are few (higher-order-derivatives) double their
# topic words 6-30 times in 5,000 characters, labelled answers at most twice ("w w") - but
# doubled words alone never make salad: a padded answer with its topic words each written
# twice is padding, cut (round 9). At least MIN_GRAMMAR_MISPLACED pairs must be the
# function-word pairs above.
MIN_GRAMMAR_MISPLACED = 4


def is_word_salad(normalised: Normalised) -> bool:
    """True when the prose puts MIN_MISPLACED+ words, and at least MISPLACED_SHARE of its
    words, where English never does (above): words in random order, not statements."""
    text = " ".join(u.text for u in normalised.units if not u.is_code)
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    if len(tokens) < MIN_MISPLACED:
        return False
    pairs = list(zip(tokens, [*tokens[1:], "."], strict=True))
    grammar = sum(_misplaced(a, b) for a, b in pairs)
    doubled = sum(a == b and a[0].isalpha() and a not in _CORE for a, b in pairs)
    misplaced = grammar + doubled
    words = sum(t[0].isalpha() for t in tokens)
    return (
        grammar >= MIN_GRAMMAR_MISPLACED
        and misplaced >= MIN_MISPLACED
        and misplaced >= MISPLACED_SHARE * words
    )


# Round 28: one glue template between every term ("the lr of the zip of the pairs of ...",
# "lr ka zip ki ...", glue_templates.py) over TEMPLATE_SHARE+ of the prose. In the 7,029
# tune answers, templates of MIN_REPEATS+ repeats cover at most 0.41 of an answer, and
# one answer repeats one five times (PADDING_REPEATS, below, is past it).
TEMPLATE_SHARE = 0.6


def is_glue_template(normalised: Normalised) -> bool:
    """True when most of the prose repeats one short frame of glue, a term in each slot."""
    text = " ".join(u.text for u in normalised.units if not u.is_code)
    return template_share(text, GLUE_WORDS) >= TEMPLATE_SHARE


def _misplaced(a: str, b: str) -> bool:
    """Whether English never writes word `b` right after word `a` (lowercase tokens)."""
    return (
        (a in _ARTICLES and (b in _NOT_AFTER_ARTICLE or not b[0].isalpha()))
        or (a in _PREPOSITIONS and b in _NOT_AFTER_PREPOSITION)
        or b in _NOT_AFTER_NEGATION.get(a, ())
        or (a in _SUBORDINATORS and b in _NOT_AFTER_SUBORDINATOR)
        or (a == b and a in _CORE)
        or (a in SALAD_POSTPOSITIONS and b in SALAD_POSTPOSITIONS)  # round 27: "ka ki"
    )


# Round 38 (engineer S1): a short shuffle - 30 to 120 words of a model answer in random order,
# as one sentence or a few - misplaces too few words for the readings above (they need
# MIN_MISPLACED pairs: a 60-word shuffle has 1-5) yet spells a concept or three. It is read by
# its order instead (word_order.py: the mean of how much more often English writes each
# adjacent pair of word classes than chance; the table is counted from the documentation,
# not from answers). Over MIN_ORDER_PAIRS+ pairs, a mean under ORDER_FLOOR less ORDER_SPREAD
# per square root of the pairs (a short text's mean strays further) is words out of order.
# Over the 9,429 tune answers (all personas) no answer, and no padding segment, is under it
# (the closest answer sits 0.07 above). Of benchmarks/freetext_shuffles.py's 960 shuffles, the
# rules graded 157 correct on the round's start tree and 44 with this and the bare items below
# (is_padding reads each segment the same way). ORDER_FLOOR -0.1 without
# word_order.PAIR_FLOOR caught 11 more, the closest answer 0.02 above: too near.
MIN_ORDER_PAIRS = 20
ORDER_FLOOR = -0.03
ORDER_SPREAD = 2.0
# A shuffle written with commas lists function words as items ("tape, the, records, of, is"):
# English lists terms, never a bare "the" or "of" between two commas. No tune answer has more
# than 2 such items; a 30-word shuffle has 4-19.
MIN_BARE_FUNCTION_ITEMS = 4
_ITEM_BREAK = re.compile(r"[,;]")
# Round 39 (engineer S2): the line above sits low because some real answers score low as a
# whole - 186 tune answers of 20+ pairs under 0.05; of the 90 with 30+ pairs under zero, 53
# code-switched Hinglish, the rest non-native or note-like - and all of them are short pieces:
# none has a run of more than 23 words without a punctuation mark. A shuffle written as one
# sentence, or cut into two to four, is mostly long runs. So the runs of LONG_RUN_WORDS+ words
# without punctuation are read again on their own (word_order.long_run_score, pooled): over
# MIN_LONG_RUN_PAIRS+ pairs, a mean under LONG_RUN_FLOOR less LONG_RUN_SPREAD per square root
# of the pairs is words shuffled. In the 9,669 tune answers (all personas, and every padding
# segment of them) the lowest long-run mean sits 0.15 above this line; of the 44 shuffles the
# rules still graded correct, 28 are under it (benchmarks/freetext_shuffles.py).
LONG_RUN_WORDS = 20
MIN_LONG_RUN_PAIRS = 25
LONG_RUN_FLOOR = 0.1
LONG_RUN_SPREAD = 1.5


def is_out_of_order(clauses: list[str]) -> bool:
    """True when prose (its clauses, or one padding segment) puts its words in an order
    English does not write (above): words shuffled, not statements."""
    tokenised = [tokens(c) for c in clauses]
    return _scored_out_of_order(clauses, tokenised, order_score(tokenised))


def _scored_out_of_order(
    clauses: list[str], tokenised: list[list[str]], scored: tuple[float, int]
) -> bool:
    """`is_out_of_order` once the clauses' words and their order score are read (round 40:
    `_shuffled_after_the_cut` reads that score itself first, and no longer reads it twice)."""
    score, pairs = scored
    if pairs >= MIN_ORDER_PAIRS and score < ORDER_FLOOR - ORDER_SPREAD / math.sqrt(pairs):
        return True
    score, pairs = long_run_score(tokenised, LONG_RUN_WORDS)
    if pairs >= MIN_LONG_RUN_PAIRS and score < LONG_RUN_FLOOR - LONG_RUN_SPREAD / math.sqrt(pairs):
        return True
    return _bare_function_items(clauses) >= MIN_BARE_FUNCTION_ITEMS


# Round 39 (engineer S2): the whole prose out of order makes a keyword list only when what the
# padding cut leaves (without_padding, each prose unit) cannot be read as the answer: under
# MIN_ORDER_PAIRS pairs (too short to judge), under LEFT_IN_ORDER on average, or out of order
# itself. A right answer with a shuffle or a pumped run appended is graded on the answer - the
# padding earns nothing, as a tail of terms has earned nothing since round 9 - while a shuffle
# whose pieces are each too short to cut stays a keyword list. With the long-run reading above
# and no such cut, a model answer with a 30-120-word shuffle appended was a keyword list in 275
# of 360 draws (correct 79); with the cut first, 259 are correct (the model answers alone: 10 of
# 10), and no shuffle alone is raised (benchmarks/freetext_shuffles.py). No tune answer's prose
# is out of order as a whole, so no real answer can move by it.
LEFT_IN_ORDER = 0.1


def _shuffled_after_the_cut(prose: list[str]) -> bool:
    """Whether the prose is out of order and what the padding cut leaves of it is no answer."""
    if not is_out_of_order(prose):
        return False
    left = [kept for p in prose if (kept := without_padding(p)).strip()]
    tokenised = [tokens(c) for c in left]
    scored = order_score(tokenised)
    score, pairs = scored
    return (
        pairs < MIN_ORDER_PAIRS
        or score < LEFT_IN_ORDER
        or _scored_out_of_order(left, tokenised, scored)
    )


def _bare_function_items(clauses: list[str]) -> int:
    """How many list items between two commas are one function word alone (", the,")."""
    count = 0
    for clause in clauses:
        items = _ITEM_BREAK.split(clause)
        count += sum(i.strip().lower() in GLUE_WORDS for i in items[1:-1])
    return count


def is_injection(normalised: Normalised, answer: str) -> bool:
    """True when the answer talks to the grader (prompt injection, injections.py), whatever
    else it says: such an answer is gaming the grader and earns nothing. `answer`, the text
    as submitted, is read for HTML comments too: normalise drops them before anything reads
    the answer (so they steer nothing), yet one that addresses the grader is still gaming.
    It is required (round 10): with a default, a caller passing only the normalised text
    silently read no comment."""
    if any(addresses_grader(u.text, prose=not u.is_code) for u in normalised.units):
        return True
    return any(addresses_grader(c) for c in _HTML_COMMENT.findall(answer[:MAX_CHARS]))


_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)


# Padding (issue 14): a half-right answer with a tail of topic words appended ("... optimizer
# rule record chain update pass list") must not earn the concepts those words spell. The
# keyword-list reading above judges the whole answer; padding hides inside a real one, so
# the same reading is applied to each clause-free segment of a sentence. A segment of
# MIN_PADDING_WORDS words or more with almost no sentence structure - grammatical glue
# (articles, prepositions, auxiliaries, pronouns, conjunctions) or an inflected verb
# ("returns", "touched": a predicate, even in a terse note) - is a run of terms, not a
# claim: it earns no credit.
_GLUE = frozenset(
    """a an the this that these those it its they them their you your we our i my he she
    is are was were be been being am does did has have had will would can could should must
    may might shall to of in on at for from by with into onto about as than then so because
    since if when while after before until unless and or but which who what where how there
    here via it's you're isn't aren't doesn't don't won't can't didn't between across per
    over through during within inside outside under against along like upon not without
    around throughout among beside behind beyond toward towards above below beneath near
    all each every both any some no
    """.split()  # noqa: SIM905
)
# Round 37: the other prepositions and the quantifying determiners are glue as the articles
# are: "Use one tape around all four micro-batches" (7 words, none of them glue before) was
# cut as padding, so the lead-in before a code block stated nothing.
# Clause marks that structure a terse statement: "traces python -> graph once: no dispatch".
# A bracket or a dash elaborates its clause ("cheap ops (small MLPs, RNN cells)"): no break.
SEGMENT_BREAK = re.compile(r"->|=>|[:;=]|[.!?](?=\s|$)")
MIN_PADDING_WORDS = 6
PADDING_GLUE_SHARE = 0.1
# Round 28: a segment holding a glue template repeated this often is padding, whatever
# else it says (no tune answer repeats one more than five times; see TEMPLATE_SHARE).
PADDING_REPEATS = MIN_REPEATS + 2


def is_padding(segment: str, switched: bool | None = None) -> bool:
    """True when a clause-free stretch of prose is a run of terms (see above), or a long
    unpunctuated bag of words (below). Hindi glue where Hinglish puts it is structure too
    (round 27; `switched`: whether the sentence is code-switched, hinglish.py)."""
    words = [w.lower() for w in _WORD.findall(segment)]
    if len(words) < MIN_PADDING_WORDS:
        return False
    hindi = glue_flags(words, _GLUE, switched)
    structure = sum(
        w in _GLUE or h or _inflected_verb(w) for w, h in zip(words, hindi, strict=True)
    )
    return (
        structure < PADDING_GLUE_SHARE * len(words)
        or _is_bag(segment, words, hindi)
        or template_share(segment, GLUE_WORDS, PADDING_REPEATS) > 0
        or is_out_of_order([segment])  # round 38: a short shuffle inside an answer
    )


# Round 7: a bag of on-topic words drawn from real answers carries glue and verb forms
# ("inside", "before", "returns"), so it passes the structure share above. What it lacks
# are the few words nearly every English clause is built from - articles, "is", "to", "of",
# "and", pronouns: a stretch of MIN_BAG_WORDS+ words with no punctuation inside (a list or
# a bracket is read above) and under BAG_CORE_SHARE of them is a bag, not a sentence.
_CORE = frozenset(
    """the a an is are was were be to of and or it its in on that this you we i for with as
    by not no so if then but at from can will does do has have they them it's that's there's
    don't doesn't isn't aren't can't won't you're""".split()  # noqa: SIM905
)
# Every glue word above: glue_templates.py's, and the words word_order.json keeps as themselves.
GLUE_WORDS = FUNCTION_WORDS | _GLUE | _CORE
MIN_BAG_WORDS = 10
BAG_CORE_SHARE = 0.05
_LISTED = re.compile(r"[,()\[\]]")


def _is_bag(segment: str, words: list[str], hindi: list[bool]) -> bool:
    if _is_bag_list(segment):
        return True
    if len(words) < MIN_BAG_WORDS or _LISTED.search(segment):
        return False  # lists and brackets in real answers go without such words ("(BN stats,
        # frozen layers)", "small nets, small batches, many ops"): the readings above judge them
    core = sum(w in _CORE or h for w, h in zip(words, hindi, strict=True))
    return core < BAG_CORE_SHARE * len(words)


# The same bag written as a list: MIN_BAG_ITEMS+ comma-separated single words, none of
# them a core word ("record, path, variable, before, outside, only, with, inside, has").
MIN_BAG_ITEMS = 8


def _is_bag_list(segment: str) -> bool:
    items = [_WORD.findall(i) for i in segment.split(",") if i.strip()]
    return len(items) >= MIN_BAG_ITEMS and all(
        len(i) == 1 and i[0].lower() not in _CORE for i in items
    )


@lru_cache(maxsize=8192)
def _inflected_verb(word: str) -> bool:
    """ "returns", "touched", "held": a verb form other than its dictionary form."""
    return any(lemma != word for lemma in getAllLemmas(word, "VERB").get("VERB", ()))


# Remembered per text: the grader cuts each prose unit (grader._claims_only) and the second
# opinion's features cut the same units again; since round 38 each cut also reads word order.
@lru_cache(maxsize=1024)
def without_padding(text: str) -> str:
    """A prose sentence with its padding segments, and any bare tail of a segment, taken
    out (the clause marks stay)."""
    kept: list[str] = []
    start, padded = 0, False
    switched = is_code_switched([w.lower() for w in _WORD.findall(text)])
    for mark in [*SEGMENT_BREAK.finditer(text), None]:
        segment = text[start : mark.start() if mark else len(text)]
        if is_padding(segment, switched):
            segment, padded = " ", True
        elif tail := _bare_tail(segment, switched):
            segment, padded = segment[:tail], True
        kept.append(segment)
        if mark:
            kept.append(mark.group())
            start = mark.end()
    return " ".join("".join(kept).split()) if padded else text


# A tail appended without a full stop joins the last sentence's segment, whose glue hides
# it; a run of this many structure-free words ending a segment is cut on its own (real
# answers' runs ending a segment are shorter: no labelled verdict or tag moves).
MIN_TAIL_WORDS = 8


def _bare_tail(segment: str, switched: bool = False) -> int:
    """Where a trailing run of MIN_TAIL_WORDS+ structure-free words, or a trailing bag of
    MIN_BAG_WORDS+ words with no core word and no list mark (above), starts (0: none).
    Hindi glue where Hinglish puts it stops either run (round 27)."""
    words = list(_WORD.finditer(segment))
    lowers = [m.group().lower() for m in words]
    glued = {
        m.start() for m, h in zip(words, glue_flags(lowers, _GLUE, switched), strict=True) if h
    }
    run = _trailing_run(words, lambda m: m.start() in glued or _structure(m.group().lower()))
    marks = [m.end() for m in _LISTED.finditer(segment)]
    bag = _trailing_run(
        [m for m in words if m.start() >= max(marks, default=0)],
        lambda m: m.start() in glued or m.group().lower() in _CORE,
    )
    longest = max(run if run >= MIN_TAIL_WORDS else 0, bag if bag >= MIN_BAG_WORDS else 0)
    return words[-longest].start() if 0 < longest < len(words) else 0


def _structure(word: str) -> bool:
    return word in _GLUE or _inflected_verb(word)


def _trailing_run(words: list[re.Match[str]], stops: Callable[[re.Match[str]], bool]) -> int:
    """How many words at the end come before (after, reading backwards) a stopping word."""
    run = 0
    for match in reversed(words):
        if stops(match):
            break
        run += 1
    return run
