"""Round 18 (engineer R): the reader. (1) A denial that is a reset's purpose ("reset the
tape every step so it does not accumulate gradients") says what would happen without the
reset: it states the belief, it does not deny it (`purposes.reset_purpose`; shipped).
(2) Measured and dropped (it moved no labelled answer): after "therefore", "thus" or "hence"
a noun phrase with a verb of its own as the conclusion's subject, so that "Big models are
compute-bound, therefore small models gain the most" would not read "big models ... gain
the most"; its true statements are strict xfails. Rules alone. docs/freetext-rounds.md
"Round 18: reader (engineer R)" says what was measured, kept and dropped.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.core_questions import concepts_by_rules
from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

# (1) A reset's purpose, denied: the belief that the thing reset would otherwise build up.
RESET_PURPOSE_WRONG = [
    ("no-zero-grad", "tape-accumulates", "You reset the tape every step so it does not accumulate gradients."),
    ("no-zero-grad", "tape-accumulates", "You have to reset the tape each step so that it doesn't accumulate the gradients."),
    ("no-zero-grad", "tape-accumulates", "apply_gradients clears the gradients left over from the previous batch so they don't accumulate."),
]  # fmt: skip
# True statements and denials with the same words: no reset before the "so", a reset that
# is itself denied, a consequence for the learner ("so you don't ..."), accumulators (which
# do build up until reset), and the denial without a purpose.
RESET_PURPOSE_TRUE = [
    ("no-zero-grad", "Nothing needs resetting, so the gradients never accumulate."),
    ("no-zero-grad", "You don't reset anything, so gradients don't accumulate: each tape.gradient call returns fresh tensors."),
    ("no-zero-grad", "A new tape each step, so nothing accumulates: there is nothing to reset."),
    ("no-zero-grad", "The tape does not accumulate gradients, so there is nothing to reset."),
    ("no-zero-grad", "There is no zero_grad to call, so you don't have to reset anything."),
    ("gradient-accumulation", "Reset the accumulators after every fourth apply so they don't keep growing."),
    ("gradient-accumulation", "Zero the accumulators after each apply so the next cycle does not add onto the old sums."),
]  # fmt: skip


test_a_denied_reset_purpose_states_the_belief = names_the_tell(
    RESET_PURPOSE_WRONG, fields="qid tag text", tells=_tells
)
test_a_true_denial_near_a_reset_names_nothing = names_nothing(
    RESET_PURPOSE_TRUE, fields="qid text", tells=_tells
)


def test_a_reset_purpose_earns_no_fresh_gradients_credit() -> None:
    # Before round 18 the denial credited "nothing is carried over" and the answer was correct.
    assert "fresh-gradients" not in concepts_by_rules(
        "no-zero-grad", "The tape is reset each step so the gradients don't accumulate."
    )


def test_a_plain_denial_still_earns_fresh_gradients_credit() -> None:
    assert "fresh-gradients" in concepts_by_rules(
        "no-zero-grad", "Nothing needs resetting, so the gradients never accumulate."
    )


# (2) A conclusion with a subject of its own after "therefore" / "thus" / "hence": still read
# across the "therefore" (the reading was measured and dropped: no labelled answer moved).
CONCLUSION_TRUE = [
    ("tf-function-speedup", "Big models are compute-bound, therefore small models gain the most."),
    ("tf-function-speedup", "Big models are compute-bound, thus small models gain the most."),
    ("tf-function-speedup", "Big models are compute-bound; therefore the small models gain the most from tf.function."),
]  # fmt: skip
# The same words where the conclusion has no subject of its own, or its subject is the big
# model: still the tell.
CONCLUSION_WRONG = [
    ("tf-function-speedup", "big-models-gain-most", "Big models gain the most from tf.function."),
    ("tf-function-speedup", "big-models-gain-most", "Large models therefore gain the most."),
    ("tf-function-speedup", "big-models-gain-most", "Large models have more ops, therefore they gain the most."),
    ("tf-function-speedup", "big-models-gain-most", "Large networks launch more ops and therefore benefit the most from graph mode."),
]  # fmt: skip


test_a_conclusion_with_its_own_subject_is_read_alone = names_nothing(
    CONCLUSION_TRUE,
    fields="qid text",
    tells=_tells,
    xfail="measured, moved no labelled answer (round 18, dropped): read across it",
)
test_a_conclusion_about_the_same_subject_still_names_the_tell = names_the_tell(
    CONCLUSION_WRONG, fields="qid tag text", tells=_tells
)
