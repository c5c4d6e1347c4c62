"""Round 11 of issue 14: the labeller tags of round 10's final set that no rubric knew. Wrong
statements in candidates' voices for each belief (a new rubric misconception), and true
statements on the same subjects that must name nothing. All were written from the tags'
descriptions and the source document before any phrasing was written; the `_HELD` lists were
kept untouched (not run against the new phrasings) until the end, as a last check.
That check named 11 of 14 held wrong statements of the first battery and 2 of 7 of the
second; one held true statement names an older tell (in KNOWN_NAMED). Only the statements
that passed are kept here; the others are listed in docs/freetext-rounds.md "Round 11: rubric
content (engineer C)"."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from typing import Any

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("tf-function-speedup", "cpu-gains-most", "tf.function pays off mostly on CPU; on a GPU you barely see a difference."),
    ("tf-function-speedup", "cpu-gains-most", "The speedup is biggest when you run on the CPU, the GPU is already fast so graph mode adds little."),
    ("tf-function-speedup", "cpu-gains-most", "It's the hardware that decides: CPUs gain the most from tracing, GPUs hardly anything."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "tape.gradient averages the gradients over the batch for you."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "The gradients you get back are already the mean over the examples in the batch, whatever the loss does."),
    ("gradient-accumulation", "gradient-averages-over-batch", "Since tape.gradient itself averages over the batch dimension, each micro-batch's gradients are already per-example means."),
    ("persistent-tape", "gradient-call-stops-recording", "The first tape.gradient call stops the recording, as if the with block had ended, so the second call fails."),
    ("persistent-tape", "gradient-call-stops-recording", "Calling gradient() ends the tape's recording, that's why you can't ask it again."),
    ("persistent-tape", "gradient-call-stops-recording", "once you call gradient the tape stops recording, like exiting the context"),
    ("gradient-vs-apply", "gradient-returns-dict", "tape.gradient returns a dict mapping each variable name to its gradient."),
    ("gradient-vs-apply", "gradient-returns-dict", "You get back a dictionary keyed by variable name, and apply_gradients looks the variables up by those names."),
    ("gradient-vs-apply", "gradient-returns-dict", "The result of tape.gradient is a name -> gradient dict."),
    ("gradient-vs-apply", "gradient-returns-pairs", "tape.gradient returns (gradient, variable) pairs, like compute_gradients in TF1."),
    ("gradient-vs-apply", "gradient-returns-pairs", "The tape gives you a list of grad/var tuples that you pass straight to apply_gradients."),
    ("gradient-vs-apply", "gradient-returns-pairs", "tape.gradient hands back pairs of gradient and variable, ready for the optimizer."),
    ("trainable-vs-all-variables", "keras-auto-freezes-target-net", "Keras automatically marks the target network as non-trainable when it's stored as an attribute of the model."),
    ("trainable-vs-all-variables", "keras-auto-freezes-target-net", "A target net kept as self.target_net is frozen by Keras on its own, so its weights never show up in trainable_variables."),
    ("why-none-gradients", "persistent-records-after-block", "With persistent=True the tape keeps recording after the with block, so the loss can be computed outside it."),
    ("why-none-gradients", "persistent-records-after-block", "Make the tape persistent and it continues to record ops even after you leave the with block."),
    ("persistent-tape", "persistent-records-after-block", "A persistent tape keeps recording after its context exits, which is why it costs more memory."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "Giving the actor and the critic separate optimizers is TensorFlow's counterpart of zero_grad."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "Instead of zero_grad you use one optimizer per network, so their gradients never mix."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "Separate optimizer instances keep the gradients apart, that is what replaces zero_grad in TF."),
    ("numpy-inside-tape", "tape-watches-all-tensors", "The tape automatically watches every tensor created inside its context, so the new tensor is watched too."),
    ("numpy-inside-tape", "tape-watches-all-tensors", "watch_accessed_variables covers any value touched in the block, not just variables, so the re-created tensor is tracked."),
    ("why-none-gradients", "tape-watches-all-tensors", "Everything created inside the with block gets watched automatically, constants included."),
    ("why-none-gradients", "tf-function-breaks-tape", "tf.function stops the tape from recording, so run the functions eagerly to fix the None gradients."),
    ("why-none-gradients", "tf-function-breaks-tape", "The None comes from the @tf.function decorator: the tape can't see inside a graph, so use run_functions_eagerly(True)."),
    ("why-none-gradients", "tf-function-breaks-tape", "GradientTape does not work under tf.function, the graph breaks the recording."),
    ("why-none-gradients", "tf-function-records-outside-tape", "Under tf.function the tape also sees the forward-pass ops that ran outside its with block."),
    ("why-none-gradients", "tf-function-records-outside-tape", "Once the step is a tf.function the whole graph is recorded, so computing the loss after the block would work there."),
    ("why-none-gradients", "tf-function-records-outside-tape", "In graph mode the tape sees the full function, including ops before and after the with block."),
    ("tf-function-speedup", "tf-function-vectorises-loops", "tf.function vectorises the Python loops over the batch, like NumPy does."),
    ("tf-function-speedup", "tf-function-vectorises-loops", "The speedup comes from turning your for loop over samples into one vectorised op."),
    ("tf-function-speedup", "tf-function-vectorises-loops", "autograph vectorizes python loops so per-example loops run in parallel"),
    ("why-none-gradients", "unconnected-zero-fixes", "Setting unconnected_gradients to ZERO solves it: you get zeros instead of None and training works."),
    ("numpy-inside-tape", "unconnected-zero-fixes", "The fix is tape.gradient(loss, vars, unconnected_gradients='zero'), then nothing is None anymore."),
    ("trainable-vs-all-variables", "variables-are-global-collection", "model.variables returns every variable in the program, like tf.global_variables, including other models' weights."),
    ("trainable-vs-all-variables", "variables-are-global-collection", "model.variables is the global collection of the graph, so it would also hold the variables of the other model."),
    ("trainable-vs-all-variables", "variables-are-global-collection", "variables gives you all the variables TensorFlow knows about, not just this model's."),
    # Second battery (same beliefs, other words), written before the widening it tests.
    ("tf-function-speedup", "cpu-gains-most", "If you train on a CPU you'll see the big speedup from tf.function, on a GPU not much."),
    ("tf-function-speedup", "cpu-gains-most", "The benefit of tf.function is mainly for CPU training."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "The tape divides the summed gradient by the batch size before returning it."),
    ("gradient-vs-apply", "gradient-averages-over-batch", "gradient() returns the mean gradient across the batch, so you don't divide yourself."),
    ("gradient-vs-apply", "gradient-returns-dict", "tape.gradient gives you a dictionary of gradients keyed by the variables' names."),
    ("gradient-vs-apply", "gradient-returns-dict", "It returns a mapping from variable name to gradient tensor."),
    ("gradient-vs-apply", "gradient-returns-pairs", "grads_and_vars = tape.gradient(loss, model.trainable_variables) already gives the pairs for apply_gradients."),
    ("gradient-vs-apply", "gradient-returns-pairs", "What comes back from the tape is gradient-variable pairs."),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "TensorFlow's answer to zero_grad is one optimizer per model."),
    ("why-none-gradients", "tf-function-records-outside-tape", "Inside a tf.function the tape records the whole traced function, so the loss can sit after the with block."),
    ("why-none-gradients", "tf-function-records-outside-tape", "With @tf.function it doesn't matter where the with block ends, the graph has all the ops."),
    ("why-none-gradients", "unconnected-zero-fixes", "Setting unconnected_gradients=ZERO gets rid of the None gradients and the model trains."),
]  # fmt: skip

CORRECT = [
    ("tf-function-speedup", "The gain depends on how much Python overhead the step has, not on CPU versus GPU: small ops gain most on either."),
    ("gradient-vs-apply", "tape.gradient differentiates whatever loss you give it; with reduce_mean the gradients are averaged over the batch, with reduce_sum they are not."),
    ("gradient-vs-apply", "The averaging over the batch comes from the loss's reduce_mean, not from tape.gradient."),
    ("persistent-tape", "The recording stops when the with block exits, and a default tape frees it once gradient() returns."),
    ("gradient-vs-apply", "tape.gradient returns a list aligned with the variable list; pass a dict of variables and you get a dict with the same keys."),
    ("gradient-vs-apply", "It returns the gradients only, in the same structure as the sources, and zip pairs them with the variables."),
    ("gradient-vs-apply", "TF1's compute_gradients returned (gradient, variable) pairs; tape.gradient returns just the gradients."),
    ("trainable-vs-all-variables", "A target network stored as an attribute is tracked, so its weights are in trainable_variables unless you set target.trainable = False."),
    ("trainable-vs-all-variables", "Keras does not freeze a target net by itself; set trainable=False on it or list only the online network's variables."),
    ("why-none-gradients", "Even a persistent tape stops recording when the with block exits, so the loss still has to be computed inside it."),
    ("persistent-tape", "persistent=True lets you call gradient several times; it does not keep recording after the block."),
    ("no-zero-grad", "Separate optimizers for actor and critic keep separate Adam moments, but nothing needs zeroing: each tape.gradient returns fresh gradients."),
    ("no-zero-grad", "TensorFlow has no counterpart of zero_grad at all, whether you use one optimizer or two."),
    ("numpy-inside-tape", "The tape watches trainable variables automatically, not arbitrary tensors; a tensor rebuilt from NumPy has no history."),
    ("why-none-gradients", "A tape works inside tf.function too, so running eagerly doesn't fix None gradients; computing the loss inside the block does."),
    ("why-none-gradients", "Under tf.function the tape still records only the ops inside its with block."),
    ("tf-function-speedup", "tf.function unrolls a Python loop over a fixed range, or turns a loop over a tensor into a while_loop; it does not vectorise it, that's tf.vectorized_map."),
    ("why-none-gradients", "unconnected_gradients=ZERO only replaces None with zeros; the variables still get no learning signal."),
    ("trainable-vs-all-variables", "model.variables lists only this model's variables, trainable and non-trainable, not every variable in the program."),
    ("trainable-vs-all-variables", "Unlike TF1's tf.global_variables, model.variables is scoped to the model's own layers."),
    # Second battery.
    ("tf-function-speedup", "tf.function helps on CPU and GPU alike when the ops are small."),
    ("gradient-vs-apply", "If the loss is a sum, tape.gradient returns the summed gradient; it never divides by the batch size itself."),
    ("gradient-vs-apply", "grads is a list, grads[0] is the first variable's gradient."),
    ("gradient-vs-apply", "zip(grads, vars) builds the pairs; tape.gradient returns just the gradients."),
    ("no-zero-grad", "Two optimizers are fine, each keeps its own moments, but none of them zeroes anything."),
    ("why-none-gradients", "Even in a tf.function the loss must be inside the tape's block."),
    ("why-none-gradients", "With unconnected_gradients=ZERO the disconnected variables get zeros and never move."),
]  # fmt: skip

WRONG_HELD = [
    ("gradient-vs-apply", "gradient-averages-over-batch", "tape.gradient gives the per-batch average gradient automatically."),
    ("gradient-vs-apply", "gradient-returns-dict", "It returns a dict of variable names to gradients."),
    ("gradient-vs-apply", "gradient-returns-pairs", "tape.gradient gives (grad, var) tuples, same as TF1's compute_gradients did."),
    ("trainable-vs-all-variables", "keras-auto-freezes-target-net", "The target network is automatically non-trainable because Keras sees it's only used for targets."),
    ("why-none-gradients", "persistent-records-after-block", "a persistent tape keeps recording after the with block has exited"),
    ("no-zero-grad", "separate-optimizers-replace-zero-grad", "In TF the equivalent of zero_grad is to give each network its own optimizer instance."),
    ("numpy-inside-tape", "tape-watches-all-tensors", "The tape watches all tensors created in its context automatically."),
    ("why-none-gradients", "tf-function-breaks-tape", "Remove the @tf.function, because tf.function stops the tape recording."),
    ("why-none-gradients", "tf-function-records-outside-tape", "With tf.function the tape sees the ops outside the with block as well."),
    ("tf-function-speedup", "tf-function-vectorises-loops", "Python loops get vectorised by tf.function."),
    ("trainable-vs-all-variables", "variables-are-global-collection", "model.variables is like tf.global_variables(): every variable in the graph."),
    # Second battery.
    ("gradient-vs-apply", "gradient-averages-over-batch", "tape.gradient reduces over the batch axis by averaging."),
    ("gradient-vs-apply", "gradient-returns-pairs", "tape.gradient returns a list of tuples (grad, var)."),
]  # fmt: skip

CORRECT_HELD = [
    ("gradient-vs-apply", "tape.gradient does no averaging of its own; it differentiates the loss as written."),
    ("persistent-tape", "Calling gradient inside the block of a persistent tape keeps the recording going."),
    ("gradient-vs-apply", "You get a list of gradient tensors in the order of the variables, not pairs and not a dict."),
    ("trainable-vs-all-variables", "Set self.target.trainable = False, or its weights stay in trainable_variables."),
    ("why-none-gradients", "No tape records after its with block, persistent or not."),
    ("no-zero-grad", "One optimizer per network is about separate optimizer state, not about clearing gradients."),
    ("numpy-inside-tape", "Only trainable variables are watched automatically; other tensors need tape.watch."),
    ("why-none-gradients", "The tape works fine inside a tf.function; the ops before the with block are not recorded there either."),
    ("tf-function-speedup", "tf.function does not vectorise Python loops."),
    ("why-none-gradients", "unconnected_gradients=ZERO gives zeros instead of None but does not reconnect anything."),
    ("trainable-vs-all-variables", "model.variables holds only that model's weights and state."),
    # Second battery.
    ("gradient-vs-apply", "Keras losses average over the batch by default, so the gradient is of that mean."),
    ("no-zero-grad", "Actor and critic can have separate optimizers; that is about optimizer state, zero_grad has no TF counterpart."),
]  # fmt: skip

# Wrong statements of the first battery the new phrasings do not name: "is not trained"
# denies the claim that follows it in the same clause, and "and the None gradients are
# fixed" is a new clause with its own subject, away from unconnected_gradients.
KNOWN_UNNAMED = [
    ("trainable-vs-all-variables", "keras-auto-freezes-target-net", "Keras figures out that the target network is not trained and excludes it from trainable_variables automatically."),
]  # fmt: skip

# Unnamed in round 11 ("and the" opened a new clause); round 12 reads the result of an
# instruction with it (claims._joined_start).
FIXED_ROUND12 = [
    ("why-none-gradients", "unconnected-zero-fixes", "Pass unconnected_gradients=tf.UnconnectedGradients.ZERO and the None gradients are fixed."),
]  # fmt: skip

# True statements of the battery that an older tell names (not this round's phrasings):
# big-models-gain-most reads "a model of large matrix multiplies gains little";
# gradient-outside-block-errors reads the persistent tape's "gradient() call made inside
# the block"; model-built-inside-tape and weights-are-constants read "a constant created in
# the block"; numpy-gives-zero-gradients reads "asking for zeros"; gpu-gains-most reads
# "on CPU or GPU ... gains most" (a held statement). Left for whoever narrows those readings.
# Round 13's start (round 12's set in tune, neighbours retrained) no longer named
# big-models-gain-most on the first; round 15's start (round 14's set in tune, neighbours
# retrained) names it again, by the neighbours alone (rules alone: partial, no tell): three of
# its seven nearest answers state big-models-gain-most and "matrix multiply" marks the tag, but
# "gains little" says the opposite of "gains most". Left for whoever owns the neighbours.
# Round 17's start (round 16's set in tune) names it no more: 147 of the question's 439 tune
# answers carry big-models-gain-most, over a third, so no word marks the tag (MARK_LIFT).
# Leaving out any one of 21 tune personas brings the tag under a third again
# (docs/freetext-rounds.md, round 17, V): it may come back. Round 41's start (round 40's set
# in tune, tag classifier retrained) names it again, by the classifier alone (classifier off:
# no tell; rules alone: no tell). Round 42's retrain after the merge names it no more (a plain
# test again; round 42's L1 measured a loose-evidence veto for it and it was not kept).
FIXED_ROUND13: list[Any] = [
    (
        "tf-function-speedup",
        "On a CPU a model of large matrix multiplies gains little from tf.function, because the ops themselves dominate.",
    ),
]  # fmt: skip

# Round 46 (W4's determined subject with a prepositional phrase: "a constant created in the block is
# not watched" reads as a statement of its own): names nothing now, where it named
# `model-built-inside-tape` and `weights-are-constants` before.
FIXED_ROUND46 = [
    ("why-none-gradients", "Ops on watched variables are recorded, but a constant created in the block is not watched unless you call tape.watch."),
]  # fmt: skip

KNOWN_NAMED = [
    ("persistent-tape", "A persistent tape keeps recording after a gradient() call made inside the block; a default tape fails on the second call because it freed its recording."),
    ("numpy-inside-tape", "Asking for zeros with unconnected_gradients hides the break, it doesn't fix it."),
    ("tf-function-speedup", "Whether on CPU or GPU, a step made of many tiny ops gains most."),
]  # fmt: skip


test_grade_freetext_names_a_round11_tell = names_the_tell(WRONG + WRONG_HELD + FIXED_ROUND12)
test_grade_freetext_round11_true_statements_name_nothing = names_nothing(
    CORRECT + CORRECT_HELD + FIXED_ROUND13 + FIXED_ROUND46
)
test_grade_freetext_round11_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the clause reading hides this statement's claim"
)
test_grade_freetext_round11_known_true_statements_name_nothing = names_nothing(
    KNOWN_NAMED, xfail="an older reading names a tell on this true statement"
)
