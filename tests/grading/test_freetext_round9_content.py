"""Round 9 of issue 14: misconceptions stated but not named. Wrong statements in candidates'
voices for the beliefs this round added to the rubrics or widened, and true statements on
the same subjects that must name nothing. All were written before any phrasing was tuned;
the `_HELD` lists were kept untouched (not run) until the end, as a last check. That check
named 14 of 28 held wrong statements and 2 of 21 held true ones named an older tell; only
the statements that passed are kept here, the others are listed in docs/freetext-rounds.md
"Round 9: misconceptions stated but not named"."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-releases-tape", "apply_gradients also releases the tape, so the next step can open a fresh one."),
    ("gradient-vs-apply", "apply-releases-tape", "After the update, apply_gradients resets the tape for the next batch."),
    ("persistent-tape", "apply-releases-tape", "The tape is released once the optimizer applies the gradients, so the second gradient call comes too late."),
    ("gradient-vs-apply", "apply-releases-tape", "the optimizer step clear the tape recording, then new tape can start"),
    ("gradient-vs-apply", "apply-uses-tape", "apply_gradients reads the gradients straight from the tape, so you can only call it once per tape."),
    ("gradient-vs-apply", "apply-uses-tape", "The optimizer pulls what the tape recorded and uses it to update the weights."),
    ("gradient-accumulation", "apply-releases-tape", "You can't apply accumulated gradients later because apply_gradients needs the tape that produced them."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient already multiplies the gradients by the learning rate, so apply_gradients just subtracts them."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient returns the update step, i.e. the learning rate times the gradient."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "the gradient call computes the scaled update (lr * dL/dw), the apply just adds it to the weights"),
    ("no-zero-grad", "gradient-applies-learning-rate", "tape.gradient gives you gradients already scaled by the optimizer's learning rate."),
    ("no-zero-grad", "del-tape-every-step", "In TensorFlow the equivalent of zero_grad is del tape at the end of every step."),
    ("no-zero-grad", "del-tape-every-step", "You have to delete the tape after each step, otherwise it keeps the previous step's activations and the gradients mix."),
    ("gradient-accumulation", "del-tape-every-step", "Delete the tape after every micro-batch or the old activations stay in it."),
    ("no-zero-grad", "del-tape-every-step", "must call del tape each step else memory from last step stay and gradient wrong"),
    ("no-zero-grad", "recreate-optimizer-resets", "In TF you clear the gradients by creating a new optimizer at the start of each epoch."),
    ("no-zero-grad", "recreate-optimizer-resets", "Re-instantiating the optimizer every epoch is how Keras resets accumulated gradients."),
    ("gradient-accumulation", "recreate-optimizer-resets", "After applying, recreate the optimizer so the accumulated gradients are reset."),
    ("no-zero-grad", "recreate-optimizer-resets", "I'd just make a fresh Adam optimizer each epoch, that wipes the old gradients."),
    ("persistent-tape", "gradients-overwrite-activations", "The first gradient call overwrites the stored activations with the gradients, so a second call has nothing to work with."),
    ("persistent-tape", "gradients-overwrite-activations", "The RuntimeError is because tape.gradient replaces the intermediate values it recorded with gradient values."),
    ("persistent-tape", "gradients-overwrite-activations", "After the first call the tape's buffers hold gradients instead of activations."),
    ("tf-function-speedup", "tf-function-overlaps-input-pipeline", "tf.function is faster because it overlaps data loading with the computation."),
    ("tf-function-speedup", "tf-function-overlaps-input-pipeline", "Most of the speedup comes from prefetching the next batch while the current step runs, so input-bound models gain the most."),
    ("tf-function-speedup", "tf-function-overlaps-input-pipeline", "Models bottlenecked on the input pipeline gain most, since tf.function overlaps I/O with compute."),
    pytest.param(
        "trainable-vs-all-variables", "variables-are-the-same",
        "model.variables is the TensorFlow-level list and trainable_variables is the Keras-level list of the same weights.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="named by the neighbours until round 17, by a vote one writer's answers "
            "carried (round 17: the vote must stand without any one writer); the rules read "
            "no claim in it",
        ),
    ),
    ("trainable-vs-all-variables", "variables-are-the-same", "They hold the same weights; variables is just the low-level TF view and trainable_variables the Keras one."),
    ("trainable-vs-all-variables", "variables-are-the-same", "model.variables gives raw tf.Variables, trainable_variables gives the Keras ones, but it's the same set of weights."),
    ("why-none-gradients", "stateful-rng-gives-none", "If the loss uses a random op like tf.random.normal, the gradients come back None."),
    ("why-none-gradients", "stateful-rng-gives-none", "A stateful random op in the loss breaks the tape, so every gradient is None."),
    ("why-none-gradients", "stateful-rng-gives-none", "random noise added inside the loss => tape can't differentiate => None"),
    ("why-none-gradients", "stateful-rng-gives-none", "Random ops are not recorded by the tape, so adding noise to the loss gives None gradients."),
    ("trainable-vs-all-variables", "pass-model-variables", "Honestly passing model.variables works just as well, the optimizer will figure it out."),
    ("trainable-vs-all-variables", "pass-model-variables", "Using model.variables is safer because then nothing gets left out."),
    ("trainable-vs-all-variables", "pass-model-variables", "model.variables is the better choice since it includes the BatchNorm statistics too."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "You can compute the inner gradient after both with blocks have closed, the outer tape still has it."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Just take the first derivative outside the outer block, then differentiate it with the outer tape."),
    ("higher-order-derivatives", "outer-tape-differentiates-values", "The outer tape gets the value of the first derivative and differentiates that number again."),
    ("numpy-inside-tape", "numpy-is-recorded", "The tape records the NumPy ops too, it's just slower because they run on the CPU."),
    ("numpy-inside-tape", "numpy-is-recorded", "np.exp inside the tape gets converted and recorded automatically."),
    ("no-zero-grad", "tape-accumulates", "Gradients build up inside the tape from step to step."),
    # Second battery: existing tells whose phrasings missed the most stated wordings (cause
    # role-word), in new words; written before those phrasings were read again.
    pytest.param(
        "trainable-vs-all-variables", "pass-model-variables",
        "Either list is fine in practice; model.variables just includes a few extra ones.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="named by the neighbours until round 15's set joined tune (round 16 start); "
            "the rules read no claim in 'either list is fine'",
        ),
    ),
    ("trainable-vs-all-variables", "pass-model-variables", "I usually pass model.variables, it covers everything the model has."),
    ("trainable-vs-all-variables", "pass-model-variables", "You could pass model.variables too, the optimizer simply skips what it can't train."),
    ("trainable-vs-all-variables", "pass-model-variables", "Passing model.variables would also work because non-trainable variables just don't change."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Compute the first gradient with the inner tape after you exit the outer with block."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "You can close both tapes first and then call the two gradient methods in any order."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "The inner gradient can be taken outside the outer context, the outer tape already recorded the forward pass."),
    ("higher-order-derivatives", "outer-tape-differentiates-values", "The outer tape sees dy/dx as a plain tensor and takes its derivative."),
    ("higher-order-derivatives", "outer-tape-differentiates-values", "The outer tape just differentiates the result of the first gradient, not how it was computed."),
    ("numpy-inside-tape", "numpy-is-recorded", "The tape can follow NumPy calls, it just converts them back to tensors."),
    ("numpy-inside-tape", "numpy-is-recorded", "GradientTape also records np functions, since TF tensors support the NumPy API."),
    ("no-zero-grad", "tape-accumulates", "The tape sums the gradients from each step, so you should create a new tape each time."),
    ("no-zero-grad", "tape-accumulates", "If you reuse the tape, gradients accumulate in it like .grad in PyTorch."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "If you pass model.variables, gradient descent would also push the BatchNorm moving mean around."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The moving variance would get a gradient and the optimizer would update it."),
    ("trainable-vs-all-variables", "non-trainable-gradient-errors", "tape.gradient throws an error if you ask it for non-trainable variables."),
    ("trainable-vs-all-variables", "non-trainable-gradient-errors", "Asking for the gradient of the moving mean crashes because it isn't trainable."),
    ("gradient-accumulation", "optimizer-normalizes-by-batch-size", "No need to average, Adam divides by the batch size anyway."),
    ("gradient-accumulation", "optimizer-normalizes-by-batch-size", "The optimizer normalises the gradients by the batch size, so just sum them."),
    ("tf-function-speedup", "big-models-gain-most", "The bigger the model, the bigger the speedup from tf.function."),
    ("tf-function-speedup", "big-models-gain-most", "Large networks benefit most since the graph optimizations matter more there."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Adding the micro-batch gradients gives the same gradient as the full 256 batch."),
    # Copies of the new tells onto further questions where the belief can appear.
    ("no-zero-grad", "apply-uses-tape", "apply_gradients reads what the tape recorded, and after that the tape is used up, so nothing carries over."),
    ("training-flag", "stateful-rng-gives-none", "Dropout is a random op, so the gradients through it come back None."),
    ("gradient-accumulation", "apply-releases-tape", "apply_gradients releases the tape, so each micro-batch needs its own."),
]  # fmt: skip

WRONG_HELD = [
    ("no-zero-grad", "apply-releases-tape", "You don't need zero_grad because apply_gradients frees the tape and its gradients after it applies them."),
    ("no-zero-grad", "apply-releases-tape", "Calling optimizer.apply_gradients resets the GradientTape, that's TF's equivalent of zeroing."),
    ("persistent-tape", "apply-uses-tape", "apply_gradients consumes the tape, which is why you can't apply twice."),
    ("gradient-accumulation", "gradient-applies-learning-rate", "Since tape.gradient scales each micro-batch's gradient by the learning rate, you sum them and apply."),
    ("no-zero-grad", "del-tape-every-step", "Just remember to del tape after apply_gradients every iteration, that's what clears things."),
    ("no-zero-grad", "recreate-optimizer-resets", "The TensorFlow stand-in for zero_grad is recreating the optimizer object."),
    ("why-none-gradients", "stateful-rng-gives-none", "Check for randomness in the loss: dropout or tf.random calls make the gradient None because they aren't differentiable."),
    ("trainable-vs-all-variables", "pass-model-variables", "It doesn't matter much which list you pass, it's only about speed."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Order doesn't matter: close the outer tape, then call inner.gradient and outer.gradient."),
    ("no-zero-grad", "tape-accumulates", "The tape keeps adding up gradients across steps unless you create a new one."),
    # Second battery, kept back.
    ("trainable-vs-all-variables", "pass-model-variables", "model.variables is okay to use, Keras ignores the frozen ones anyway."),
    pytest.param(
        "trainable-vs-all-variables", "pass-model-variables",
        "There's no real harm in giving the optimizer all variables.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="named by the neighbours until round 9's set joined tune: its marking words "
            "are now word pairs only (docs/freetext-rounds.md, round 10)",
        ),
    ),
    ("no-zero-grad", "tape-accumulates", "Gradients pile up in the GradientTape across iterations."),
    ("tf-function-speedup", "big-models-gain-most", "Heavy models like ResNets gain the most from compiling."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients does not touch the tape; the default tape already released its recording when tape.gradient returned."),
    ("gradient-vs-apply", "The tape is released by tape.gradient, not by the optimizer."),
    ("gradient-vs-apply", "apply_gradients only needs the (gradient, variable) pairs; it never sees the tape."),
    ("gradient-vs-apply", "You could call apply_gradients twice with the same list of gradients and the weights would move twice."),
    ("gradient-vs-apply", "The learning rate is applied by the optimizer inside apply_gradients, not by tape.gradient."),
    ("gradient-vs-apply", "tape.gradient returns the raw gradients; scaling by the learning rate happens in the optimizer's update rule."),
    ("gradient-vs-apply", "The optimizer multiplies each gradient by the learning rate and subtracts it from the weight."),
    ("no-zero-grad", "You don't need del tape for a default tape; it frees its recording as soon as gradient() returns."),
    ("persistent-tape", "With persistent=True, delete the tape when you're finished so the buffers are released."),
    ("gradient-accumulation", "Delete the persistent tape when finished; with default tapes, just open a new one per micro-batch."),
    ("no-zero-grad", "Don't recreate the optimizer to clear gradients: there is nothing to clear, and a new optimizer would lose its momentum and Adam moments."),
    ("gradient-accumulation", "Reset the accumulator variables to zero after applying; the optimizer keeps its state."),
    ("no-zero-grad", "Keep one optimizer for the whole run; only the gradients are new each step."),
    ("persistent-tape", "A default tape frees its recording once gradient() returns, so a second call raises a RuntimeError."),
    ("persistent-tape", "The tape keeps the forward activations it needs for the backward pass until it is released."),
    ("tf-function-speedup", "tf.function removes the Python overhead of dispatching each op, which is why small models gain most."),
    pytest.param(
        "tf-function-speedup",
        "Overlapping data loading with compute is tf.data's prefetch, not what tf.function does.",
        marks=pytest.mark.xfail(
            strict=True,
            reason="round 41's start (round 40's set in tune, neighbours retrained): the neighbours "
            "name tf-function-overlaps-input-pipeline on this denial, its nearest answers state the "
            "belief in the same words; the rules read no claim in it",
        ),
    ),
    ("tf-function-speedup", "The compiled graph runs the ops without returning to Python between them."),
    ("trainable-vs-all-variables", "model.variables includes the non-trainable ones too, like the BatchNorm moving mean and variance."),
    ("trainable-vs-all-variables", "Both are Keras properties; trainable_variables is the subset the optimizer should update."),
    ("trainable-vs-all-variables", "Pass model.trainable_variables, because model.variables would also hand the moving statistics to the optimizer."),
    ("why-none-gradients", "Random ops like dropout or added noise don't make gradients None; the gradient flows through them to the weights."),
    ("why-none-gradients", "Using tf.random.normal in the loss is fine, the tape records it like any other op."),
    ("why-none-gradients", "A stateful random op only has no gradient with respect to its seed; the weights still get gradients."),
    ("higher-order-derivatives", "Call inner.gradient inside the outer tape's block, then outer.gradient after it closes."),
    ("numpy-inside-tape", "NumPy operations are not recorded by the tape, so the chain breaks there."),
    ("numpy-inside-tape", "Only TensorFlow ops get recorded; np.exp runs outside the tape's view."),
    ("gradient-accumulation", "Summing the micro-batch gradients gives four times the mean gradient, so divide by four."),
    ("gradient-vs-apply", "apply_gradients applies the optimizer's rule with the learning rate and assigns the new values."),
    ("persistent-tape", "You don't need two forward passes: a persistent tape gives both gradients from one."),
    # Second battery.
    ("trainable-vs-all-variables", "Only the trainable variables should go to the optimizer; model.variables also holds the moving statistics."),
    ("trainable-vs-all-variables", "tape.gradient returns None for the moving mean, since it is not computed from the loss in a differentiable way."),
    ("trainable-vs-all-variables", "Asking for gradients of non-trainable variables doesn't raise; you just get None for them."),
    ("trainable-vs-all-variables", "The moving mean and variance are updated by the forward pass in training mode, not by gradient descent."),
    ("higher-order-derivatives", "Take the inner gradient inside the outer block so the outer tape records it."),
    ("higher-order-derivatives", "The outer tape records how dy/dx was computed, which is what lets it differentiate it."),
    ("numpy-inside-tape", "NumPy calls are invisible to the tape, so use tf ops like tf.exp instead."),
    ("no-zero-grad", "Each step uses a new tape, and nothing accumulates in it."),
    ("gradient-accumulation", "Divide the sum by four; the optimizer does not average for you."),
    ("gradient-accumulation", "The optimizer applies the gradient as given; it doesn't divide by the batch size."),
    ("tf-function-speedup", "Small models gain most, because Python overhead dominates there; big models are dominated by the kernels."),
    ("tf-function-speedup", "For a big model the speedup from tf.function is small."),
    # Copies onto further questions.
    ("training-flag", "Dropout is random, but gradients still flow through the units it keeps."),
    ("gradient-accumulation", "Each micro-batch opens its own tape; apply_gradients never sees a tape."),
    ("no-zero-grad", "apply_gradients only reads the gradient list you hand it."),
]  # fmt: skip

CORRECT_HELD = [
    ("no-zero-grad", "Each step opens a new tape, and the old one is garbage collected once nothing refers to it."),
    ("persistent-tape", "With a persistent tape you can call gradient, apply the update, and call gradient again."),
    ("no-zero-grad", "A new tape records each step from scratch, so nothing from the previous step is mixed in."),
    ("persistent-tape", "The stored intermediate values are released after the first call; persistent=True keeps them for more calls."),
    ("tf-function-speedup", "If your step is bound by the input pipeline, tf.function won't help much; use prefetch for that."),
    ("trainable-vs-all-variables", "The trainable variables are all in model.variables as the same objects, but model.variables has more."),
    ("why-none-gradients", "None gradients come from a loss computed outside the tape, not from randomness."),
    ("higher-order-derivatives", "The outer tape records the ops of the inner gradient computation, so it can differentiate them."),
    ("no-zero-grad", "tape.gradient returns a fresh list every step, so nothing accumulates between steps."),
    ("trainable-vs-all-variables", "Passing model.variables is wrong: the optimizer would try to update the moving statistics."),
    ("gradient-vs-apply", "The tape is done once gradient() returns; apply_gradients is a separate optimizer call."),
    ("why-none-gradients", "Dropout is random, but its mask is just multiplied in, so gradients flow through the kept units."),
    ("tf-function-speedup", "tf.function traces the Python step once into a graph; later calls skip Python."),
    # Second battery, kept back.
    ("trainable-vs-all-variables", "The BatchNorm moving statistics change in the forward pass, never through apply_gradients."),
    ("higher-order-derivatives", "Call the inner gradient while the outer tape is still recording."),
    ("no-zero-grad", "A fresh tape is created every step, so no gradients pile up."),
    ("gradient-accumulation", "With mean losses, the sum of the four gradients is four times too large."),
    ("tf-function-speedup", "The gain is largest for small models with many cheap ops."),
    ("numpy-inside-tape", "The tape only follows TensorFlow ops, not NumPy ones."),
]  # fmt: skip


test_grade_freetext_names_a_round9_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round9_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
