"""A line's leading label: "Root cause:", "Workaround:", "1)", "Step 2:", "Q:", "**Why:**".

Real answers put a label before what they say: ticket style ("Root cause: ...", "Resolution:
..."), numbered steps ("1/", "1)", "Step 1:"), questions and answers ("Q: ...? A: ..."),
notes ("Edit:", "TL;DR:") and lead-ins to code ("Pass both in one call: `ga, gb = ...`").
A label is no claim, so what follows it is read as it would be on its own line: code as code
(normalise.py; round 26: a code line after a label was read as prose, and its identifiers and
commas made the answer a keyword list), a question as a question (matching.py). A verdict
label ("Myth:", "Wrong:", "Not:") is the exception: it judges its line false, as "X - that's
a myth" does (polarity.py), and code after it is not read as code that states anything.
"""

from __future__ import annotations

import re

# What may open a line before its label: a list or quote mark, a Markdown header's hashes.
_MARKS = r"[\s>*\u2022-]*(?:#+\s*)?"
# A label of up to three words and its colon ("Root cause:", "TL;DR:", "Q:", "Step 1:"), or a
# step number ("1)", "1/", "1.", "2:").
SHORT_LABEL = r"(?:[A-Za-z][\w;'/-]*(?:\s+[\w;'/-]+){0,2}\s*:|\d+[.)/:])\s+"
# A lead-in to code: any words up to a colon ("Use one call with a list:"), no brackets or
# backticks before it (a call's "x[1:2]" or a dict's "{a: b}"). Not an arrow: "don't nest
# anything -> tf.hessians(y, x) gives ..." states its consequence.
_LEAD_IN = re.compile(
    rf"^(?P<head>{_MARKS}(?:[^\s:`()\[\]{{}}][^:`()\[\]{{}}]{{0,80}}?:|\d+[.)/:])\s+)"
    r"(?P<tail>\S.*)$"
)
# A line that is list marks only before its body ("- `ga, gb = ...`", "> x = 1").
_MARKED = re.compile(r"^(?P<head>[\s>*\u2022-]*[>*\u2022-]\s+)(?P<tail>\S.*)$")
# A label that judges its line false: a myth, "Wrong:", "False:", "Not:", "Don't:".
VERDICT_LABEL = re.compile(
    r"^\W*(?:(?:\w+\s+){0,2}(?:myths?|misconceptions?)\s*(?:#?\d+\s*)?(?::|-+>?\s)"
    r"|(?:wrong|false|incorrect|untrue|not|nope|bad|don'?t|never)\s*(?:#?\d+\s*)?:)",
    re.IGNORECASE,
)
_ONE_SPAN = re.compile(r"^`+([^`]+)`+[.;,]?$")


def code_span(text: str) -> str:
    """The text without the backticks of one span that is all of it ("`x = 1`" -> "x = 1")."""
    one = _ONE_SPAN.match(text.strip())
    return one.group(1).strip() if one is not None else text


def lead_in_and_tail(line: str) -> tuple[str, str] | None:
    """The line cut after its label, lead-in or list mark, in backticks or not; None where
    it has none or a verdict label opens it."""
    if VERDICT_LABEL.match(line) is not None:
        return None
    found = _LEAD_IN.match(line) or _MARKED.match(line)
    if found is None:
        return None
    return found.group("head").strip(), code_span(found.group("tail"))
