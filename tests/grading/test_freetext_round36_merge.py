"""Round 36 of issue 14, the lead's merge: engineer M8's answer guard (`!!(...)`,
answer_guards.py) put to its first use, two `summed-gradients-equal-big-batch` phrasings of
gradient-accumulation.yaml that hold only where nothing in the whole answer divides, averages or
scales the sum (round 35's C17 measured the same reading per sentence at 4 false tells; with the
guard, 13 more labelled tags named on tune, 0 false tells on correct answers). Statements written
for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

TAG = "summed-gradients-equal-big-batch"

WRONG = [
    ("gradient-accumulation", TAG, "Because gradients are linear, the gradient of the sum is the sum of the four micro-batch gradients, so I add them and apply once."),
    ("gradient-accumulation", TAG, "Derivatives are additive: the gradient for a sum of losses is the sum of their gradients. Add the four lists into the accumulators and apply."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", "Gradients are linear, so the gradient of the sum is the sum of the gradients; divide the accumulated sum by 4 before applying so it matches the mean over 256."),
    ("gradient-accumulation", "The gradient of the sum is the sum of the gradients.\nThen average them: apply acc / 4 and reset the accumulators."),
]  # fmt: skip

test_grade_freetext_names_a_round36_merge_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round36_merge_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
