"""Round 28 of issue 14 (engineer C8, rubric content): round 27's final set, now tuned on
(graph-neural-net-researcher, knowledge-distillation-engineer, gradient-boosting-switcher,
german-native-engineer), read one answer at a time for stated misconceptions the rules did not
name and for tells named on correct answers. New phrasings for beliefs the rubrics hold, in these
voices (tape.reset() as "what zero_grad is called", repeated gradient calls adding up, the
optimizer keeping gradients in its slots, NumPy ops "dispatched back" to TensorFlow, the training
flag letting the optimizer update, a normal apply after each micro-batch, a second call on the
first call's result, ...) and guards: the same words in true statements ("applies the chain
rule", "that's fine if it's done in preprocessing", "fails if all are None", the BN averages
"but" not the optimizer's slots, "keeps its recording"). Statements written for this file, in
words of their own (docs/freetext-rounds.md "Round 28: rubric content from round 27's set
(engineer C8)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("no-zero-grad", "tape-reset-is-zero-grad", "In TensorFlow it is called tape.reset()."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "Call tape.reset() between the calls to get clean gradients again."),
    ("no-zero-grad", "tape-reset-is-zero-grad", "Make tape.reset() the first line of every training step."),
    ("no-zero-grad", "tape-accumulates", "With a persistent tape, successive gradient calls keep adding up."),
    ("no-zero-grad", "optimizer-stores-accumulated-gradients", "The optimizer holds the previous gradients in its slot variables."),
    ("no-zero-grad", "optimizer-clears-grads", "apply_gradients reads the stored gradients and sets them back afterwards."),
    ("no-zero-grad", "recreate-optimizer-resets", "After a skipped step you have to create a new optimizer."),
    ("gradient-vs-apply", "grads-stored-on-variables", "tape.gradient attaches each gradient to the matching variable for later."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient does the heavy lifting: it gets the slope and multiplies it by the learning rate."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "All optimizers use the same formula, only the learning rate differs."),
    ("numpy-inside-tape", "numpy-is-recorded", "NumPy calls on these tensors get dispatched back to TensorFlow, so the tape sees them."),
    ("numpy-inside-tape", "numpy-is-recorded", "Once the array becomes a tensor again, the tape carries on from there."),
    ("numpy-inside-tape", "numpy-is-recorded", "Backprop runs through as usual."),
    ("numpy-inside-tape", "numpy-dtype-breaks-gradient", "Cast the result back to float32 with tf.cast so the tape can match it again."),
    ("numpy-inside-tape", "variable-watch-survives-numpy", "The weights are still watched whatever happens to h in between."),
    ("training-flag", "missing-flag-stops-learning", "Without the flag the gradients stay stuck at zero."),
    ("training-flag", "training-flag-is-optimizer-mode", "The flag is what makes the optimizer allowed to update the weights."),
    ("training-flag", "training-auto-detected-in-tape", "Leave it out and Keras uses training mode anyway."),
    ("training-flag", "missing-training-flag-errors", "You get an error about uninitialized moving statistics on step one."),
    ("trainable-vs-all-variables", "variables-include-optimizer-slots", "model.variables also holds the variables of the optimizer, such as its step counter."),
    ("trainable-vs-all-variables", "variables-include-optimizer-slots", "model.variables contains the BN statistics and the optimizer's own state."),
    ("persistent-tape", "runtime-error-from-weight-change", "The first gradient call already changes the weights, so the second one fails."),
    ("persistent-tape", "two-tapes-need-two-forwards", "You need two forward passes with their own tape each."),
    ("persistent-tape", "separate-gradients-impossible", "A tape returns gradients for one loss only."),
    ("tf-function-speedup", "graph-caches-gradients", "Because tf.function the gradient calculation caches, later steps are cheap."),
    ("gradient-accumulation", "apply-every-micro-batch", "For each micro-batch run a regular apply_gradients with a quarter of the learning rate."),
    ("gradient-accumulation", "apply-every-micro-batch", "That gives 4 updates per batch of 256, which is fine."),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Put all four micro-batches in one GradientTape."),
    ("gradient-accumulation", "tape-stores-no-activations", "The tape just records the wiring of the graph, so memory stays low."),
    ("gradient-accumulation", "accumulators-never-reset", "Then the accumulators just keep adding on with the next batches."),
    ("gradient-accumulation", "accumulation-matches-batchnorm", "It is the same as the big batch in every way, BN too."),
    ("higher-order-derivatives", "gradient-twice-same-tape", "Just call gradient on the output of the first tape.gradient."),
    ("higher-order-derivatives", "persistent-gives-second-order", "Persistence is what lets it keep the first derivative's history."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Once both blocks have closed, call t1.gradient and then t2.gradient."),
    ("why-none-gradients", "must-watch-variables", "Weights are not automatically tracked, so watch them yourself."),
    ("why-none-gradients", "training-flag-enables-gradients", "The model then runs in eval mode, where the ops are not taped."),
    ("why-none-gradients", "needs-compile-for-gradients", "The model wasn't compiled, so Keras has no loss to work with."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "Even if you keep recording into one tape, the gradients are new tensors on each call."),
        ("gradient-vs-apply", "tape.gradient walks the tape backwards and applies the chain rule to get one gradient for each of the weights."),
    ("numpy-inside-tape", "That's fine if you do it in preprocessing, outside the training step."),
    ("numpy-inside-tape", "The layers before h get None, and apply_gradients complains if all are None."),
    ("trainable-vs-all-variables", "model.variables also includes the BN moving averages, but the optimizer's slots live on the optimizer."),
    ("persistent-tape", "Set persistent=True so the tape keeps its recording, compute both gradients from it, then del the tape."),
]  # fmt: skip


test_grade_freetext_names_a_round28_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round28_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
