"""Round 15 (engineer R): role words. A tell stated with another verb for "keeps" ("the tape
caches the gradients", "tape.gradient stashes them on each variable") is read through the
shared lexicon's keep group (lexicon.GROUPS), which every phrasing uses; a phrasing's
`stores?` meets the group, which round 5's candidate (`stor(e|es|ed|ing)`) never did. Rules
alone.
Statements written before the change (docs/freetext-rounds.md "Round 15: reader (engineer
R)"); the first two wrong and the first true one before any measurement, the rest after the
candidate groups were measured and before the shipped change was run.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from app.grading.freetext.lexicon import GROUPS, KEEP, group_of, widen
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

KEEP_WRONG = [
    ("gradient-vs-apply", "grads-stored-on-variables", "tape.gradient stashes the gradients on each variable, and apply_gradients reads them from there."),
    ("no-zero-grad", "tape-holds-gradients", "The tape caches the gradients it computed, and they vanish when the tape is destroyed."),
    ("gradient-vs-apply", "grads-stored-on-variables", "tape.gradient caches each gradient inside its variable so apply_gradients can find it."),
    ("no-zero-grad", "persistent-stores-gradients", "A persistent tape stashes the gradients it computed, so they pile up across steps."),
]  # fmt: skip
KEEP_TRUE = [
    ("gradient-vs-apply", "tape.gradient hands back a list of tensors; it stashes nothing on the variables, and apply_gradients updates them."),
    ("gradient-vs-apply", "The optimizer caches its slot variables (like Adam's moments), but tape.gradient only returns tensors."),
    ("gradient-vs-apply", "The tape stores the forward ops, and gradient() returns new tensors each time; nothing is cached on the variables."),
]  # fmt: skip
# Measured and not shipped: the discard group (released / destroyed / deleted / torn down /
# disposed of / cleaned up) named 11 more tags on tune but lost 5 exact answers and added a
# false tell on an answer labelled correct (persistent-is-free). These stay unnamed; the first
# one is read since round 21 (engineer C: a claim of its own on persistent-tape, not the group).
DISCARD_WRONG_READ = [
    ("persistent-tape", "tape-discarded-on-block-exit", "The tape is torn down when the with block ends, so you have nothing to clean up."),
]  # fmt: skip
DISCARD_WRONG_LEFT = [
    ("why-none-gradients", "tape-discarded-on-block-exit", "Once the with block is over the tape is disposed of, so gradient() has nothing to read."),
    ("why-none-gradients", "non-persistent-gives-none", "The tape was already disposed of by the time you call gradient, so it gives None."),
]  # fmt: skip


test_a_keep_verb_names_the_storing_tell = names_the_tell(
    KEEP_WRONG, fields="qid tag text", tells=_tells
)
test_a_denied_or_other_subject_keep_verb_names_no_tell = names_nothing(
    KEEP_TRUE, fields="qid text", tells=_tells
)
test_a_discard_claim_names_the_discard_tell = names_the_tell(
    DISCARD_WRONG_READ, fields="qid tag text", tells=_tells
)
test_a_discard_verb_names_the_discard_tell = names_the_tell(
    DISCARD_WRONG_LEFT,
    fields="qid tag text",
    tells=_tells,
    xfail="the discard group did not pay (round 15, left)",
)


def test_grading_uses_the_record_and_keep_groups() -> None:
    assert GROUPS == (("record", "track"), KEEP)  # round 16: groups are lemmas
    assert "stash" in KEEP and "cache" in KEEP and "hold" not in KEEP


def test_held_in_a_true_statement_is_not_keep() -> None:
    # round 9's true statement; with "holds?" in the group its twin ("it hold") named
    # persistent-stores-gradients
    text = "By default the tape drops everything it held as soon as gradient() returns, so call two has nothing left and throws."
    assert _tells("persistent-tape", text) == []


def test_a_phrasings_store_alternatives_meet_the_keep_group() -> None:
    # round 5's candidate spelled it `stor(e|es|ed|ing)` (stem `stor`): no `stores?` met it;
    # since round 16 groups compare lemmas, so that spelling meets it too
    assert group_of("stores?") == group_of("stored") == group_of("caches?") == 1
    assert group_of("holds?") is None
    round5 = (("keeps?", "stor(e|es|ed|ing)", "holds?", "retain\\w*"),)
    assert group_of("stores?", round5) == 0 and group_of("hands?") is None
    assert "stashed" in widen(r"tape ~ (stores?|writes?) ~ gradients")
