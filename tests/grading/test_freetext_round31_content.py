"""Round 31 of issue 14 (engineer C11, rubric content): round 30's final set, now tuned on
(japanese-native-engineer, excel-finance-analyst, phone-autocorrect-typist,
computational-neuroscientist), read one answer at a time for stated misconceptions the rules did
not name, and the false tells on correct answers whose cause was a phrasing. New phrasings that
read a belief's claim rather than one answer's words (old gradients added onto the new ones,
gradients that include the previous batches, a tape that keeps adding them up or still holds the
previous steps' ops, a previous batch leaking into the current update, the sum as the whole
batch's gradient, apply_gradients refreshing BatchNorm's statistics, the update written with
w_new and a typographic minus, the optimizer "just holding" the learning rate, the gradient call
as a lookup, gradients already computed while the forward pass runs, the gradient call raising
for "them") and guards: the same words in true statements (PyTorch's "you have to clear them",
everything upstream getting None while downstream is fine, momentum carried from previous steps,
the forward pass that updates BatchNorm's statistics, a loss built from a tf.constant).
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 31:
rubric content from round 30's set (engineer C11)"). Read by the rules alone: the learned parts
are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("no-zero-grad", "tape-accumulates", "Keep the same tape for the whole run and the stale gradients are summed into the fresh ones."),
    ("no-zero-grad", "tape-accumulates", "The new gradients are combined with the previous ones unless you reset."),
    ("no-zero-grad", "tape-accumulates", "Gradients from past iterations are stacked onto this step's result."),
    ("no-zero-grad", "tape-accumulates", "Without a reset your gradients would also include the earlier batches."),
    ("no-zero-grad", "tape-accumulates", "A tape you hold on to just keeps summing the gradients step after step."),
    ("no-zero-grad", "tape-accumulates", "The tape still holds the last iteration's operations when the next one starts."),
    ("no-zero-grad", "tape-accumulates", "Reusing one tape across several iterations means the gradients are accumulated."),
    ("no-zero-grad", "tape-accumulates", "Signal from earlier batches bleeds into the current update."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "The sum of the micro-batch gradients is the gradient for the entire batch."),
    ("trainable-vs-all-variables", "bn-stats-updated-by-optimizer", "apply_gradients also refreshes the BatchNorm moving statistics."),
    ("trainable-vs-all-variables", "bn-stats-updated-by-optimizer", "It updates the batch norm running means in the same call."),
    ("trainable-vs-all-variables", "non-trainable-gradient-errors", "Those are not trainable, and tape.gradient raises an error for them."),
    ("trainable-vs-all-variables", "non-trainable-gradient-errors", "Ask for gradients with respect to those and the tape throws."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Under the hood apply_gradients is simply w_new = w − lr * g for each pair."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "The optimizer is basically just holding the learning rate."),
    ("gradient-vs-apply", "gradients-computed-in-forward", "Each weight's gradient is already calculated while the forward pass runs."),
    ("gradient-vs-apply", "gradients-computed-in-forward", "By the end of the forward pass every weight already has its gradient."),
    ("gradient-vs-apply", "gradients-computed-in-forward", "After that, gradient() is essentially a lookup."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "nothing to zero in tf. in torch the grads build up in .grad on every param so you have to clear them, in tf each step gets new tensors"),
    ("no-zero-grad", "In torch the old gradients get added onto the new ones, which is why zero_grad exists."),
    ("no-zero-grad", "Momentum from previous steps leaks into the current update by design; that is optimizer state, not gradients."),
    ("no-zero-grad", "Your own accumulators keep summing the gradients until you reset them."),
    ("numpy-inside-tape", "Everything upstream of the conversion comes back None, downstream is fine."),
    ("numpy-inside-tape", "Everything downstream of h trains; everything upstream gets None."),
    ("trainable-vs-all-variables", "The optimizer steps only the trainable weights; the layer itself updates the BatchNorm statistics during a training=True call."),
    ("trainable-vs-all-variables", "The forward pass with training=True updates the BatchNorm moving statistics, not apply_gradients."),
    ("gradient-accumulation", "The sum of the micro-batch gradients is four times the gradient for the entire batch, so divide by 4."),
    ("gradient-vs-apply", "What is needed for the gradient is recorded while the forward pass runs; tape.gradient then does the backward pass."),
    ("why-none-gradients", "Another cause: the loss was built from a tf.constant that was computed earlier, so no path reaches the weights."),
    ("gradient-vs-apply", "For plain SGD, apply_gradients does w_new = w − lr * g; Adam keeps moment estimates as well."),
]  # fmt: skip


test_grade_freetext_names_a_round31_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round31_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
