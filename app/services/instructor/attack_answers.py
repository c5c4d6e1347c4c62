"""Answers built from a phrasing's own structure to make it backtrack as badly as it can.

Pumping one character or word of a pattern (phrasing_timing's first probes) misses every
repeat that is reached only after a literal prefix, or whose body is several tokens or a
whole line: round 17's code phrasing (nested with-blocks, a back-reference to the indent)
was cubic in the lines of a code block and passed. The classic attack string is made here
for every repeat of the parsed pattern: a prefix that leads the engine to the repeat, the
repeat's body pumped, then a character nothing in the pattern expects. Bodies are sampled
several ways (each alternative, several characters of each class, and the characters two
neighbouring classes share), so overlapping alternatives and adjacent repeats over one class
are pumped with what both accept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import islice
from re import _parser  # type: ignore[attr-defined]  # the stdlib's own parse, 3.11's name
from typing import Any

from app.grading.freetext.budget import BoundedPattern

# Characters tried for a class, a `.` or a negated literal: letters, digits, `_`, blanks,
# line ends and the punctuation rubric phrasings and code answers use.
ALPHABET = "aA0_ \t\n.,-:;()=+*'\"/#xé"
_WIDER = "".join(map(chr, range(32, 0x250)))  # for a class none of ALPHABET is in
MISMATCH = "\x01"  # in no class a phrasing writes, so the pumped repeat must give up
_BOUNDARY = "\x00"  # a pending `\b` while a sample is built (never left in a probe)
# A repeat of at most this many times is not pumped itself (the repeats inside it are): past
# its bound it matches nothing more, and ` ~ ` gaps ({0,8}) are in nearly every phrasing.
BOUNDED = 16
VARIANTS = 3  # samples of each repeat's body: alternatives and characters in turn
MAX_PER_PATTERN = 64  # structural probes kept per pattern, in the pattern's order

_REPEATS = {_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT}
_CATEGORIES: dict[Any, Callable[[str], bool]] = {
    _parser.CATEGORY_DIGIT: str.isdecimal,
    _parser.CATEGORY_NOT_DIGIT: lambda c: not c.isdecimal(),
    _parser.CATEGORY_SPACE: str.isspace,
    _parser.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
    _parser.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
    _parser.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
    _parser.CATEGORY_LINEBREAK: lambda c: c == "\n",
    _parser.CATEGORY_NOT_LINEBREAK: lambda c: c != "\n",
}

# The flags `re`'s parser shares with `regex` (regex.V0 and the like are regex's own bits).
_RE_FLAGS = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII
Tree = Any  # re._parser.SubPattern or a list of (opcode, argument) pairs


def attack_strings(compiled: re.Pattern[str] | BoundedPattern, length: int) -> list[str]:
    """`prefix + pump * n + MISMATCH`, about `length` long, for each repeat of the pattern.

    The stdlib's parser reads the pattern: a phrasing only `regex` accepts (set operations,
    `\\p{...}`) gets no structural probes here, only phrasing_timing's pumped characters.
    """
    try:  # a hostile pattern may nest deeply, or hold thousands of repeats
        tree = _parser.parse(compiled.pattern, compiled.flags & _RE_FLAGS)
        pairs = list(dict.fromkeys(islice(_pairs(list(tree), "", {}), 4 * MAX_PER_PATTERN)))
    except (re.error, RecursionError, TypeError):
        return []
    pairs = pairs[:MAX_PER_PATTERN]
    return [_pumped(prefix.replace(_BOUNDARY, ""), pump, length) for prefix, pump in pairs]


def _pumped(prefix: str, pump: str, length: int) -> str:
    times = max(1, (length - len(prefix)) // len(pump))
    return (prefix + pump * times)[:length] + MISMATCH


def _pairs(seq: list[Tree], before: str, groups: dict[int, str]) -> Iterator[tuple[str, str]]:
    """(prefix, pump) for each repeat in `seq` and inside it, `before` leading to `seq`."""
    for index, (op, arg) in enumerate(seq):
        if op in _REPEATS:
            _, high, body = arg
            if high > BOUNDED:
                following = seq[index + 1 : index + 2]
                for pump in _pumps(list(body), following, dict(groups)):
                    yield _joined(before, pump)[: -len(pump)], pump
            yield from _pairs(list(body), before, dict(groups))
        elif op is _parser.SUBPATTERN:
            yield from _pairs(list(arg[3]), before, groups)
        elif op is _parser.ATOMIC_GROUP:
            yield from _pairs(list(arg), before, groups)
        elif op is _parser.BRANCH:
            for branch in arg[1]:
                yield from _pairs(list(branch), before, dict(groups))
        before = _joined(before, _sample_node(op, arg, 0, groups))


def _joined(text: str, piece: str) -> str:
    """`text + piece`, with a space where a `\b` between two word characters asks for one."""
    if text.endswith(_BOUNDARY):
        text = text[: -len(_BOUNDARY)]
        if text[-1:].isalnum() and piece[:1].isalnum():
            text += " "
        elif not piece:
            return text + _BOUNDARY
    return text + piece


def _pumps(body: list[Tree], following: list[Tree], groups: dict[int, str]) -> list[str]:
    r"""Samples of a repeat's body. A one-character body is pumped with one character it
    takes and each it shares with the next element (`\w+\d+`: a digit, `.*\s*`: blanks);
    a longer one with each of its alternatives."""
    accepts = _accepts(body[0]) if len(body) == 1 else None
    if accepts is None:
        pumps = [_sample(body, v, dict(groups)) for v in range(VARIANTS)]
        return [p.replace(_BOUNDARY, "") for p in dict.fromkeys(pumps) if p]
    shared = _first_accepts(following[0]) if following else None
    chars = [c for c in ALPHABET if accepts(c)]
    overlap = [c for c in chars if shared is not None and shared(c)]
    return list(dict.fromkeys([*chars[:1], *overlap[:VARIANTS]]))


def _first_accepts(node: Tree) -> Callable[[str], bool] | None:
    op, arg = node
    if op in _REPEATS and len(arg[2]) == 1:
        return _accepts(next(iter(arg[2])))
    return _accepts(node)


def _accepts(node: Tree) -> Callable[[str], bool] | None:
    """A one-character node's test (case-insensitive, as phrasings are compiled)."""
    op, arg = node
    if op is _parser.LITERAL:
        return lambda c: c.lower() == chr(arg).lower()
    if op is _parser.NOT_LITERAL:
        return lambda c: c.lower() != chr(arg).lower()
    if op is _parser.ANY:
        return lambda c: c != "\n"
    if op is _parser.IN:
        return lambda c: _in_set(arg, c)
    return None


