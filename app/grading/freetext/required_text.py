"""The words a phrasing cannot match without, read from its regular expression, so a search
that cannot find anything is not run (issue 14, round 28).

Most of an answer's phrasing searches find nothing: each phrasing is first searched in the
whole answer, and that search rules nearly all of them out (round 25: ~290 searches an
answer, a quarter of its grading time with their bookkeeping). A phrasing such as
`(gradient|derivative)\\w* (call|computation) ~ (happens|runs)` cannot match an answer
that holds neither "gradient" nor "derivative", and a substring test says so in a fraction
of a search's time. This module reads, from a phrasing's expression, what every match must
contain: a conjunction of choices, each a set of lower-case ASCII strings of which one must
occur. It is conservative: a construct it does not read with certainty (an escape other
than the plain ones, a flag group, a nested set, `regex`'s fuzzy `{e<=1}`, a back-reference)
gives no requirement at all, and a lookaround, a class or an optional part requires
nothing. The test reads the text as a case-insensitive search matches it to ASCII literals
(`str.lower`, and four letters beyond ASCII; round 39: before, text beyond ASCII was always
searched). The search's result is the same either way: only searches that would have found
nothing are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

Choice = tuple[str, ...]  # one of these strings occurs in every match
_Choice = frozenset[str]  # a choice while reading
Requirement = tuple[Choice, ...]  # every choice holds

_PLAIN_ESCAPES = frozenset(r".-()[]{}?*+|^$\/'\"&~#%!,:;<=>@_` ")  # escaped: the char itself
_CLASS_ESCAPES = frozenset("bBwWsSdDAZ")  # a class or a position: no literal
_COUNT = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")


class Unreadable(Exception):
    """A construct this reader does not read with certainty: no requirement."""


@dataclass
class _Reader:
    pattern: str
    at: int = 0

    def alternation(self) -> list[_Choice] | None:
        """Read alternatives up to a `)` or the end: the requirement of their union
        (a list of choices), or None where one alternative requires nothing."""
        branches = [self.sequence()]
        while self.at < len(self.pattern) and self.pattern[self.at] == "|":
            self.at += 1
            branches.append(self.sequence())
        if len(branches) == 1:
            return branches[0]
        union: set[str] = set()
        for choices in branches:
            if not choices:
                return None
            union |= max(choices, key=lambda c: min(len(s) for s in c))
        return [frozenset(union)]

    def sequence(self) -> list[_Choice]:
        """Read atoms up to `|`, `)` or the end: the choices every match of them needs."""
        choices: list[_Choice] = []
        run = ""
        while self.at < len(self.pattern) and self.pattern[self.at] not in "|)":
            literal, inner = self.atom()
            low, high = self.count()
            if literal is not None and low >= 1 and high == 1:
                run += literal
                continue
            if literal is not None and low >= 1:
                run += literal
            if run:
                choices.append(frozenset([run]))
            run = ""
            if inner and low >= 1:
                choices += inner
        if run:
            choices.append(frozenset([run]))
        return choices

    def atom(self) -> tuple[str | None, list[_Choice]]:
        """One atom: (its literal character, if it is one; the choices it needs)."""
        ch = self.pattern[self.at]
        self.at += 1
        if ch == "(":
            return None, self.group()
        if ch == "[":
            self.skip_set()
            return None, []
        if ch == "\\":
            return self.escape(), []
        if ch in ".^$":
            return None, []
        if ch in "*+?{":
            raise Unreadable("a quantifier with nothing before it")
        return (ch.lower() if ch.isascii() else None), []

    def group(self) -> list[_Choice]:
        lookaround = False
        if self.pattern.startswith("?:", self.at):
            self.at += 2
        elif self.pattern.startswith(("?=", "?!"), self.at):
            self.at += 2
            lookaround = True
        elif self.pattern.startswith(("?<=", "?<!"), self.at):
            self.at += 3
            lookaround = True
        elif self.pattern.startswith("?", self.at):
            raise Unreadable("a flag or named group")
        inner = self.alternation()
        if self.at >= len(self.pattern) or self.pattern[self.at] != ")":
            raise Unreadable("an unclosed group")
        self.at += 1
        return [] if lookaround or inner is None else inner

    def skip_set(self) -> None:
        """Past a character set; a set holding `[` (a POSIX class or a nested set) is not read."""
        at = self.at + (self.pattern.startswith("^", self.at))
        at += self.pattern.startswith("]", at)
        while at < len(self.pattern) and self.pattern[at] != "]":
            if self.pattern[at] == "[":
                raise Unreadable("a set inside a set")
            at += 2 if self.pattern[at] == "\\" else 1
        if at >= len(self.pattern):
            raise Unreadable("an unclosed set")
        self.at = at + 1

    def escape(self) -> str | None:
        if self.at >= len(self.pattern):
            raise Unreadable("a trailing backslash")
        ch = self.pattern[self.at]
        self.at += 1
        if ch in _CLASS_ESCAPES:
            return None
        if ch in _PLAIN_ESCAPES:
            return ch.lower()
        raise Unreadable(f"the escape \\{ch}")

    def count(self) -> tuple[int, int | None]:
        """The quantifier after an atom, if any: (least, most; None: unbounded)."""
        if self.at >= len(self.pattern):
            return 1, 1
        ch = self.pattern[self.at]
        if ch == "{":
            found = _COUNT.match(self.pattern, self.at)
            if found is None:  # `regex` reads `{e<=1}` as fuzzy matching
                raise Unreadable("a brace that is not a count")
            self.at = found.end()
            low = int(found.group(1) or 0)
            high = None if found.group(2) and not found.group(3) else int(found.group(3) or low)
            bounds: tuple[int, int | None] = (low, high)
        elif ch in "*+?":
            self.at += 1
            bounds = {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
        else:
            return 1, 1
        if self.at < len(self.pattern) and self.pattern[self.at] in "?+":
            self.at += 1  # lazy or possessive: the same strings, or fewer
        if self.at < len(self.pattern) and self.pattern[self.at] in "*+?{":
            raise Unreadable("a quantifier on a quantifier")
        return bounds


def required_text(pattern: str) -> Requirement:
    """What every match of `pattern` (a `regex` V0 expression, searched case-insensitively)
    contains: for each choice, one of its strings (lower case, ASCII). Empty: nothing known."""
    reader = _Reader(pattern)
    try:
        choices = reader.alternation()
    except (Unreadable, IndexError):
        return ()
    if reader.at != len(pattern) or choices is None:
        return ()  # an unmatched `)`
    # a choice of one-letter strings (a space between two groups) rules out nearly nothing;
    # the longest strings first: the rarest, the likeliest to rule a search out
    kept = [c for c in choices if all(len(s) > 1 and s.isascii() for s in c)]
    kept.sort(key=lambda c: -min(len(s) for s in c))
    return tuple(tuple(sorted(c)) for c in kept)


# Round 39: the only characters beyond ASCII that a case-insensitive search (`regex` V0 or
# V1, `re`) matches to an ASCII literal are these four (every code point tried against every
# printable ASCII character): dotless and dotted I, the long s and the Kelvin sign. Read as
# their letters, and every other character as itself (no required string holds it), a text
# that is not ASCII is ruled out as an ASCII one is, one character for one (the same
# positions). Before, such a text was never ruled out: an answer in lookalike letters
# (Cyrillic words left as written, normalise.py) had every unit searched for each phrasing.
_FOLDED = str.maketrans(
    {**{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)},
     "\u0131": "i", "\u0130": "i", "\u017f": "s", "\u212a": "k"}
)  # fmt: skip


# Round 38: 1,024 texts, not 64: an answer of ~170 units has ~340 texts (words and lemmas),
# and with 64 every unit's lowering was recomputed for every phrasing searched in it.
@lru_cache(maxsize=1024)
def lowered(text: str) -> str:
    """The text as `may_match` reads it: in lower case, each character beyond ASCII that a
    case-insensitive search matches to an ASCII letter read as that letter (the same
    length)."""
    return text.lower() if text.isascii() else text.translate(_FOLDED)


def may_match(requirement: Requirement, text: str, pos: int, endpos: int) -> bool:
    """Whether a case-insensitive search of `text[pos:endpos]` can find a phrasing that
    requires `requirement`: False only when the text lacks every string of a choice, read
    case-insensitively (`lowered`; a match never reaches outside [pos, endpos]; lookarounds
    require nothing)."""
    if not requirement:
        return True
    low = lowered(text)
    if pos or endpos < len(low):
        low = low[pos:endpos]
    for choice in requirement:  # loops, not any/all: this runs ~300 times an answer
        for string in choice:
            if string in low:
                break
        else:
            return False
    return True
