"""Round 18 of issue 14 (engineer C, rubric content): the nine labeller tags of round 17's
final set that no rubric knew (five are rubric tags now, four mapped onto the rubric tag
naming the same belief), the four tags merged into another on the two rubrics at the
30-misconception limit (their phrasings moved, their names kept as tag-map aliases), tags
copied to questions whose labellers named them there, and a widened tell
(`bn-stats-get-gradients`: the optimizer as the agent moving the statistics).
Wrong statements each belief must be read in, and true statements sharing their words that
must name nothing (docs/freetext-rounds.md "Round 18: rubric content (engineer C)"). Read by
the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # nested-tapes-dont-watch-variables, mapped onto must-watch-variables (new on higher-order-derivatives)
    ("higher-order-derivatives", "must-watch-variables", "Nested tapes do not watch tf.Variables automatically, so you must call watch even for variables."),
    ("higher-order-derivatives", "must-watch-variables", "With nested tapes you need to watch the variables explicitly on both tapes."),
    # nested-tapes-double-count (new, higher-order-derivatives)
    ("higher-order-derivatives", "nested-tapes-double-count", "The nested tapes differentiate y twice, so the second derivative is double-counted and you must halve it."),
    ("higher-order-derivatives", "nested-tapes-double-count", "Because both tapes see y, the result is counted twice; divide it by 2."),
    # sequential-tapes-second-derivative (new, higher-order-derivatives)
    ("higher-order-derivatives", "sequential-tapes-second-derivative", "Use two separate tapes one after the other: the first gives dy/dx, the second differentiates that."),
    ("higher-order-derivatives", "sequential-tapes-second-derivative", "Tapes cannot be nested, so run two sequential tapes."),
    # tf-function-speedup-from-memory (new, tf-function-speedup)
    ("tf-function-speedup", "tf-function-speedup-from-memory", "The speedup comes mainly from static memory allocation: the graph plans its memory up front."),
    ("tf-function-speedup", "tf-function-speedup-from-memory", "tf.function is faster because memory is preallocated once instead of on every op."),
    # training-flag-controls-reg-losses (new, training-flag)
    ("training-flag", "training-flag-controls-reg-losses", "training=True only controls bookkeeping like adding the regularization losses; the forward pass is the same."),
    ("training-flag", "training-flag-controls-reg-losses", "The flag just decides whether the activity regularization losses are added to model.losses."),
    # variables-include-mirrored-copies (new, trainable-vs-all-variables)
    ("trainable-vs-all-variables", "variables-include-mirrored-copies", "Under MirroredStrategy model.variables also contains the per-replica copies of every weight."),
    ("trainable-vs-all-variables", "variables-include-mirrored-copies", "model.variables includes one mirrored copy per GPU, which is why it is longer."),
    # bn-stats-get-gradients widened: the optimizer as the agent
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "If you passed model.variables you'd also be updating the BatchNorm moving mean and variance with the optimizer."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Pass everything and gradient descent starts pushing the running mean and variance around."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The BatchNorm moving averages would get trained by the optimizer too."),
    # grads-stored-on-variables copied to persistent-tape and higher-order-derivatives
    ("persistent-tape", "grads-stored-on-variables", "The gradients are stored on the variables after the first call, so the second call overwrites them."),
    ("higher-order-derivatives", "grads-stored-on-variables", "The first derivative's gradients are kept on the variables, and the outer tape reads them from there."),
    # copied tags
    ("persistent-tape", "gradient-updates-weights", "tape.gradient already updated the weights after the first call, so the second call sees different weights."),
    ("higher-order-derivatives", "gradient-reruns-forward", "Calling tape.gradient reruns the forward pass, so the outer tape sees y computed again."),
    ("why-none-gradients", "numpy-dtype-breaks-gradient", "NumPy works in float64 while the model is float32, and that dtype mismatch is what gives None; cast back to float32."),
    ("gradient-accumulation", "loss-outside-is-fine", "Inside the loop the loss can be computed after the tape block, since the tape already saw the model call."),
    ("training-flag", "gradient-reruns-forward", "Then tape.gradient reruns the forward computation, and training=True makes sure dropout is applied there too."),
    # merged tags: the old tags' statements are named by the tag they were merged into
    ("persistent-tape", "separate-gradients-impossible", "A tape can only track one loss at a time."),
    ("gradient-accumulation", "tape-stores-no-activations", "I think a persistent tape stores gradients, so one persistent tape over the micro-batches saves memory."),
    ("gradient-accumulation", "apply-releases-tape", "apply_gradients reads what the tape stored, so you can only apply once per tape, which makes accumulation awkward."),
    ("persistent-tape", "persistent-records-after-block", "A persistent tape continues recording after the block, so you need stop_recording() to release it."),
]  # fmt: skip

CORRECT = [
    ("higher-order-derivatives", "Both tapes watch the variables automatically; only a tf.constant x must be watched on each tape."),
    ("higher-order-derivatives", "If x is a constant, watch it on both tapes; a tf.Variable is watched automatically."),
    ("higher-order-derivatives", "Nothing is counted twice: the inner tape gives dy/dx and the outer differentiates it once more."),
    ("higher-order-derivatives", "Nest the inner tape inside the outer tape; two sequential tapes would not work because the second sees nothing."),
    ("higher-order-derivatives", "Tapes can be nested: the outer one records the inner gradient computation."),
    ("higher-order-derivatives", "x has to be a tf.Variable or you have to watch it on both tapes."),
    ("higher-order-derivatives", "Unlike PyTorch, there is no .grad attribute: the inner tape returns dy/dx as a tensor."),
    ("higher-order-derivatives", "The inner gradient is a tensor returned by tape.gradient, not stored on x; the outer tape records the ops that computed it."),
    ("tf-function-speedup", "tf.function removes the per-op Python overhead; Grappler can also plan memory, a minor bonus."),
    ("tf-function-speedup", "It removes Python dispatch overhead, so small models gain most."),
    ("training-flag", "training=True switches Dropout on and makes BatchNorm use batch statistics; regularization losses are added either way."),
    ("training-flag", "training=True makes Dropout drop units and BatchNorm use the batch statistics and update its moving averages."),
    ("trainable-vs-all-variables", "The moving mean and variance are updated by an exponential moving average in the forward pass, not by the optimizer."),
    ("trainable-vs-all-variables", "No optimizer should update the BatchNorm moving statistics, so we pass trainable_variables."),
    ("trainable-vs-all-variables", "The optimizer would get None for the moving mean and variance and skip them with a warning."),
    ("trainable-vs-all-variables", "Passing model.variables is wrong: the optimizer would try to update the moving statistics."),
    ("persistent-tape", "tape.gradient only returns the gradients; it does not touch the weights, and a default tape frees its recording after that call."),
    ("persistent-tape", "tape.gradient returns the gradients as new tensors; nothing is stored on the variables."),
    ("persistent-tape", "Make the tape persistent and del it when finished; stop_recording only pauses recording inside the block."),
    ("gradient-accumulation", "Keep a list of tf.Variable accumulators and add each micro-batch's gradients into them; apply once, then reset them."),
    ("gradient-accumulation", "Accumulate the gradients in your own variables initialised with tf.zeros_like, since TensorFlow keeps nothing on the weights."),
    ("gradient-accumulation", "Compute each micro-batch's forward pass and loss inside its own tape, then take the gradient and add it to the accumulators."),
    ("gradient-accumulation", "apply_gradients only takes (gradient, variable) pairs; you can keep the summed gradients and apply them later."),
    ("gradient-accumulation", "The loss must be computed inside each micro-batch's tape block, not after it."),
    ("training-flag", "tape.gradient walks the recorded ops backwards; the forward pass already ran with training=True."),
    ("why-none-gradients", "The most common cause is computing the loss outside the with block: the tape never recorded it, so the gradients are None."),
    ("numpy-inside-tape", "The layers before the conversion get None gradients, which apply_gradients skips with a warning."),
]  # fmt: skip


test_grade_freetext_names_a_round18_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round18_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
