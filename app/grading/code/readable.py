"""Text that crossed from the sandbox, made safe to show, store and serialise.

Everything in a worker's report and output was shaped by the submitted code: an exception
message, a dict key, a type name. A lone surrogate (`"\\ud800"`) in one made the API's JSON
encoder fail (a 500 instead of a verdict, round 14); NUL cannot be stored by PostgreSQL;
terminal escapes and bidirectional overrides make the feedback lie about what it says. So
every string is rewritten once, as it arrives: such characters become visible escapes
(`\\ud800`, `\\x1b`, `\\u202e`) and a string is cut at MAX_TEXT characters.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT = 2_000
# C0 controls but tab and newline, DEL and C1, bidirectional marks and overrides, the line
# and paragraph separators, the byte-order mark, and lone surrogates (never well-formed).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value: str) -> str:
    """One string, readable: unsafe characters escaped, at most MAX_TEXT characters."""
    cut = value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + "..."
    return _UNSAFE.sub(_escape, cut)


def report(value: Any) -> Any:
    """Every string of a parsed report (keys included) made readable, the rest unchanged.
    Recursive like the JSON it walks; json.loads bounds the depth (a RecursionError is the
    caller's malformed report)."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [report(item) for item in value]
    if isinstance(value, dict):
        return {text(str(key)): report(item) for key, item in value.items()}
    return value
