"""Round 23 of issue 14 (engineer C3, rubric content): round 22's final set, now tuned on,
read one answer at a time. On no-zero-grad, three beliefs said in words the phrasings lacked:
the optimizer said to keep the gradients between steps (or the gradients to live in it),
recreating the optimizer offered as zero_grad's counterpart or for a clean start, and the
optimizer's own variables reset or assigned zeros as the counterpart. Statements written for
this file, in words of their own (docs/freetext-rounds.md "Round 23: rubric content (engineer
C3)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # optimizer-stores-accumulated-gradients: kept by the optimizer between steps, or living in it
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "Keras optimizers hold the gradients internally, so you have to clear them yourself."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "The optimizer retains its gradients from one step to the next."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "In TF the gradients are stored in the optimizer rather than on the variables."),
    # recreate-optimizer-resets: recreating it offered as the counterpart or a clean start
    ("no-zero-grad", "recreate-optimizer-resets", "TensorFlow's counterpart is to rebuild the optimizer before each batch."),
    ("no-zero-grad", "recreate-optimizer-resets", "Re-instantiating the Adam optimizer each step is the TensorFlow equivalent."),
    # zero-grad-resets-momentum: the optimizer's variables zeroed as the counterpart
    ("no-zero-grad", "zero-grad-resets-momentum", "You reset the optimizer's variables at the top of every step instead."),
    ("no-zero-grad", "zero-grad-resets-momentum", "Iterate over optimizer.variables and assign zeros to each one per step."),
]  # fmt: skip

CORRECT = [
    # guards: the new phrasings' words in true statements
    ("no-zero-grad", "There is nothing to zero. The optimizer keeps only its momentum slots between steps, and tape.gradient returns new tensors each call."),
    ("no-zero-grad", "Nowhere. With gradient_accumulation_steps set, a Keras 3 optimizer keeps its accumulators between steps, and tape.gradient still returns fresh tensors."),
    ("no-zero-grad", "You never call it. Recreating the optimizer would only throw away its momentum, which zero_grad never touches."),
    ("no-zero-grad", "Nowhere: gradients are not stored in the optimizer; tape.gradient returns them fresh and apply_gradients consumes them."),
]  # fmt: skip


test_grade_freetext_names_a_round23_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round23_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
