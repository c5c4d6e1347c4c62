"""Round 26 of issue 14 (engineer C6, rubric content): round 25's final set, now tuned on,
read one answer at a time for stated misconceptions the rules did not name and for the false
tells on correct answers. Three beliefs on gradient-vs-apply that had no slot under the old
30-misconception limit (apply_gradients as a Bayesian posterior update, apply_gradients
needing the loss to size its step, the gradients kept on the tape) and two it had
no room for (a gradient per example, repeated gradient calls adding up), new phrasings for beliefs
the rubrics hold (a kept tape taking in the next step's gradients, the gradients living on
the tape, a list target giving both gradients back, two forward passes one per tape, ...), and
guards: the same words in true statements (your own accumulators reset, the optimizer
creating its slots). Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 26: rubric content, and the misconception limit (engineer
C6)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-is-posterior-update", "Think of apply_gradients as a Bayesian posterior update: the data's gradient revises your belief about the weights."),
    ("gradient-vs-apply", "apply-is-posterior-update", "In the optimizer step the existing weights play the role of the prior and the batch is the likelihood."),
    ("gradient-vs-apply", "apply-needs-loss", "apply_gradients uses the loss value too, it checks it to choose the step size."),
    ("gradient-vs-apply", "apply-needs-loss", "Under the hood the optimizer performs a line search before writing the weights."),
    ("gradient-vs-apply", "tape-holds-gradients", "The backward pass leaves the gradients in the tape, and the optimizer collects them from there."),
    ("gradient-vs-apply", "tape-holds-gradients", "After tape.gradient the grads sit on the tape until apply_gradients uses them."),
    ("gradient-vs-apply", "gradient-returns-per-example", "The optimizer averages the per-sample gradients that tape.gradient handed back."),
    ("gradient-vs-apply", "tape-accumulates", "If you run the gradient call twice before applying, the gradients come out doubled."),
    ("no-zero-grad", "tape-accumulates", "As long as you keep the same tape, the next step's gradients are summed into it."),
    ("no-zero-grad", "tape-holds-gradients", "Between steps the grads sit in the tape, so a new tape means they start empty."),
    ("persistent-tape", "list-target-separate-grads", "Just call tape.gradient([loss_a, loss_b], weights) and it returns both, one per loss."),
    ("persistent-tape", "two-tapes-need-two-forwards", "Run the forward pass twice, one per tape, and take one gradient from each."),
    ("persistent-tape", "tape-discarded-on-block-exit", "Nothing to delete afterwards: tapes are released when the with block exits."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Keep the accumulated gradients as they are and apply them as the sum of the four micro-batches."),
    ("tf-function-speedup", "big-models-gain-most", "You see the biggest speedup on models with lots of variables."),
    ("higher-order-derivatives", "persistent-gives-second-order", "Make the tape persistent and every call takes you one derivative further."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients is no Bayesian update: it applies the optimizer's rule to each gradient and variable pair and assigns the new values; tape.gradient only returns the gradients."),
    ("gradient-vs-apply", "tape.gradient returns the gradients as a list of tensors without changing anything; apply_gradients never looks at the loss, it applies the optimizer's rule and updates the weights."),
    ("gradient-vs-apply", "minimize() takes the loss and computes the gradients itself; apply_gradients takes only the gradient and variable pairs and changes the weights."),
    ("gradient-vs-apply", "The tape stores the recording of the forward pass; tape.gradient walks it backwards and returns the gradients to you, and apply_gradients changes the weights."),
    ("gradient-vs-apply", "tape.gradient returns one gradient per variable, averaged over the batch only because the loss is a mean; apply_gradients applies the optimizer's rule and changes the weights."),
    ("no-zero-grad", "There is nothing to zero; if you want accumulation you have to add the gradients into accumulator variables and reset them yourself after the update."),
    ("no-zero-grad", "You only zero anything if you write your own accumulation, summing the grads of each micro-batch in float32 variables; tape.gradient returns new tensors each step."),
    ("no-zero-grad", "Gradients do not live on the tape; every tape.gradient call returns fresh tensors, and a new tape each step records from scratch."),
    ("trainable-vs-all-variables", "Using trainable_variables also keeps the optimizer from creating the optimizer's slot variables for frozen layers; model.variables adds the BatchNorm moving statistics."),
    ("persistent-tape", "A default tape is freed after its first gradient call; use persistent=True and call gradient twice, then del the tape."),
    ("persistent-tape", "Open two tapes over the same forward pass instead of running two forward passes; each tape then gives one gradient call."),
    ("higher-order-derivatives", "persistent=True only lets you call gradient several times; each call gives the same first derivative, not one order higher."),
    ("gradient-accumulation", "Add each micro-batch's gradients into tf.Variable accumulators, divide by four so the update matches the 256-example mean loss, apply once and reset."),
]  # fmt: skip


test_grade_freetext_names_a_round26_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round26_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
