"""Text a user or a pack author wrote cannot turn the page around it right-to-left.

A right-to-left override (U+202E) or embedding in a pack title, a cohort or display name
reorders everything after it in the same line until something closes it: "\u202eTape basics
(12 questions)" shows the count, the version, the next words reversed too. Every `{{ }}` of a
page passes through `isolate` (the Jinja environment's finalize): a value carrying such a
control is wrapped in a first-strong isolate, U+2068 ... U+2069, which closes whatever the
value opened at its own end (Unicode bidi algorithm, UAX #9, rule X6a) and takes its direction
from the value's first strong letter, as `dir="auto"` would. The value still reads as its
author wrote it; the page around it does not move. Isolates work in attributes and <option>
text too, where a <bdi> element cannot go. Ordinary right-to-left text (Hebrew, Arabic with
no controls) is left as it is.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

# Embeddings and overrides (LRE RLE PDF LRO RLO) and isolate openers (LRI RLI FSI).
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2068]")
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def isolate(value: Any) -> Any:
    if not isinstance(value, str) or not BIDI_CONTROLS.search(value):
        return value
    if isinstance(value, Markup):
        return Markup("\u2068%s\u2069") % value  # Markup stays unescaped
    return f"{FIRST_STRONG_ISOLATE}{value}{POP_DIRECTIONAL_ISOLATE}"
