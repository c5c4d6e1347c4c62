"""Round 39 of issue 14 (engineer C24, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad and tf-function-speedup): first the false tells on answers labelled correct, counted by
question, tag and persona over the tune personas. On gradient-vs-apply, gradient-updates-weights read
"change" in a code comment saying the opposite ("tape.gradient(...)  # no change to model") as
tape.gradient's verb: a noun before "to" is no verb now. On no-zero-grad, needs-zero-grad read a
"fresh start" as the time of a reset ("at the start of each step"): "start" after fresh, clean, new
or from, and "start over (again, from scratch)", are no time now. Then a belief the labellers named
on gradient-vs-apply that no tell read there, known on gradient-accumulation:
optimizer-normalizes-by-batch-size (apply_gradients said to divide by the batch size). Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 39: gradient-vs-apply,
gradient-accumulation, no-zero-grad and tf-function-speedup content and false tells (engineer
C24)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "optimizer-normalizes-by-batch-size", "tape.gradient gives the summed gradients and apply_gradients then divides them by the batch size before the step."),
    ("gradient-vs-apply", "optimizer-normalizes-by-batch-size", "Don't average the loss yourself: the Adam optimizer normalises by the batch size when it applies the update."),
    ("gradient-vs-apply", "optimizer-normalizes-by-batch-size", "The optimizer knows the batch size, so apply_gradients scales every gradient for you and then updates the weights."),
]  # fmt: skip

# Still named, as before: the beliefs the two narrowed phrasings were written for.
STILL_WRONG = [
    ("gradient-vs-apply", "gradient-updates-weights", "grads = tape.gradient(loss, model.trainable_variables) changes the weights right away."),
    ("no-zero-grad", "needs-zero-grad", "You have to reset the optimizer state at the start of every step, like zero_grad."),
    ("no-zero-grad", "needs-zero-grad", "Clear the optimizer's slots at the start of each batch."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "tape.gradient returns the gradients and changes nothing.\n\n```python\ngrads = tape.gradient(loss, model.trainable_variables)  # no change to the model yet\noptimizer.apply_gradients(zip(grads, model.trainable_variables))  # weights updated here\n```"),
    ("gradient-vs-apply", "```python\ngrads = tape.gradient(loss, vars)  # zero changes to the variables\nopt.apply_gradients(zip(grads, vars))  # the only call that writes them\n```\nOnly apply_gradients updates the weights; it applies the optimizer's rule."),
    ("no-zero-grad", "There is no zero_grad in TensorFlow and you don't need one. If you really want a fresh start you can reset the optimizer state (its momentum), but that is a different thing and you never do it between steps."),
    ("no-zero-grad", "No zeroing call: tape.gradient returns new tensors each step. For a clean start of a new experiment you may reset the optimizer state, which has nothing to do with gradients."),
]  # fmt: skip


test_grade_freetext_names_a_round39_c24_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round39_c24_narrowed_tells_still_name = names_the_tell(
    STILL_WRONG, tells=tells_by_rules
)
test_grade_freetext_round39_c24_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
