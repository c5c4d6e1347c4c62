"""Round 42 of issue 14 (engineer M14): an excluded role that keeps a word out says so itself
(docs/freetext-rounds.md "Round 42: an excluded role's closed end (engineer M14)").

Round 41 (M13) found `gradient-twice-same-tape`'s claim on higher-order-derivatives keeping
"differentiate" out of it only because its excluded "different" is open at the end and
"differentiate" starts with it ("otherwise" likewise by "other"). The claim now names the
words it means to keep out, and an excluded role's end is closed (claims.EXCLUDED_END).

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest
import regex

from app.grading.freetext.claims import claim_parts, find_phrasings
from app.grading.freetext.normalise import normalise
from tests.grading.core_questions import question, tells_by_rules


def _twice_claim_excluded() -> list[str]:
    """The excluded roles of the claim "(call|take|use|compute) gradient again/twice"."""
    (tell,) = [
        m
        for m in question("higher-order-derivatives").rubric.misconceptions
        if m.tag == "gradient-twice-same-tape"
    ]
    (claim,) = [p for p in tell.any if p.startswith("(call|take|use|compute)\\w* & gradient &")]
    return [role[1:] for role in claim_parts(claim)[1]]


@pytest.mark.parametrize(
    "word",
    [
        "differentiate",
        "differentiates",
        "differentiated",
        "differentiating",
        "differentiation",
        "differentiable",
        "otherwise",
    ],
)
def test_the_twice_claim_excludes_differentiate_and_otherwise_as_whole_words(word: str) -> None:
    excluded = _twice_claim_excluded()
    assert any(regex.fullmatch(role, word, regex.IGNORECASE) for role in excluded)


# Round 42: an excluded role's end is closed (claims.EXCLUDED_END): it keeps out its word and
# the word's inflections ("smaller", "GPUs", "eagerly": round 41's pinned cases) and its
# compounds in -most / -ward(s) ("innermost", "afterwards", which the rubrics use as the same
# word), no longer a longer word it only starts.
CLAIM = "(tape) & (records?) & !({})"


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("The tape records the ops you justify.", "just"),
        ("In TensorFlow the tape records the ops.", "tensors?"),
        ("The tape records the ops until you delete it.", "del"),
        ("The tape records the ops, otherwise nothing.", "other"),
        ("The tape records the ops it restores.", "rest"),
    ],
)
def test_an_excluded_role_no_longer_keeps_out_a_longer_word(text: str, excluded: str) -> None:
    assert find_phrasings(normalise(text).units, [CLAIM.format(excluded)])


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("The tape records the ops of the innermost tape.", "inner"),
        ("The tape records the ops of the outermost tape.", "outer"),
        ("The tape records the ops and afterwards it stops.", "after"),
        ("The tape records the ops, backward later.", "backward"),
        ("The tape records the ops and then releases.", "releas\\w*"),
    ],
)
def test_an_excluded_role_keeps_out_its_word_and_its_compounds(text: str, excluded: str) -> None:
    assert not find_phrasings(normalise(text).units, [CLAIM.format(excluded)])


# A claim whose own role is a word its excluded role starts: persistent-tape's
# `persistent-is-free` has the role `delet\w*` and the excluded `del` (the `del` statement), so
# with the end open it could never be read with "delete".
def test_persistent_is_free_reads_delete() -> None:
    text = (
        "A persistent tape costs nothing extra: Python's garbage collector will delete it "
        "for you when it goes out of scope."
    )
    assert "persistent-is-free" in tells_by_rules("persistent-tape", text)


# why-none-gradients' `must-watch-variables` keeps out "tensors?" (a watched tensor is the right
# use of watch); with the end open that kept out every sentence naming TensorFlow.
def test_must_watch_variables_reads_a_sentence_naming_tensorflow() -> None:
    text = "With TensorFlow, watching the trainable weights is something you need to add by hand."
    assert "must-watch-variables" in tells_by_rules("why-none-gradients", text)
