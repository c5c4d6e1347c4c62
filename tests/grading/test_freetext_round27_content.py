"""Round 27 of issue 14 (engineer C7, rubric content): round 26's final set, now tuned on
(keras-train-step-overrider, timeseries-rnn-forecaster, meta-learning-researcher), read one
answer at a time for stated misconceptions the rules did not name, and round 26's notes on
false tells on correct answers. New phrasings for beliefs the rubrics hold (the optimizer
holding only the learning rate, clipping "by default", gradients "attached" to the layers,
the update "once applied" clearing them, a second call differentiating the first result
again, the training flag carrying an RNN's state, ...), two beliefs moved to a question where
they were stated (persistent-by-default on gradient-vs-apply, bn-stats-updated-by-optimizer on
trainable-vs-all-variables), one new belief (fit-sets-training-phase), and guards: the same
words in true statements (big models that gain less, a gain that stays small with large
batches, the optimizer building its slots, two lists kept aligned, a moving statistic's
gradient that is None, "call outer.gradient(first, x)"). Statements written for this file, in
words of their own (docs/freetext-rounds.md "Round 27: rubric content from round 26's set
(engineer C7)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "optimizer-is-stateless", "The optimizer object only keeps the learning rate, nothing else."),
    ("gradient-vs-apply", "apply-clips-by-default", "By default the optimizers clip the gradients before stepping, so exploding gradients are rare."),
    ("gradient-vs-apply", "grads-stored-on-variables", "After backprop the weights have their gradients attached, and apply_gradients commits them."),
    ("gradient-vs-apply", "persistent-by-default", "You can call tape.gradient as many times as you want on the same tape."),
    ("no-zero-grad", "optimizer-clears-grads", "The optimizer clears the gradients once the step is applied, so nothing carries over."),
    ("tf-function-speedup", "tf-function-is-xla", "Inside tf.function the graph is then compiled with XLA, which fuses kernels."),
    ("tf-function-speedup", "big-models-gain-most", "Big convolution-heavy models gain the most from it."),
    ("tf-function-speedup", "large-batch-gains-most", "With large batches you gain the most, since more work is fused."),
    ("training-flag", "bn-updates-in-inference", "Without the flag the running means are still updated each batch, only the normalisation differs."),
    ("training-flag", "training-flag-controls-rnn-state", "In training mode the LSTM layer carries its state forward between batches."),
    ("training-flag", "training-flag-controls-rnn-state", "In inference mode the recurrent layer resets its state every batch."),
    ("training-flag", "fit-sets-training-phase", "In a train_step override you can drop it, since fit sets the learning phase to training before calling train_step."),
    ("training-flag", "batchnorm-modes-swapped", "BN normalises with the moving mean while training."),
    ("why-none-gradients", "tape-discarded-on-block-exit", "When the with block exits the tape finalises, so a later gradient call gets nothing."),
    ("why-none-gradients", "none-means-zero-signal", "The gradients vanish to zero in a deep network, so TensorFlow gives None."),
    ("numpy-inside-tape", "numpy-function-is-differentiable", "Put the NumPy part in tf.py_function; TF then treats it as an op and gradients flow through it."),
    ("higher-order-derivatives", "gradient-twice-same-tape", "With one persistent tape the second call differentiates the first result once more."),
    ("higher-order-derivatives", "gradient-twice-same-tape", "Keep the tape alive and differentiate dy through it again."),
    ("higher-order-derivatives", "nesting-order-reversed", "Call outer.gradient first, then the inner one."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The optimizer would update the BN moving averages with a gradient step."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "If you passed them, the BatchNorm moving statistics would receive gradients and drift."),
    ("trainable-vs-all-variables", "bn-stats-updated-by-optimizer", "The BatchNorm statistics are updated by the optimizer inside apply_gradients."),
    ("trainable-vs-all-variables", "variables-include-optimizer-slots", "model.variables also includes the optimizer's slots once they exist, Adam's m and v for every weight."),
    ("trainable-vs-all-variables", "apply-takes-separate-lists", "apply_gradients takes two separate lists, the gradients and the variables."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "The optimizer holds its state: Adam's moments, the step counter and the learning rate."),
    ("gradient-vs-apply", "Clipping only happens if you configure clipnorm or clipvalue on the optimizer."),
    ("gradient-vs-apply", "A default tape lets you call gradient once; with persistent=True you can call it as many times as you want on the same tape."),
    ("tf-function-speedup", "Big convolution-heavy models on GPU gain less because the time is already in the kernels."),
    ("tf-function-speedup", "On big convnets with large batches the gain is small, since the kernels dominate."),
    ("tf-function-speedup", "The graph can also be compiled with XLA if you pass jit_compile=True."),
    ("training-flag", "If you leave it out, BatchNorm uses its moving averages, which only get refreshed in training mode."),
    ("training-flag", "With training=True the moving averages are still updated every step while the layer normalises with batch statistics."),
    ("training-flag", "fit's default train_step passes training=True itself; in your own train_step you must pass it."),
    ("why-none-gradients", "A zero gradient means there's a path whose derivative happens to vanish; None means there is no path at all."),
    ("higher-order-derivatives", "Then leave the outer block and call outer.gradient(first, x) to get the second derivative."),
    ("higher-order-derivatives", "The inner tape gives the first derivative and the outer tape records that call and differentiates it again."),
    ("trainable-vs-all-variables", "trainable_variables is exactly the set the optimizer should touch, and it's also what the optimizer builds its slot variables for."),
    ("trainable-vs-all-variables", "Passing trainable_variables also means Adam keeps its slot variables only for the weights it trains."),
    ("trainable-vs-all-variables", "Passing it to both tape.gradient and apply_gradients keeps the two lists aligned."),
    ("trainable-vs-all-variables", "Plus the optimizer would make Adam slots for all of them for nothing."),
    ("trainable-vs-all-variables", "The BN moving stats would get their gradient as None, since they are not on the loss's path."),
    ("trainable-vs-all-variables", "BatchNorm updates its moving averages itself during the forward pass; the optimizer never touches them."),
]  # fmt: skip


test_grade_freetext_names_a_round27_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round27_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
