"""Round 45 of issue 14 (engineer C37, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas. Kept (each names a not-read answer's stated tag, no false tell, no exact answer lost):
on why-none-gradients, the tape said to be closed, freed, emptied or torn down when its with
block exits (tape-discarded-on-block-exit, persistent-tape's round 21 claim and the record said
lost); on persistent-tape, the with block (its context manager) said to close or release the
tape, or the tape to leave scope with the block, as why nothing is left to do
(tape-discarded-on-block-exit); on higher-order-derivatives, a labeller tag no rubric knew, a tape
said to give only one derivative (two-tapes-because-one-shot). Dropped (strict xfails): tf.hessians
recommended where it is said to build the graph for you (tf-hessians-works-eagerly), and frozen
layers named as the difference or the lists said to be the same when everything is trainable
(only-frozen-layers-differ): read-only names. True statements, denials and conditions sharing the words name nothing. Statements
written for this file (docs/freetext-rounds.md "Round 45: ... (engineer C37)"). Read by the rules
alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

PT = "persistent-tape"
WNG = "why-none-gradients"
HOD = "higher-order-derivatives"
TVA = "trainable-vs-all-variables"

# Beliefs in words the rubric did not read (each fails on the round's start commit, c13e341).
NEW_WORDS = [
    (WNG, "tape-discarded-on-block-exit", "Once the with statement exits, the tape is freed, so tape.gradient afterwards has nothing to look at."),
    (WNG, "tape-discarded-on-block-exit", "When the block has ended the tape is empty, which is why every gradient is None."),
    (WNG, "tape-discarded-on-block-exit", "As soon as you leave the context the tape gets torn down and you get None back."),
    (PT, "tape-discarded-on-block-exit", "Nothing to do at the end: the with block closes the tape for you."),
    (PT, "tape-discarded-on-block-exit", "No cleanup needed, the tape is released by the context manager."),
    (PT, "tape-discarded-on-block-exit", "Afterwards you are done, since the tape goes out of scope after the with block."),
    (PT, "tape-discarded-on-block-exit", "There is no cleanup step, because the tape dies with the with block."),
    # round 37 (C21) dropped this one (read-only names then); round 44's set gives it a not-read name (moved from its xfails)
    (PT, "tape-discarded-on-block-exit", "Nothing to clean up afterwards, the tape is closed by the with block."),
    (HOD, "two-tapes-because-one-shot", "A tape can only give you one derivative, so the second order needs another tape."),
    (HOD, "two-tapes-because-one-shot", "Each tape handles one order of differentiation, so for d2y/dx2 you chain two of them."),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names).
DROPPED = [
    (HOD, "tf-hessians-works-eagerly", "The dedicated API is tf.hessians(y, x), which builds the second-order graph for you."),
    (TVA, "only-frozen-layers-differ", "For a network where every layer is trainable the two lists are identical."),
]  # fmt: skip

# True statements, denials and conditions beside the new words: name nothing.
STILL_TRUE = [
    (WNG, "When the with block exits, the tape stops recording, so a loss computed afterwards is not on it and you get None."),
    (WNG, "A default tape is freed once its first gradient call returns, not when the block ends."),
    (WNG, "The tape is not freed when the with block exits; it only stops recording there."),
    (PT, "Leaving the with block only stops the recording; the persistent tape stays alive until you del it."),
    (PT, "The tape goes out of scope at the end of the train_step function and Python cleans it up; del it sooner if it is persistent."),
    (PT, "A persistent tape is not released by the with block: you have to del tape when you are finished."),
    (HOD, "You nest two tapes because the outer tape records the inner tape's gradient computation."),
    (HOD, "It is not true that a tape can only give one derivative: the outer tape differentiates what the inner one computed."),
    (HOD, "A default tape gives only one gradient call, so make it persistent if you need two gradients of the same order."),
    (HOD, "It gives you one gradient per variable, in the order of the list you passed."),
]  # fmt: skip


test_grade_freetext_names_a_round45_c37_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round45_c37_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: read-only names, no not-read gain (round 45, engineer C37)",
)
test_grade_freetext_round45_c37_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


QUESTIONS = (PT, WNG, HOD)


def round45_phrasings() -> list[str]:
    """Every list item under this round's `# Round 45 (engineer C37)` comments."""
    return list(dict.fromkeys(phrasings_under("# Round 45 (engineer C37)", QUESTIONS)))


PUMPED = [
    "when the with block exits the tape is closed " * 250,
    "the tape the tape the tape block block exits exits " * 200,
    "the with block closes the tape " * 300,
    "the tape goes out of scope after the with block " * 200,
    "python cleans it up when the with block exits " * 200,
    "a tape can only give you one derivative " * 250,
    "tape tape can can only only one one " * 300,
]


def test_round45_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round45_phrasings()
    # why-none-gradients 1, persistent-tape 5, higher-order-derivatives 1
    assert len(patterns) == 7
    assert_linear_on(patterns, PUMPED)
