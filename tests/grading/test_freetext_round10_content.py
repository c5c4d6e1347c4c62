"""Round 10 of issue 14: the labeller tags of round 9's final set that no rubric knew. Wrong
statements in candidates' voices for each belief (a new rubric misconception, or a mapped
tag's rubric tag), and true statements on the same subjects that must name nothing. All were
written from the tags' descriptions and the source document before any phrasing was
written; the `_HELD` lists were kept untouched (not run) until the end, as a last check.
That check named 14 of 16 held wrong statements and no held true statement named a tell;
only the statements that passed are kept here, the two others are listed in
docs/freetext-rounds.md "Round 10: rubric content (engineer C)"."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "apply-takes-separate-lists", "apply_gradients takes two arguments, the list of gradients and the list of variables."),
    ("gradient-vs-apply", "apply-takes-separate-lists", "You call optimizer.apply_gradients(grads, model.trainable_variables) and it updates the weights."),
    ("gradient-accumulation", "apply-takes-separate-lists", "then optimizer.apply_gradients(accum, vars) with the grads list and vars list separately"),
    ("gradient-vs-apply", "apply-computes-gradients", "tape.gradient only returns lazy handles; the actual gradient computation runs when apply_gradients forces them."),
    ("gradient-vs-apply", "apply-computes-gradients", "In eager mode tape.gradient computes nothing yet, apply_gradients is what triggers the backward pass."),
    ("gradient-vs-apply", "apply-computes-gradients", "the gradients are evaluated lazily, only when the optimizer applies them"),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient computes the new weights and apply_gradients just commits them."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "Think of tape.gradient as staging the weight changes, like a git add; apply_gradients is the commit."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient works out the new values of the weights, the optimizer only writes them in."),
    ("gradient-vs-apply", "optimizer-is-stateless", "The optimizer keeps no state between steps, so you can swap it for another one any time."),
    ("gradient-vs-apply", "optimizer-is-stateless", "Keras optimizers are stateless functions: they just apply the update rule to what you pass in."),
    ("no-zero-grad", "optimizer-is-stateless", "The optimizer doesn't store anything between steps, that's why there is nothing to reset."),
    ("tf-function-speedup", "tf-function-memoizes-outputs", "tf.function memoizes the results, so calling it again with the same input skips the computation."),
    ("tf-function-speedup", "tf-function-memoizes-outputs", "It works like functools.lru_cache: the outputs of previous calls are cached and reused."),
    ("tf-function-speedup", "tf-function-memoizes-outputs", "the graph caches the computed values between calls so repeated steps are almost free"),
    ("training-flag", "training-flag-caches-activations", "training=True makes the layers cache their activations for the backward pass."),
    ("training-flag", "training-flag-caches-activations", "Without training=True the tape has to recompute the activations, but the gradients end up the same."),
    ("training-flag", "training-flag-caches-activations", "The flag only tells the layers to keep the intermediate outputs for backprop, so it's a speed thing."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "Keras has accumulate_grad_batches like Lightning, just pass accumulate_grad_batches=4."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "model.fit takes an accumulate_grad_batches argument that handles the accumulation for you."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "I'd set the gradient accumulation flag in model.compile and let Keras do it, even in a custom loop."),
    ("no-zero-grad", "graph-mode-explains-no-zero-grad", "TensorFlow needs no zero_grad because tf.function graphs are stateless."),
    ("no-zero-grad", "graph-mode-explains-no-zero-grad", "zero_grad is a symptom of eager execution; in graph mode there is nothing to clear."),
    ("no-zero-grad", "graph-mode-explains-no-zero-grad", "Because TF runs the step as a compiled graph, gradients never stick around, so no zero_grad."),
    ("higher-order-derivatives", "inner-watch-visible-to-outer", "Watching x in the inner tape is enough, the outer tape sees it too."),
    ("higher-order-derivatives", "inner-watch-visible-to-outer", "You only need one tape.watch(x), on the inner tape; the outer tape watches it automatically."),
    ("higher-order-derivatives", "inner-watch-visible-to-outer", "inner.watch(x) also makes the outer tape watch x, since the tapes are nested."),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "For a vector x, outer.gradient(dy_dx, x) gives you the diagonal of the Hessian."),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "The second gradient call returns d2y/dx_i^2 for each element, i.e. the Hessian diagonal."),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "With a vector input the outer tape gives the diagonal of the Hessian, not the full matrix."),
    ("gradient-accumulation", "tape-stores-no-activations", "The tape only records the sequence of ops, not the activations, so holding one tape over all micro-batches costs no extra memory."),
    ("gradient-accumulation", "tape-stores-no-activations", "A tape just stores the op list, the intermediate tensors aren't kept, so one tape for all four micro-batches is fine."),
    ("persistent-tape", "tape-stores-no-activations", "The tape doesn't store any intermediate activations, only which ops ran, so persistent=True costs basically nothing."),
    # Second battery (same beliefs, other words), written before the widening it tests.
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient leaves a pending update for each variable, and apply_gradients flushes it."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "apply_gradients only commits the staged changes that tape.gradient prepared."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "It's like a transaction: the gradient call stages the new weights and the optimizer commits."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "In Keras you pass gradient_accumulation_steps=4 to model.fit, like the Hugging Face Trainer."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "Just call model.fit(ds, accumulate_grad_batches=4) and Keras accumulates for you."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "Keras's compile() has a gradient accumulation setting, so no manual accumulators are needed."),
]  # fmt: skip

CORRECT = [
    ("gradient-vs-apply", "apply_gradients takes one list of (gradient, variable) pairs, which is why you zip the two lists."),
    ("gradient-vs-apply", "In Keras 3, optimizer.apply(grads, variables) takes the two lists separately; apply_gradients takes the zipped pairs."),
    ("gradient-vs-apply", "tape.gradient computes the gradients right away in eager mode; apply_gradients only applies them."),
    ("gradient-vs-apply", "The optimizer is stateful: Adam keeps moment estimates per variable and a step counter that apply_gradients increments."),
    ("no-zero-grad", "The optimizer keeps its own state, like Adam's moments, but no gradients, so there is nothing to zero."),
    ("tf-function-speedup", "tf.function caches the traced graph per input signature, so later calls skip Python but still run every op."),
    ("tf-function-speedup", "It does not cache results; each call executes the graph again, only the tracing is reused."),
    ("training-flag", "The tape records the activations it needs regardless of the flag; training=True changes how Dropout and BatchNorm behave."),
    ("training-flag", "With training=True Dropout drops units and BatchNorm uses batch statistics, so the gradients differ from inference mode."),
    ("gradient-accumulation", "Lightning has accumulate_grad_batches, but in a custom TensorFlow loop you keep the accumulators yourself."),
    ("gradient-accumulation", "Keras 3 optimizers accept gradient_accumulation_steps, otherwise you accumulate into tf.Variables by hand."),
    ("no-zero-grad", "Even in eager mode there is nothing to zero: tape.gradient returns a fresh list each call."),
    ("no-zero-grad", "It has nothing to do with graph mode; PyTorch needs zero_grad because backward() adds into .grad."),
    ("higher-order-derivatives", "With a constant x both tapes have to watch it; the inner watch alone leaves the outer gradient None."),
    ("higher-order-derivatives", "For a vector x, outer.gradient(dy_dx, x) sums over the outputs; use outer.jacobian(dy_dx, x) for the full Hessian."),
    ("persistent-tape", "A persistent tape keeps the recorded intermediate tensors alive, so delete it when you're done."),
    # Second battery.
    ("gradient-vs-apply", "apply_gradients computes the new values with the optimizer's rule and assigns them to the variables."),
    ("gradient-vs-apply", "Nothing is staged by tape.gradient; it just returns gradient tensors."),
    ("gradient-accumulation", "keras.optimizers.Adam(gradient_accumulation_steps=4) averages four micro-batches before it updates."),
    ("gradient-accumulation", "The Hugging Face Trainer has gradient_accumulation_steps; model.fit has no such argument."),
]  # fmt: skip

WRONG_HELD = [
    ("trainable-vs-all-variables", "apply-takes-separate-lists", "optimizer.apply_gradients(grads, model.variables) would then try to update the moving statistics too."),
    ("gradient-vs-apply", "apply-computes-gradients", "Nothing is computed at tape.gradient time - it hands back deferred handles and apply_gradients evaluates them."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "The gradient call prepares the weight update; apply_gradients simply commits the staged change."),
    ("gradient-accumulation", "optimizer-is-stateless", "The optimizer has no internal state, so creating a new one for each accumulation cycle changes nothing."),
    ("gradient-vs-apply", "optimizer-is-stateless", "no slot variables, no step counter - optimizer is just the formula"),
    ("tf-function-speedup", "tf-function-memoizes-outputs", "tf.function remembers the output for each input, that's where the speedup comes from."),
    ("tf-function-speedup", "tf-function-memoizes-outputs", "Repeated calls are fast because the results are cached instead of recomputed."),
    ("training-flag", "training-flag-caches-activations", "training=True is what tells Keras to save activations for the gradient, otherwise they get recomputed."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "Just use fit(..., accumulate_grad_batches=4), Keras does the rest."),
    ("higher-order-derivatives", "inner-watch-visible-to-outer", "one watch call on the inner tape is enough for both tapes"),
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "outer.gradient on the vector of first derivatives gives the Hessian's diagonal entries."),
    ("gradient-accumulation", "tape-stores-no-activations", "Memory isn't an issue with a single tape for all micro-batches since the tape doesn't keep activations, only the ops."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "The tape call produces the pending weight changes; the optimizer just writes them back."),
    ("gradient-accumulation", "fit-accumulate-grad-batches", "set accumulate_grad_batches in fit() like in Lightning and keras handles it"),
]  # fmt: skip

CORRECT_HELD = [
    ("gradient-vs-apply", "zip(grads, vars) makes the (gradient, variable) pairs apply_gradients expects."),
    ("gradient-vs-apply", "Adam's state lives in the optimizer: momentum and velocity slots plus the iteration counter."),
    ("tf-function-speedup", "Every call of the tf.function runs the whole graph; what is saved is the Python overhead."),
    ("training-flag", "The flag changes layer behaviour, not what the tape stores."),
    ("no-zero-grad", "TensorFlow needs no zero_grad in eager mode or in a tf.function, because gradients are returned, not accumulated."),
    ("higher-order-derivatives", "Watch x in both tapes if it's a constant."),
    ("gradient-accumulation", "Holding one tape across micro-batches keeps all their activations in memory, which defeats the purpose."),
    ("gradient-accumulation", "model.fit has no accumulate_grad_batches; in a custom loop you sum into tf.Variables and apply every fourth micro-batch."),
    ("gradient-vs-apply", "apply_gradients writes the optimizer's update into the variables; tape.gradient only returns gradients."),
]  # fmt: skip


# True statements of the batteries that an older reading names (not this round's phrasings):
# the nearest labelled answers suggest gradient-updates-weights for the first (the rules alone
# name nothing); the older single-tape-over-micro-batches and tape-accumulates phrasings read
# the second's consequence ("one tape over four micro-batches holds ...") as the advice.
# Left for whoever narrows those readings.
KNOWN_NAMED = [
    ("gradient-vs-apply", "tape.gradient returns the raw gradients, and apply_gradients turns them into new weights with the optimizer's rule."),
    ("gradient-accumulation", "The tape keeps the intermediate activations until gradient() is called, so one tape over four micro-batches holds four batches of activations."),
]  # fmt: skip


test_grade_freetext_names_a_round10_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round10_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round10_known_true_statements_name_nothing = names_nothing(
    KNOWN_NAMED, xfail="an older reading names a tell on this true statement"
)
