"""Turn a raw free-text answer into clean units the matcher can read one at a time.

Candidates paste HTML, Markdown, code and curly quotes; the grader must read all of it as
plain text (the templates escape whatever is shown back). We cap the length, strip markup
to its text, normalise spelling variants that carry no meaning (quotes, `zero grad` vs
`zero_grad`), and split the answer into sentences of prose and blocks of code, because
negation is judged inside a sentence and code is not prose.
"""

from __future__ import annotations

import ast
import html
import re
import unicodedata
from dataclasses import dataclass

import regex

from app.grading.freetext.hinglish import english_order
from app.grading.freetext.injections import LOOKALIKES
from app.grading.freetext.labels import code_span, lead_in_and_tail
from app.grading.freetext.lemmas import lemma_text
from app.grading.freetext.retraction import withdraw

MAX_CHARS = 5_000  # longer answers are graded on their first 5,000 characters

_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)[^<>]*>|<!--.*?-->", re.DOTALL)
_BLOCK_TAGS = {"p", "br", "div", "li", "pre", "tr", "h1", "h2", "h3", "h4", "ul", "ol"}
_DROP_CONTENT = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": " - ",
     "\u2014": " - ", "\u2192": " -> ", "\u00a0": " "}
)  # fmt: skip
# Zero-width characters, bidi marks, embeddings, overrides and isolates: invisible, or
# reordering what a reader sees, never a word's letters.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
# A word that mixes Latin letters with Cyrillic or Greek ones that look the same
# ("updаtes" with a Cyrillic "а") is the Latin word to a reader: it is read as one, so a
# tell cannot hide behind lookalikes. Words in one script (Russian, Greek, "λ") stay.
_WORD_CHARS = re.compile(r"\w+")
# Markdown bold around prose words ("every variable **before** the conversion"): the words
# are read without the markers (round 9). Not `x**2` or `f(**kwargs)`.
_BOLD = re.compile(r"(?<![\w*])\*\*(?=[^\s*])([^*\n()]+?)(?<=[^\s*])\*\*(?![\w*])")
# A semicolon only ends a clause (the matcher's terminators): "it does not update the
# weights; it only returns them" keeps its subject for the second clause. An ellipsis is a
# pause, not a sentence end ("the loss... is computed after the block").
_SENTENCE_END = re.compile(
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<!\bcf\.)(?<=[.!?])\s+(?=\S)|(?<=[.!?][\"')])\s+",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(r"\.{2,}|\u2026")
_CODE_LINE = re.compile(
    r"^\s*(?:with\s+\S.*:|def\s+\w+\(.*|for\s+.+:|if\s+.+:|import\s+\w+.*|from\s+\w+.*import.*"
    r"|return\b.*|@\w.*|>>>.*|[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*[-+*/]?=(?!=)\s*\S.*"
    r"|[A-Za-z_][\w.]*\(.*\)\s*(?:#.*)?|del\s+\w+.*|[\])}]\s*)$"
)

# Round 31: a dictated bracket pair ("tape dot watch open bracket x close bracket"), the
# innermost first (nothing opened inside it), over three passes for nested calls; opened and
# closed within 200 characters of one sentence, so "keep the bracket open" and a lone "close
# bracket" stay words.
_DICTATED_BRACKETS = regex.compile(
    r"\s*\bopen\s+(?:round\s+)?(?:bracket|parenthesis|paren)\s+"
    r"((?:(?!open\s)[^.;!?\n]|\.(?=\w)){1,200}?)"
    r"\s+close\s+(?:round\s+)?(?:bracket|parenthesis|paren)\b",
    regex.IGNORECASE,
)
BRACKET_PASSES = 3


def _with_apostrophe(match: regex.Match[str]) -> str:
    """ "doesnt" -> "doesn't", "DOESNT" -> "DOESN'T": the contraction, its letters' case kept."""
    word = match.group()
    return word[: len(match.group(1)) + 1] + "'" + word[-1]


def _spaced_apostrophe(match: regex.Match[str]) -> str:
    """ "can t" -> "can't", "DON T" -> "DON'T": the space is the apostrophe it stood for."""
    word = match.group()
    return word[:-2] + "'" + word[-1]


# Variants that are the same token to an interviewer; mapped before matching so that
# rubric authors write one spelling.
_SPELLINGS = [
    # Only where the words name the API (round 12): "zero grad", "zero-grad", a call. "A
    # zero gradient", "get zero gradients instead of None" are gradients that are zero.
    (re.compile(r"\bzero[\s-]?grad\b(?!\s+(?:is|are|was)\s+(?:none|zero))", re.I), "zero_grad"),
    (re.compile(r"\bzero[\s-]?grad(?:ient)?s?(?=\s*\()", re.I), "zero_grad"),
    (re.compile(r"\bgradient[\s-]?tape\b", re.I), "GradientTape"),
    (re.compile(r"\bapply[\s-]gradients\b", re.I), "apply_gradients"),
    # not "non-trainable variables" (round 9)
    (re.compile(r"(?<![\w-])(?<!non )trainable[\s-]variables\b", re.I), "trainable_variables"),
    (re.compile(r"\bnum[\s-]?py\b", re.I), "numpy"),
    (re.compile(r"\bpy[\s-]?torch\b", re.I), "pytorch"),
    (re.compile(r"\btf\s*\.\s*function\b", re.I), "tf.function"),
    (re.compile(r"\btensor[\s-]flow\b", re.I), "tensorflow"),
    # Round 30: framework names and API dots as dictation software writes them ("pie torch",
    # "tense or flow", "care us", "tee eff", "tape dot gradient", "into dot grad", "assign
    # add", "comma").
    (re.compile(r"\b(?:pie|pi|pye|pai)[\s-]?torch\b", re.I), "pytorch"),
    (re.compile(r"\btens(?:e\s+or|er)[\s-]?flow\b", re.I), "tensorflow"),
    (re.compile(r"\b(?:care[\s-]us|kerr[\s-]?(?:us|ass))\b", re.I), "keras"),
    (re.compile(r"\btee[\s-]?eff\b", re.I), "tf"),
    (re.compile(r"\b(tape|tf|optimizer|opt|model|loss|keras|torch|layer|self|outer|inner|np"
                r"|numpy|pytorch|jax|variable|var)\s+dot\s+(?=[A-Za-z_])", re.I), r"\1."),
    (re.compile(r"(?<![\w.])dot\s+grad\b", re.I), ".grad"),
    (re.compile(r"\bassign[\s-](add|sub)\b", re.I), r"assign_\1"),
    (re.compile(r"(?<=[A-Za-z])\s+comma(?=\s+[A-Za-z])", re.I), ","),
    # Round 31: dictated empty brackets ("zero grad open and close brackets"); the others
    # are `_DICTATED_BRACKETS`, after these.
    (regex.compile(r"\s*\bopen(?:\s+and)?\s+close\s+(?:round\s+)?(?:brackets?|parenthes[ie]s"
                   r"|parens?)\b", regex.I), "()"),
    # Round 31: a negation with its apostrophe dropped ("arent", "doesnt", phone typists and
    # hurried writers) or typed as an accent or a backtick ("don´t", "isn`t") is the
    # contraction, so every reading of "n't" (denials, verdicts, conditions) reads it.
    (regex.compile(r"\b(do|does|did|is|are|was|were|has|have|had|would|could|should|must|need"
                   r"|ai)n(?:[`\u02bc]|(?<=[a-z]n))t\b", regex.I), _with_apostrophe),
    # not the nouns ("as is his wont", "the cant of the trade")
    (regex.compile(r"(?<!\b(?:his|her|their|its|my|your|our|the|a)\s+)\b(wo|ca)n(?:[`\u02bc]"
                   r"|(?<=[a-z]n))t\b", regex.I), _with_apostrophe),
    # Round 32: a space where the apostrophe was ("can t", "don t", "isn t": a keyboard or a
    # paste that dropped it) is the contraction too; not a variable `t` after "can" ("we can
    # t.numpy() it", "can t = x * 2"). One space only: "can   t" is not a typed word.
    (regex.compile(r"\b(do|does|did|is|are|was|were|has|have|had|would|could|should|must|need"
                   r"|ai|wo|ca)n t\b(?!\s*[=(\[]|\.\w|[_'])", regex.I), _spaced_apostrophe),
    # Round 37: chat abbreviations of "because" ("bc", "b/c", "bcz", "cuz", "coz", "'cause")
    # and of "without" ("w/o") are the words, so every reader of them (clause breaks, denials,
    # premises of absence) reads them. Not a name in code ("bc = ...", "bc.shape", "a/b/c",
    # "print(bc)"), nor "cos" (the cosine).
    (regex.compile(r"(?<![\w./'(\[])(?:b/c|bcz|bcoz|bc|cuz|coz|'cause)(?![\w/)\]]|\s*[=(\[]|\.\w)",
                   regex.I), "because"),
    (regex.compile(r"(?<![\w./(\[])w/o(?![\w/)\]]|\s*[=(\[]|\.\w)", regex.I), "without"),
    # Common misspellings (non-native and hurried answers); rubric authors write one form.
    # Only the misspelt stem is replaced, so "Variable" and "variables" keep their form.
    (re.compile(r"\bgradiant", re.I), "gradient"),
    (re.compile(r"\bpersistant", re.I), "persistent"),
    (re.compile(r"\boptimis(?=e|ing|ation)", re.I), "optimiz"),
    (re.compile(r"\b(?:varaib|variab(?=el)|vairab)", re.I), "variab"),
    (re.compile(r"(?<=\bvariab)el", re.I), "le"),
]  # fmt: skip


@dataclass(frozen=True)
class Unit:
    """One sentence of prose, or one block of consecutive code lines."""

    text: str
    is_code: bool
    lemmas: str = ""  # prose only: the sentence with its words in dictionary form


@dataclass(frozen=True)
class Normalised:
    units: tuple[Unit, ...]
    truncated: bool
    prose_words: int

    @property
    def empty(self) -> bool:
        return not self.units


def strip_markup(text: str) -> str:
    """HTML to its text content (block tags become line breaks), entities decoded."""
    text = _DROP_CONTENT.sub(" ", text)

    def replace(match: re.Match[str]) -> str:
        name = (match.group(2) or "").lower()
        return "\n" if name in _BLOCK_TAGS else " "

    return html.unescape(_TAG.sub(replace, text))


def clean(text: str) -> tuple[str, bool]:
    """Normalised text and whether it had to be cut to MAX_CHARS."""
    truncated = len(text) > MAX_CHARS
    if truncated:
        cut = text.rfind(" ", 0, MAX_CHARS)
        text = text[: cut if cut > MAX_CHARS // 2 else MAX_CHARS]
    # Round 31: an acute accent typed as an apostrophe ("don\u00b4t") before NFKC splits it
    text = strip_markup(text).replace("\u00b4", "'")
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _INVISIBLE.sub("", text)  # "zero\u200b_grad" is zero_grad
    if not text.isascii():
        text = _WORD_CHARS.sub(_latin_if_mixed, text)
    text = _BOLD.sub(r"\1", text)
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    for pattern, replacement in _SPELLINGS:
        text = pattern.sub(replacement, text)
    for _ in range(BRACKET_PASSES):
        text = _DICTATED_BRACKETS.sub(r"(\1)", text)
    return text, truncated


def _latin_if_mixed(match: re.Match[str]) -> str:
    word = match.group()
    if word.isascii() or not any("a" <= c.lower() <= "z" for c in word):
        return word
    return word.translate(LOOKALIKES)


_ASSIGNMENT = re.compile(r"^\s*[A-Za-z_][\w.,\s\[\]]*?[-+*/]?=(?!=)(?P<rhs>.*)$")
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


# A line that opens with a Python keyword is code only if it is Python: "return the
# gradients and let apply_gradients update" and "del the tape once you are done" are
# sentences (round 12). A header ("with ...:", "if ...:") is parsed with a body after it;
# a line that leaves a bracket open is a statement continued on the next line.
_KEYWORD_LINE = re.compile(r"^\s*(?:with|def|for|if|import|from|return|del)\b")


# Round 29: a line that opens with a decorator or a call and ends on a bracket may be a
# sentence about it: "@tf.function lets TF trace the step into a graph", "jax.grad(f)
# returns a function (not a tape)". It is code only if Python parses it; a decorator line
# is parsed with a function under it.
_CALL_START = re.compile(r"^\s*[A-Za-z_][\w.]*\(")
_PROSE_AFTER_TOKEN = re.compile(rf"^\s*@|{_CALL_START.pattern}")


def _decorated(line: str) -> str:
    return line.strip() + "\ndef _():\n    pass" if line.lstrip().startswith("@") else line


def _is_python(line: str) -> bool:
    source = line.strip()
    if sum(map(source.count, "([{")) > sum(map(source.count, ")]}")):
        return True
    try:
        ast.parse(source + ("\n    pass" if source.endswith(":") else ""))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # hostile input is prose
        return False
    return True


def _is_code(line: str, in_fence: bool) -> bool:
    if in_fence:
        return True
    if not _CODE_LINE.match(line):
        return False
    if _KEYWORD_LINE.match(line) and not _is_python(line):
        return False
    if _PROSE_AFTER_TOKEN.match(line) and not _is_python(_decorated(line)):
        return False
    assignment = _ASSIGNMENT.match(line)
    if assignment is None:
        return True
    # "persistent=True, then del the tape, GAN, two losses" is prose with an `=` in it.
    rhs = _BRACKETED.sub("()", _BRACKETED.sub("()", assignment.group("rhs")))
    return len(re.findall(r"[A-Za-z]{2,}", rhs)) <= 4


LEMMA_TWIN_CHARS = 2_500  # prose read through lemma twins; the rest only as written
MAX_CODE_LINES = 40  # longer code blocks are matched 40 lines at a time
MAX_SENTENCE_CHARS = 500  # longer run-on "sentences" are cut into pieces of this size


def _prose_sentences(line: str) -> list[str]:
    line = _ELLIPSIS.sub(" - ", re.sub(r"`+", "", line)).strip(" -*>#")
    sentences = [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]
    return [piece for s in sentences for piece in _pieces(s)]


def _pieces(sentence: str) -> list[str]:
    """A run-on sentence in bounded pieces: matching cost stays linear in the answer."""
    pieces = []
    while len(sentence) > MAX_SENTENCE_CHARS:
        cut = sentence.rfind(" ", MAX_SENTENCE_CHARS // 2, MAX_SENTENCE_CHARS)
        cut = cut if cut > 0 else MAX_SENTENCE_CHARS
        pieces.append(sentence[:cut].strip())
        sentence = sentence[cut:].strip()
    return pieces + ([sentence] if sentence else [])


_NEW_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+\S")  # a Markdown header line


def prose_unit(sentence: str) -> Unit:
    """A sentence of prose with its lemma twin (of its English-order twin when it is
    code-switched Hinglish: hinglish.py, round 27)."""
    lemmas = lemma_text(english_order(sentence))
    return Unit(sentence, False, lemmas if lemmas != sentence else "")


def _flush(prose: list[str], code: list[str], units: list[Unit]) -> None:
    if prose:
        units.extend(prose_unit(s) for s in _prose_sentences(" ".join(prose)))
        prose.clear()
    for first in range(0, len(code), MAX_CODE_LINES):  # bounded blocks, bounded matching
        units.append(Unit("\n".join(code[first : first + MAX_CODE_LINES]), True))
    code.clear()


def _code_after_label(line: str) -> tuple[str, str] | None:
    """The label and the code of a line that is code after a label, a lead-in or a list
    mark, or code in one backtick span (labels.py): read as its own line would be."""
    cut = lead_in_and_tail(line)
    label, tail = cut if cut is not None else ("", code_span(line))
    if tail == line.strip() or not _is_code(tail, False) or _BARE_CALL.match(tail):
        return None
    return (label, tail) if _parses(tail) else None


# A bare call after a label stays in its sentence: "after: tape.reset()" and "Fix:
# tape.watch(x)" name an action as prose does; an assignment or a `with` line is code.
_BARE_CALL = re.compile(r"^[A-Za-z_][\w.]*\(.*\)$")


def _parses(line: str) -> bool:
    """Whether a line is a whole Python statement ("tf.hessians(y, x) gives the 2nd derivs
    (...)" looks like a call and is a sentence)."""
    try:
        ast.parse(line + ("\n    pass" if line.endswith(":") else ""))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # hostile input is prose
        return False
    return True


def split_units(text: str) -> list[Unit]:
    """Sentences of prose and blocks of code; a code line's `# comment` counts as prose.

    Hard-wrapped prose lines are joined back into paragraphs; a blank line, a list item
    or a code line ends a paragraph.
    """
    units: list[Unit] = []
    prose: list[str] = []
    code: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            in_fence = not in_fence
            _flush(prose, code, units)
            continue
        body, _, comment = line.partition("  #") if not in_fence else (line, "", "")
        if line.strip() and _is_code(body, in_fence):
            _flush(prose, [], units)
            code.append(body.rstrip())
            units.extend(prose_unit(s) for s in _prose_sentences(comment))
            continue
        labelled = None if in_fence or not line.strip() else _code_after_label(body)
        if labelled is not None:  # "Workaround: `ga, gb = tape.gradient([l1, l2], vs)`"
            _flush(prose, code, units)
            units.extend(prose_unit(s) for s in _prose_sentences(labelled[0]))
            code.append(labelled[1])
            units.extend(prose_unit(s) for s in _prose_sentences(comment))
            continue
        if code or not line.strip() or _NEW_ITEM.match(line) or _CODE_LINE.match(body):
            _flush(prose, code, units)  # a sentence shaped as a code line keeps its own line
        if _HEADING.match(line):  # "## Fix" is a label of its own, not the next line's start
            _flush(prose, code, units)
            units.extend(prose_unit(s) for s in _prose_sentences(line))
        elif line.strip():
            prose.append(line.strip())
            if _CODE_LINE.match(body) and _CALL_START.match(body):
                _flush(prose, code, units)  # ends on its bracket: a paragraph of its own
    _flush(prose, code, units)
    return units


def _bounded_twins(units: list[Unit]) -> list[Unit]:
    """Lemma twins for the first LEMMA_TWIN_CHARS of prose only: twins double the
    matching work, and a pathological 5,000-character answer must stay cheap."""
    budget, kept = LEMMA_TWIN_CHARS, []
    for unit in units:
        budget -= len(unit.text) if not unit.is_code else 0
        kept.append(unit if budget >= 0 or not unit.lemmas else Unit(unit.text, False))
    return kept


def _without_retractions(units: list[Unit]) -> list[Unit]:
    """Each run of prose sentences with its withdrawn claims taken out (retraction.py):
    "X... no, wait, Y" is read as "Y". A sentence left with no words is dropped."""
    out: list[Unit] = []
    run: list[Unit] = []
    for unit in [*units, Unit("", True)]:  # a code unit (and the end) closes a run
        if not unit.is_code:
            run.append(unit)
            continue
        texts = withdraw([u.text for u in run])
        out += [u if t == u.text else prose_unit(t) for u, t in zip(run, texts, strict=True) if t]
        run = []
        out.append(unit)
    return out[:-1]


def normalise(answer: str) -> Normalised:
    text, truncated = clean(answer)
    units = _bounded_twins(_without_retractions(split_units(text)))
    words = sum(len(re.findall(r"[A-Za-z']+", u.text)) for u in units if not u.is_code)
    return Normalised(units=tuple(units), truncated=truncated, prose_words=words)