def _in_set(items: list[Tree], char: str) -> bool:
    negated = bool(items) and items[0][0] is _parser.NEGATE
    hit = any(_in_item(op, arg, char) for op, arg in items[negated:])
    return hit != negated


def _in_item(op: Any, arg: Any, char: str) -> bool:
    if op is _parser.LITERAL:
        return char.lower() == chr(arg).lower()
    if op is _parser.RANGE:
        return any(arg[0] <= ord(c) <= arg[1] for c in {char, char.lower(), char.upper()})
    if op is _parser.CATEGORY:
        return _CATEGORIES.get(arg, lambda c: False)(char)
    return False


def _sample(seq: list[Tree], variant: int, groups: dict[int, str]) -> str:
    text = ""
    for op, arg in seq:
        text = _joined(text, _sample_node(op, arg, variant, groups))
    return text


def _sample_node(op: Any, arg: Any, variant: int, groups: dict[int, str]) -> str:
    """A short text the node matches (its `variant`-th way), recording groups for
    back-references; assertions match nothing."""
    if op is _parser.LITERAL:
        return chr(arg)
    test = _accepts((op, arg))
    if test is not None:
        chars = [c for c in ALPHABET if test(c)] or [c for c in _WIDER if test(c)][:1] or ["?"]
        return chars[variant % len(chars)]
    if op in _REPEATS:
        return _sample(list(arg[2]), variant, groups) * min(arg[0], 3)
    if op is _parser.SUBPATTERN:
        text = _sample(list(arg[3]), variant, groups)
        if arg[0]:
            groups[arg[0]] = text
        return text
    if op is _parser.ATOMIC_GROUP:
        return _sample(list(arg), variant, groups)
    if op is _parser.BRANCH:
        branches = arg[1]
        return _sample(list(branches[variant % len(branches)]), variant, groups)
    if op is _parser.GROUPREF:
        return groups.get(arg, "")
    if op is _parser.GROUPREF_EXISTS:
        chosen = arg[1] if arg[0] in groups else arg[2]
        return _sample(list(chosen), variant, groups) if chosen else ""
    if op is _parser.AT and arg is _parser.AT_BOUNDARY:
        return _BOUNDARY
    return ""  # other anchors and look-arounds
