"""Round 12 of issue 14: the labeller tags of round 11's final set that no rubric knew, the
older `tape-records-one-loss`, and five labelled beliefs of round 10's set the rubrics knew
but did not name. Wrong statements for each belief in candidates' voices and true
statements on the same subjects that must name nothing. All were written from the tags'
descriptions, the source document and a scratch check on TF 2.21 / Keras 3.15.1, before any
phrasing was written and without reading the labelled answers; the `_HELD` lists were kept
untouched (not run against the new phrasings) until the end, as a last check: 15 of 20
held wrong statements named (4 before this round), 0 of 17 held true statements named a
tell (0 before). The misses are KNOWN_UNNAMED; grads-leak-without-cleanup's two statements
on gradient-accumulation were dropped with that question (its rubric holds 30 tells, the
schema's limit), see docs/freetext-rounds.md "Round 12: rubric content (engineer C)"."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # apply-takes-name-dict (new)
    ("gradient-vs-apply", "apply-takes-name-dict", "apply_gradients takes a dict mapping each variable's name to its gradient."),
    ("gradient-vs-apply", "apply-takes-name-dict", "You hand the optimizer a dictionary keyed by variable name, {name: grad}, and it looks each weight up by that name."),
    ("gradient-accumulation", "apply-takes-name-dict", "After the fourth micro-batch, give apply_gradients a dict from each variable's name to its accumulated gradient."),
    ("no-zero-grad", "apply-takes-name-dict", "optimizer.apply_gradients expects a name-to-gradient mapping, like a NamedTensorMap."),
    # grads-leak-without-cleanup (new)
    ("no-zero-grad", "grads-leak-without-cleanup", "TensorFlow's stand-in for zero_grad is freeing the gradients after each step with del grads, otherwise they leak."),
    ("no-zero-grad", "grads-leak-without-cleanup", "Call tf.keras.backend.clear_session() at the end of every step, or the old gradient tensors pile up in memory."),
    ("no-zero-grad", "grads-leak-without-cleanup", "you must dispose of the gradient tensors every iteration, otherwise memory grows step after step"),
    # large-dataset-gains-most (new)
    ("tf-function-speedup", "large-dataset-gains-most", "tf.function pays off most on large datasets, since the tracing cost is spread over many steps."),
    ("tf-function-speedup", "large-dataset-gains-most", "With a huge dataset the graph version wins big; on a small dataset it barely matters."),
    ("tf-function-speedup", "large-dataset-gains-most", "The bigger the dataset, the bigger the speedup from tf.function."),
    ("tf-function-speedup", "large-dataset-gains-most", "The speedup is mostly for big datasets where you run thousands of steps."),
    # omitted-flag-bn-uses-batch-stats (new)
    ("training-flag", "omitted-flag-bn-uses-batch-stats", "If you leave out training, BatchNorm still normalises with the batch statistics; it just skips updating the moving averages."),
    ("training-flag", "omitted-flag-bn-uses-batch-stats", "Without training=True the batch norm layer uses the current batch's mean and variance but does not update its running stats."),
    ("training-flag", "omitted-flag-bn-uses-batch-stats", "omitting the flag only affects the moving-average update, normalisation is still done with batch stats"),
    # omitted-flag-returns-numpy (new)
    ("training-flag", "omitted-flag-returns-numpy", "model(x) without training=True behaves like model.predict and returns NumPy arrays, so the tape loses track."),
    ("training-flag", "omitted-flag-returns-numpy", "If you skip training=True the call returns a numpy array instead of a tensor and the gradient chain breaks."),
    ("why-none-gradients", "omitted-flag-returns-numpy", "Calling the model without training=True gives back NumPy output like predict(), so the gradients come out None."),
    # outer-records-inner-tape-object (new)
    ("higher-order-derivatives", "outer-records-inner-tape-object", "The outer tape watches the inner tape object itself, so it doesn't matter in which order you call the gradients."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "Because the outer tape records the inner tape as an object, you can take inner.gradient after the outer block too."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "the outer tape keeps a reference to the inner tape and differentiates through it whenever you ask, order doesn't matter"),
    # separate-gradients-impossible (new)
    ("persistent-tape", "separate-gradients-impossible", "You can't get the two losses' gradients separately from one forward pass, only their sum, so you need two forward passes."),
    ("persistent-tape", "separate-gradients-impossible", "One forward pass only ever gives you the gradient of the combined loss; separating them is impossible."),
    ("persistent-tape", "separate-gradients-impossible", "It is impossible to get separate gradients for loss1 and loss2 out of a single forward pass."),
    # tape-single-target (new; tape-records-one-loss maps onto it); round 18 merged it into
    # separate-gradients-impossible (the same belief), which names these now
    ("persistent-tape", "separate-gradients-impossible", "A tape can only differentiate one target, so asking it for the second loss raises the RuntimeError."),
    ("persistent-tape", "separate-gradients-impossible", "GradientTape handles a single loss; the second loss is a second target, which it refuses."),
    ("persistent-tape", "separate-gradients-impossible", "the tape records one loss only, the second gradient call asks about another loss so it errors"),
    ("persistent-tape", "separate-gradients-impossible", "Each tape is tied to exactly one target tensor."),
    # tape-tracks-only-variables-created-inside (new)
    ("why-none-gradients", "tape-tracks-only-variables-created-inside", "The tape only tracks variables created inside the with block, so the model's weights built outside aren't watched."),
    ("why-none-gradients", "tape-tracks-only-variables-created-inside", "Build the model inside the tape; variables made before the with block aren't recorded."),
    ("why-none-gradients", "tape-tracks-only-variables-created-inside", "gradienttape only sees tf.Variables that were created inside its context"),
    ("numpy-inside-tape", "tape-tracks-only-variables-created-inside", "Only variables created in the tape's block are watched, so the dense layer built outside gives None."),
    # epochs-replace-accumulation (mapped onto apply-every-micro-batch)
    ("gradient-accumulation", "apply-every-micro-batch", "Just run four times as many epochs with the small batches; that is equivalent to accumulating into one 256 update."),
    ("gradient-accumulation", "apply-every-micro-batch", "More epochs with micro-batches of 64 replaces gradient accumulation."),
    # tf-function-grads-carry-over (mapped onto tape-accumulates; round 13 merged tf-accumulates-automatically into it on gradient-accumulation)
    ("no-zero-grad", "tape-accumulates", "Inside tf.function the gradient buffers are allocated once and reused, so gradients carry over between steps unless you zero them."),
    ("no-zero-grad", "tape-accumulates", "In graph mode the gradients persist across calls of the step function, so you need to reset them."),
    ("no-zero-grad", "tape-accumulates", "a traced train_step reuses its gradient tensors, so the previous step's gradients add up with the new ones"),
    ("gradient-accumulation", "tape-accumulates", "Under tf.function the gradients carry over from step to step by themselves, so the accumulation happens automatically."),
    # cpu-gains-most (known, labelled answer unnamed)
    ("tf-function-speedup", "cpu-gains-most", "tf.function really shines on CPU; on a GPU the gain is small."),
    ("tf-function-speedup", "cpu-gains-most", "CPU-bound training gets the big speedup from tf.function, GPU training gets much less."),
    ("tf-function-speedup", "cpu-gains-most", "Most of the win is on CPUs."),
    # gradient-averages-over-batch (known, unnamed)
    ("gradient-vs-apply", "gradient-averages-over-batch", "The gradients tape.gradient gives you are already averaged over the batch."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "tape.gradient takes care of the batch mean for you."),
    ("gradient-accumulation", "gradient-averages-over-batch", "tape.gradient averages over the examples itself, so the loss's reduction doesn't matter."),
    # gradient-returns-pairs (known, unnamed)
    ("gradient-vs-apply", "gradient-returns-pairs", "tape.gradient returns gradient/variable pairs."),
    ("gradient-vs-apply", "gradient-returns-pairs", "You get (grad, var) pairs back from the tape and feed them straight into apply_gradients."),
    ("gradient-vs-apply", "gradient-returns-pairs", "gradient() gives pairs of gradients and variables."),
    # separate-optimizers-replace-zero-grad (known, unnamed)
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "In TF, two optimizers - one for the actor, one for the critic - do the job of zero_grad."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "TensorFlow replaces zero_grad with a separate optimizer for each network."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "Keeping one optimizer per model is how TF stops gradients from mixing, so there's no need for zero_grad."),
    # tf-function-records-outside-tape (known, unnamed)
    ("why-none-gradients", "tf-function-records-outside-tape", "In a tf.function the tape sees the whole graph, so where the loss is computed doesn't matter."),
    ("why-none-gradients", "tf-function-records-outside-tape", "Graph mode makes the tape see everything in the function, even the forward pass run before the tape opened."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients takes (gradient, variable) pairs, which zip(grads, vars) builds; not a dict of names."),
    ("gradient-vs-apply", "tape.gradient returns a dict only when the sources are a dict; apply_gradients still wants pairs."),
    ("gradient-vs-apply", "In TF.js optimizer.applyGradients takes a map from names to tensors; in Keras apply_gradients takes (gradient, variable) pairs."),
    ("no-zero-grad", "The gradient tensors are freed by Python when nothing references them; no del or clear_session() is needed each step."),
    ("no-zero-grad", "clear_session() resets Keras's global state, such as layer name counters; it has nothing to do with gradients."),
    ("no-zero-grad", "In TF.js you wrap the step in tf.tidy to free tensors; Python TensorFlow frees them by reference counting."),
    ("tf-function-speedup", "Tracing happens once, so over a long run it is negligible; the per-step gain comes from small ops where Python overhead dominates, whatever the dataset size."),
    ("tf-function-speedup", "Dataset size doesn't change the per-step speedup; op size does."),
    ("tf-function-speedup", "A small model with many tiny ops gains most, even on a large dataset."),
    ("training-flag", "With training=True BatchNorm uses the batch's statistics and updates the moving averages; without it, it uses the moving averages."),
    ("training-flag", "Called directly, a Keras layer's training defaults to inference, so BN uses the stored statistics."),
    ("training-flag", "model(x) returns a tensor whether or not you pass training; model.predict returns NumPy and is not for training steps."),
    ("training-flag", "model.predict returns NumPy arrays, so it breaks the tape; call model(x, training=True) instead."),
    ("why-none-gradients", "The None doesn't come from the training flag: model(x) returns a tensor either way."),
    ("higher-order-derivatives", "The outer tape records the ops that the inner gradient call runs, so that call must happen inside the outer block."),
    ("higher-order-derivatives", "The outer tape doesn't watch the inner tape object; it records the operations of the first derivative computation."),
    ("higher-order-derivatives", "Order matters: compute inner.gradient inside the outer with block, then outer.gradient after it."),
    ("persistent-tape", "With persistent=True one forward pass gives each loss's gradient separately: call tape.gradient twice."),
    ("persistent-tape", "Passing [loss1, loss2] as the target gives only the gradient of their sum; for separate gradients use a persistent tape."),
    ("persistent-tape", "Two tapes opened together over the same forward pass also give separate gradients."),
    ("persistent-tape", "The RuntimeError is not about the second loss: a default tape frees its recording after the first gradient call, even for the same target."),
    ("persistent-tape", "One gradient call can take several targets, e.g. a list of losses, and gives the gradient of their sum."),
    ("persistent-tape", "A persistent tape can differentiate as many targets as you like."),
    ("persistent-tape", "A default tape allows one gradient() call."),
    ("why-none-gradients", "The tape watches trainable variables accessed inside the block, wherever they were created."),
    ("why-none-gradients", "It doesn't matter where the variables were created; what matters is that the ops using them run inside the block."),
    ("why-none-gradients", "Create the model once, outside the tape; the tape still records its variables when the forward pass runs inside."),
    ("gradient-accumulation", "Training on batches of 64 for more epochs is not the same as one update per 256 examples: it takes four noisier steps."),
    ("gradient-accumulation", "Smaller batches with more epochs can also train well, but that changes the optimisation; accumulation reproduces the 256 update."),
    ("gradient-accumulation", "Inside tf.function you keep the running sums in tf.Variables, because plain tensors don't carry over between calls."),
    ("tf-function-speedup", "The device matters less than the op size."),
    ("gradient-vs-apply", "Whether the gradient is a batch average depends on the loss: reduce_mean averages, reduce_sum doesn't."),
    ("gradient-vs-apply", "tape.gradient never averages anything by itself."),
    ("gradient-vs-apply", "tape.gradient gives a plain list of gradients; zip pairs them with the variables for apply_gradients."),
    ("gradient-vs-apply", "The pairs are made by zip, not by the tape."),
    ("no-zero-grad", "Each network can have its own optimizer for its own moments; gradients never need zeroing in TF anyway."),
    ("no-zero-grad", "One optimizer per network is about optimizer state, not a zero_grad replacement."),
    ("why-none-gradients", "Under tf.function the tape still records only what runs inside its with block."),
    ("why-none-gradients", "A tf.function doesn't widen what the tape sees; the loss must still be inside the block."),
]  # fmt: skip

WRONG_HELD = [
    ("gradient-accumulation", "apply-takes-name-dict", "then call optimizer.apply_gradients with a dictionary from names to the averaged gradients"),
    ("no-zero-grad", "grads-leak-without-cleanup", "Each step's gradients stay allocated until you clear_session(), which is TF's version of zero_grad."),
    ("tf-function-speedup", "large-dataset-gains-most", "Large datasets gain the most from tf.function because the one-time trace is amortised."),
    ("tf-function-speedup", "large-dataset-gains-most", "tf.function is worth it when your dataset is large."),
    ("training-flag", "omitted-flag-bn-uses-batch-stats", "Forget training=True and BN still uses batch statistics, only the moving mean and variance stop updating."),
    ("training-flag", "omitted-flag-returns-numpy", "Without the training flag, model(x) returns numpy like predict does, and nothing can be differentiated."),
    ("higher-order-derivatives", "outer-records-inner-tape-object", "Outer tape tracks the inner tape object, so the call order of the two gradient calls is irrelevant."),
    ("persistent-tape", "separate-gradients-impossible", "The error is because a tape can only have one target, and the second call names a different one."),
    ("persistent-tape", "separate-gradients-impossible", "A tape can only track one loss at a time."),
    ("why-none-gradients", "tape-tracks-only-variables-created-inside", "Variables created outside the with block are invisible to the tape, it only follows ones created inside."),
    ("gradient-accumulation", "apply-every-micro-batch", "Accumulation isn't needed; extra epochs with batch size 64 are equivalent."),
    ("no-zero-grad", "tape-accumulates", "Gradients carry over between steps inside a tf.function unless zeroed."),
    ("tf-function-speedup", "cpu-gains-most", "The graph mode speedup is mostly a CPU thing."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "The tape returns gradients averaged across the batch automatically."),
    ("why-none-gradients", "tf-function-records-outside-tape", "With tf.function the tape records the ops outside its block too."),
]  # fmt: skip

CORRECT_HELD = [
    ("gradient-vs-apply", "You zip the gradient list with the variable list; no dictionary of names is involved."),
    ("no-zero-grad", "The gradients come back as a list matched to the variables by position, not by name."),
    ("no-zero-grad", "You don't need del grads; the next step's tape.gradient returns new tensors and the old ones are garbage collected."),
    ("tf-function-speedup", "The per-step gain is the same whether the dataset is large or small; only the tracing cost is amortised over more steps."),
    ("training-flag", "Omit the flag and BatchNorm runs in inference mode: moving statistics, no update."),
    ("training-flag", "Leaving out training= still gives a tf.Tensor from model(x); only predict() converts to NumPy."),
    ("higher-order-derivatives", "What the outer tape sees is the arithmetic of the backward pass, not the inner tape as an object."),
    ("persistent-tape", "A default tape can give only one gradient call, so separate gradients need persistent=True, not a second forward pass."),
    ("persistent-tape", "A non-persistent tape can only be used once, whatever the target; the second call raises."),
    ("why-none-gradients", "Variables created before the with block are watched automatically once they're used inside it."),
    ("gradient-accumulation", "More epochs at batch size 64 is a different training run, not gradient accumulation."),
    ("no-zero-grad", "A traced step reuses its graph, not its gradients: each call returns new gradient values."),
    ("tf-function-speedup", "It is the size of the ops, not the CPU or GPU, that decides the gain."),
    ("gradient-vs-apply", "The gradient is a mean over the batch only because the loss was a mean."),
    ("gradient-vs-apply", "apply_gradients takes pairs; the tape gives just gradients."),
    ("no-zero-grad", "A Keras optimizer is built for the variables of its first call, so two networks often get two optimizers; that has nothing to do with zero_grad."),
    ("why-none-gradients", "Decorating the step with tf.function changes nothing about which ops the tape records."),
]  # fmt: skip


# Wrong statements the new phrasings do not name. Written and run before the check: "you end
# up at the same place" is a clause of its own after "and you"; "When the step is decorated
# with tf.function, ops outside ..." puts the condition in a clause the claim's roles do not
# reach. From the held check (run once, at the end): `variable_name` is an identifier, not
# the word "name"; "hands you pairs" is not "hands back"; "are TF's zero_grad" names no
# counterpart word. ("From one forward pass, ... never each one on its own" is named since
# round 13: a fronted phrase joins its main clause, test_freetext_round13_reader.py.)
KNOWN_UNNAMED = [
    ("gradient-accumulation", "apply-every-micro-batch", "You don't need accumulation: train on batches of 64 for more epochs and you end up at the same place as with batches of 256."),
    ("why-none-gradients", "tf-function-records-outside-tape", "When the step is decorated with tf.function, ops outside the with block get recorded as well."),
    ("gradient-vs-apply", "apply-takes-name-dict", "apply_gradients accepts a {variable_name: gradient} dict."),
    ("gradient-vs-apply", "gradient-returns-pairs", "The tape hands you pairs of (gradient, variable)."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "Separate optimizers per network are TF's zero_grad."),
]  # fmt: skip

# True statements an older tell names (not this round's phrasings), as before this round:
# batchnorm-modes-swapped on BatchNorm's right inference behaviour, graph-mode-explains-no-zero-grad
# and grads-stored-on-variables on "fresh gradients ... tf.function", gpu-gains-most on
# "On both CPU and GPU". Left for whoever narrows those readings. Round 14 (engineer T):
# "Only tf.Variables keep values between tf.function calls; the gradient tensors are
# recomputed every call" names nothing now (a clause with its own subject after ";").
KNOWN_NAMED = [
    ("training-flag", "If you leave out training, BatchNorm normalises with its moving mean and variance and does not update them."),
    ("no-zero-grad", "Even inside tf.function each call computes fresh gradients; nothing carries over between steps."),
    ("tf-function-speedup", "On both CPU and GPU, small ops gain most."),
]  # fmt: skip


test_grade_freetext_names_a_round12_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round12_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round12_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the clause reading hides this statement's claim"
)
test_grade_freetext_round12_known_true_statements_name_nothing = names_nothing(
    KNOWN_NAMED, xfail="an older reading names a tell on this true statement"
)
