"""A claim in quotation marks is mentioned, not made (round 16).

'"apply_gradients returns the new weights" - it doesn't, it assigns them in place',
'"A persistent tape is free" is wrong', 'people say "just watch the loss"': a writer who
puts a statement between double quotes reports it - to reject it, to name a myth, to cite
someone - and the words around the quotes say which. A tell read wholly inside one such
quotation names nothing; one that runs out of it into the writer's own words is read as
before ('the tape "remembers" the gradients' still states its tell). Tells only: the
quotation still credits a concept as before. Double quotes only: a single quote is too
often an apostrophe.
"""

from __future__ import annotations

import re

# A double-quoted stretch inside one sentence (normalise.py has made curly quotes ASCII).
_QUOTATION = re.compile(r'"[^"]+"')


def quoted(sentence: str, snippet: str) -> bool:
    """Whether the snippet occurs in the sentence only inside a double-quoted stretch (a
    snippet read in the lemma twin and not found as written is not quoted)."""
    spans = [m.span() for m in _QUOTATION.finditer(sentence)]
    if not spans or not snippet:
        return False
    lowered, wanted = sentence.lower(), snippet.lower()
    starts = [m.start() for m in re.finditer(re.escape(wanted), lowered)]
    return bool(starts) and all(
        any(a < s and s + len(wanted) < b for a, b in spans) for s in starts
    )
