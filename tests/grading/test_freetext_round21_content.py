"""Round 21 of issue 14 (engineer C, rubric content): round 19's final set, now tuned on, read one
answer at a time. Misconceptions said in words the phrasings lacked (the tape closed or freed
when its block exits, the optimizer resetting gradients "as part of the update", inference mode
likened to a no-gradient mode, the optimizer nudging the moving statistics "with gradients",
passing model.variables denied to be a problem, "its the same list", training mode as the
default of a direct call), a comparison "the same way as PyTorch" read as one, and true
statements the rules read as tells (a scope said as "used to compute h", "two sets of
gradients" from a persistent tape, "the difference between mutable state and a pure function",
"tape.gradient only reads the weights", "once per tape" of a gradient call, what a persistent
tape costs, XLA behind jit_compile, a gap running over the optimizer's call). Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 21: rubric content
(engineer C)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # tape-discarded-on-block-exit: closed / released / freed / finalised at the block's exit
    ("persistent-tape", "tape-discarded-on-block-exit", "As soon as the with block is exited, the tape is released, which is why the second call fails."),
    ("persistent-tape", "tape-discarded-on-block-exit", "The tape gets closed when you leave the with block, so take both gradients inside it."),
    ("no-zero-grad", "tape-discarded-on-block-exit", "Once the with block ends, the tape is freed and its gradients with it."),
    # optimizer-clears-grads: "as part of the update"
    ("no-zero-grad", "optimizer-clears-grads", "The optimizer clears the gradients as part of every update, so there is nothing for you to zero."),
    # bn-stats-get-gradients: the statistics as a pronoun the optimizer moves with gradients
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Those averages are bookkeeping, not parameters. Hand them to the optimizer and it would nudge them with gradients every step."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "BatchNorm keeps a running mean and variance. If Adam got them, it would shift them using their gradients."),
    # pass-model-variables: denied to be a problem; the same result either way
    ("trainable-vs-all-variables", "pass-model-variables", "Passing everything is not a big problem; trainable_variables merely trims a little work."),
    ("trainable-vs-all-variables", "pass-model-variables", "model.variables would produce the same updates, so either list will do."),
    # variables-are-the-same: without the apostrophe
    ("trainable-vs-all-variables", "variables-are-the-same", "for a plain dense net theyre the same list anyway"),
    # training-flag-enables-gradients: inference mode likened to a no-gradient mode; the flag gets the pass recorded
    ("training-flag", "training-flag-enables-gradients", "In inference mode Keras acts like torch.no_grad, nothing gets taped."),
    ("training-flag", "training-flag-enables-gradients", "The flag marks this call for training and the forward pass is recorded for backprop."),
    ("why-none-gradients", "training-flag-enables-gradients", "Without the flag Keras runs in eval mode, which works like chainer.no_backprop_mode, hence the Nones."),
    # tape-accumulates: "the same way as in PyTorch" compares with TensorFlow, it is no PyTorch statement
    ("no-zero-grad", "tape-accumulates", "The gradients add up across steps in the same way PyTorch's .grad buffers do, so reset the tape."),
    ("no-zero-grad", "tape-accumulates", "Gradients accumulate over iterations the same way torch does it."),
    # training-auto-detected-in-tape: training mode as the default of a direct call
    ("training-flag", "training-auto-detected-in-tape", "Honestly the default is training mode, dropping the argument inside the tape is harmless."),
    ("training-flag", "training-auto-detected-in-tape", "Called directly, the training arg defaults to True, so omitting it costs nothing."),
    # gradient-updates-weights: gradients pushed into the variables; the reversed identification
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient pushes the gradients onto the weights, then the optimizer only keeps its slot state."),
    ("gradient-vs-apply", "gradient-updates-weights", "Of the two, the call which actually modifies the parameters is tape.gradient; apply_gradients is bookkeeping."),
    # non-trainable-gradient-errors: tape.gradient said to raise a named error
    ("trainable-vs-all-variables", "non-trainable-gradient-errors", "Ask tape.gradient about the moving mean and it throws an InvalidArgumentError at you."),
    # numpy-straight-through: an identity in the backward pass
    ("numpy-inside-tape", "numpy-straight-through", "On the way back TensorFlow regards the NumPy step as an identity, so h still gets a gradient."),
    ("numpy-inside-tape", "numpy-straight-through", "The upstream gradient is simply propagated through unchanged to the earlier layers."),
]  # fmt: skip

CORRECT = [
    # numpy-kills-all-gradients: a scope said as what the variables did
    ("numpy-inside-tape", "Every weight involved in computing h ends up with None; the layers after the conversion still train."),
    ("numpy-inside-tape", "All the variables used for building h get None gradients, while the head keeps learning."),
    # list-target-separate-grads: two sets from a persistent tape's two calls
    ("persistent-tape", "For two separate sets of gradients from one forward pass, make the tape persistent and call gradient twice."),
    # needs-zero-grad: a contrast of two designs, no instruction
    ("no-zero-grad", "It is the difference between mutable state you must reset every iteration and a pure function returning new tensors."),
    # gradients-computed-in-forward: reading the weights
    ("gradient-vs-apply", "apply_gradients writes the new values; tape.gradient only reads the weights."),
    # apply-uses-tape: "once per tape" said of the gradient call
    ("gradient-vs-apply", "A default tape computes gradients once per tape, then it releases its recording."),
    # gradient-updates-weights: the gap runs over the optimizer's call
    ("gradient-vs-apply", "tape.gradient(loss, w)  -> only the slopes\nopt.apply_gradients(pairs)  -> the update\nthat last call alone changes the weights"),
    # persistent-is-free: what a persistent tape costs
    ("persistent-tape", "A persistent tape holds its buffers until it is garbage-collected, so deleting it early frees that memory."),
    # tf-function-is-xla: behind the opt-in
    ("tf-function-speedup", "Grappler optimises the traced graph, and with jit_compile=True it can also be compiled with XLA."),
    # tape-discarded-on-block-exit: only the recording stops at the exit
    ("persistent-tape", "When the with block exits, the tape stops recording; it is freed after its first gradient call."),
    ("persistent-tape", "Leaving the with block closes the tape for recording, but gradient() still works afterwards."),
    # bn-stats-get-gradients: frozen weights do get gradients and updates
    ("trainable-vs-all-variables", "Hand the frozen backbone to the optimizer and it would nudge them with gradients, undoing the freeze."),
    # pass-model-variables: affirmed to be a problem
    ("trainable-vs-all-variables", "Passing model.variables is a real problem: no optimizer should own the moving statistics."),
    # training-flag-enables-gradients: the comparison denied
    ("training-flag", "training=False is like model.eval() in PyTorch, not like torch.no_grad(): the tape still records."),
    # optimizer-clears-grads: the learner's own accumulators
    ("no-zero-grad", "You reset your own accumulators as part of the update step, after apply_gradients."),
    # training-auto-detected-in-tape: the defaults said right
    ("training-flag", "Under fit() the default is training mode; a direct model(x) call runs in inference mode."),
    ("training-flag", "The default is inference mode, so inside the tape pass training=True yourself."),
    # gradient-updates-weights: said right
    ("gradient-vs-apply", "The one that changes the weights is apply_gradients; tape.gradient backpropagates through the recorded ops and returns tensors."),
    # non-trainable-gradient-errors: the errors that do happen
    ("trainable-vs-all-variables", "tape.gradient hands back None for the moving statistics; a second tape.gradient call on a default tape is what raises an error."),
    # numpy-straight-through: denied
    ("numpy-inside-tape", "Nothing flows through unchanged: the layers before the NumPy call get None, and tf.identity would be recorded only if you used it."),
]  # fmt: skip


test_grade_freetext_names_a_round21_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round21_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
