"""Round 8 (issue 14): true statements the rules read as a misconception.

A denial, a reported myth, a belief given up, a contrast, a question or a counterfactual
carries every word of the tell it denies; the shared reader (matching.py, claims.py) must
see what the sentence does with them. The statements below were written in many shapes for
all ten core questions: the first 120 before any fix was tried, then 42 after the first
fixes and 32 as a last check (docs/freetext-rounds.md "Round 8: true statements read as tells").
STATED holds the misconceptions written in the same shapes without the denial that the
rules named before this round: they must stay named. One true statement is left out: an
imperative "Forget X" the reader does not know (in the docs, not fixed here). The two that
a `negated` phrasing of must-watch-variables named (its denial was the true statement) are
tested below since the lead removed that phrasing.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext.conditions import in_counterfactual_consequence
from app.grading.freetext.grader import affirms
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import question

TRUE_STATEMENTS = [
    (
        "no-zero-grad",
        "You don't have to zero anything in TensorFlow; tape.gradient hands back fresh tensors each step.",
    ),
    (
        "no-zero-grad",
        "It's a myth that TensorFlow needs zero_grad: gradients are never accumulated on the variables.",
    ),
    (
        "no-zero-grad",
        "People coming from PyTorch say you must reset the gradients every step, but in TensorFlow there is nothing to reset.",
    ),
    (
        "no-zero-grad",
        "Unlike PyTorch, gradients are not stored on the variables, so there is no buffer to clear.",
    ),
    (
        "no-zero-grad",
        "Should you clear the gradients before each step? No - each tape.gradient call returns new tensors.",
    ),
    (
        "no-zero-grad",
        "I wouldn't say the optimizer clears the gradients; there is simply nothing stored to clear.",
    ),
    (
        "no-zero-grad",
        "If gradients piled up on the variables, you'd need a zero_grad, but TensorFlow never stores them there.",
    ),
    ("no-zero-grad", "Nobody needs to call zero_grad in a TensorFlow loop."),
    (
        "no-zero-grad",
        "The tape does not add the new gradients to the old ones; every step starts from scratch.",
    ),
    (
        "no-zero-grad",
        "A common misconception is that the tape keeps gradients between steps; it keeps only the recorded operations, and a new tape is made each step.",
    ),
    ("no-zero-grad", "Zeroing gradients is not something TensorFlow asks of you."),
    (
        "no-zero-grad",
        "There's no reason to reset anything: the gradient list is a new Python list every call.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient doesn't change any weight; it only computes and returns the gradients.",
    ),
    (
        "gradient-vs-apply",
        "It's a misconception that tape.gradient updates the weights - apply_gradients does that.",
    ),
    (
        "gradient-vs-apply",
        "Some people think the gradients are applied when the with block exits; nothing is applied until you call apply_gradients.",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients does not compute gradients; it takes the ones you pass and applies the optimizer's rule.",
    ),
    ("gradient-vs-apply", "Does tape.gradient modify the variables? No, it just returns tensors."),
    (
        "gradient-vs-apply",
        "Unlike loss.backward() in PyTorch, which stores gradients on the parameters, tape.gradient stores nothing on the variables.",
    ),
    (
        "gradient-vs-apply",
        "If tape.gradient updated the weights, apply_gradients would have nothing left to do.",
    ),
    (
        "gradient-vs-apply",
        "I wouldn't call apply_gradients a plain w -= lr * g; it follows the optimizer's update rule, e.g. Adam's moments.",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients does not return new weights; it updates the variables in place.",
    ),
    (
        "gradient-vs-apply",
        "The gradients are not computed during the forward pass; the tape records operations and differentiates them when you call tape.gradient.",
    ),
    (
        "gradient-vs-apply",
        "Calling tape.gradient does not run the forward pass again; it replays the recorded operations backwards.",
    ),
    (
        "gradient-vs-apply",
        "You don't need model.compile() to call apply_gradients in a custom loop.",
    ),
    (
        "persistent-tape",
        "A tape is not persistent by default; a second gradient call on it raises a RuntimeError.",
    ),
    (
        "persistent-tape",
        "A persistent tape isn't free: it keeps its recorded operations in memory until you delete it.",
    ),
    (
        "persistent-tape",
        "It's a myth that persistent=True costs nothing; the tape holds its resources until del tape.",
    ),
    (
        "persistent-tape",
        "People say a persistent tape lasts across training steps, but it only covers the operations recorded inside its with block.",
    ),
    (
        "persistent-tape",
        "persistent=True does not store gradients; it keeps the recording so gradient can be called more than once.",
    ),
    (
        "persistent-tape",
        "Can you call gradient twice on a normal tape? No, you need persistent=True for that.",
    ),
    (
        "persistent-tape",
        "Unlike PyTorch's retain_graph, which you pass to backward, TensorFlow sets persistence when the tape is created.",
    ),
    (
        "persistent-tape",
        "There is no tape.close() method; you release a persistent tape with del tape.",
    ),
    (
        "persistent-tape",
        "If the tape were persistent by default, the second gradient call would not raise.",
    ),
    (
        "persistent-tape",
        "You don't need two forward passes for two gradients: one persistent tape, or two tapes recording the same forward pass, is enough.",
    ),
    (
        "persistent-tape",
        "Calling tape.gradient does not consume the target; with persistent=True the same loss can be differentiated again.",
    ),
    (
        "persistent-tape",
        "Summing the two losses would not give each network its own gradient, so a persistent tape or two tapes are needed.",
    ),
    ("why-none-gradients", "Trainable variables never need tape.watch; only constant tensors do."),
    ("why-none-gradients", "It's a myth that every variable must be watched by hand."),
    (
        "why-none-gradients",
        "Watching the loss doesn't help: the loss was computed outside the tape, so nothing connects it to the weights.",
    ),
    (
        "why-none-gradients",
        "Computing the loss outside the with block is not fine - the tape never sees those operations, so the gradients are None.",
    ),
    (
        "why-none-gradients",
        "Do I need to compile the model for tape.gradient? No, compile is only for fit.",
    ),
    (
        "why-none-gradients",
        "A None gradient does not mean the gradient is zero; it means there is no recorded path from the loss to that variable.",
    ),
    ("why-none-gradients", "The training flag has nothing to do with None gradients."),
    (
        "why-none-gradients",
        "Unlike PyTorch, where requires_grad must be set on tensors, TensorFlow watches trainable variables automatically.",
    ),
    (
        "why-none-gradients",
        "If the loss had been computed inside the tape, the gradients would not be None.",
    ),
    (
        "why-none-gradients",
        "The weights are not constants; they are tf.Variables, which the tape tracks automatically.",
    ),
    (
        "why-none-gradients",
        "Some candidates say a non-persistent tape returns None on the first call, but that's not the cause; the first call works fine.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables is not the same as model.trainable_variables: it also holds non-trainable ones like BatchNorm's moving mean.",
    ),
    (
        "trainable-vs-all-variables",
        "You shouldn't pass model.variables to tape.gradient; pass model.trainable_variables.",
    ),
    (
        "trainable-vs-all-variables",
        "It's a mistake to think the two lists are identical once a layer is frozen or a BatchNorm is present.",
    ),
    (
        "trainable-vs-all-variables",
        "BatchNorm's moving statistics get no gradients; they're updated in the forward pass.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables does not include the optimizer's slot variables.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables does not contain activations; it lists only the layers' weights.",
    ),
    (
        "trainable-vs-all-variables",
        "Non-trainable weights are not hyperparameters like the learning rate; they are state such as moving averages.",
    ),
    (
        "trainable-vs-all-variables",
        "Does model.variables contain copies of the weights? No, it holds the same tf.Variable objects.",
    ),
    (
        "trainable-vs-all-variables",
        "Unlike PyTorch, where buffers are kept apart from parameters, Keras lists BatchNorm's statistics in model.variables.",
    ),
    (
        "trainable-vs-all-variables",
        "If model.variables and trainable_variables were the same list, freezing a layer would change nothing.",
    ),
    (
        "trainable-vs-all-variables",
        "Frozen layers are not the only difference: BatchNorm's moving mean and variance are non-trainable too.",
    ),
    (
        "trainable-vs-all-variables",
        "I wouldn't say model.variables holds only variables you created yourself; it holds every layer's weights.",
    ),
    (
        "higher-order-derivatives",
        "You don't need persistent=True for a second derivative, just two nested tapes.",
    ),
    (
        "higher-order-derivatives",
        "Calling gradient twice on one tape doesn't give a second derivative; you nest an outer tape around the inner one.",
    ),
    (
        "higher-order-derivatives",
        "It's a myth that a tape can only do first-order derivatives; nesting tapes gives higher orders.",
    ),
    (
        "higher-order-derivatives",
        "The inner gradient must be computed inside the outer tape's block, not after it closes.",
    ),
    (
        "higher-order-derivatives",
        "Is persistent=True what gives second derivatives? No, nesting does.",
    ),
    (
        "higher-order-derivatives",
        "Unlike PyTorch, which needs create_graph=True, TensorFlow just records the inner gradient on the outer tape.",
    ),
    (
        "higher-order-derivatives",
        "jacobian does not give the second derivative by itself; it gives first derivatives of a vector.",
    ),
    (
        "higher-order-derivatives",
        "There is no order argument to tape.gradient; each extra order needs another tape.",
    ),
    (
        "higher-order-derivatives",
        "The tape has no hessian method; you build a Hessian from nested tapes and jacobian.",
    ),
    (
        "higher-order-derivatives",
        "The tape is not numerical differentiation; it applies each op's gradient function to the recorded operations.",
    ),
    (
        "higher-order-derivatives",
        "If the inner tape were outside the outer one, the outer tape would not see the first derivative and would return None.",
    ),
    (
        "higher-order-derivatives",
        "You shouldn't wrap the first gradient in a tf.Variable; that cuts it off from the outer tape.",
    ),
    (
        "numpy-inside-tape",
        "The tape does not record NumPy operations, so the chain breaks at the conversion.",
    ),
    (
        "numpy-inside-tape",
        # Round 49 (engineer C44): "the gradients" scoped ("the earlier layers' gradients"): said of every gradient in
        # an answer that never scopes it, the labellers read numpy-kills-all-gradients (docs/freetext-rounds.md).
        "It's a myth that NumPy code inside the tape raises an error; it runs, and the earlier layers' gradients come back None.",
    ),
    (
        "numpy-inside-tape",
        "NumPy calls don't give zero gradients; the variables before the conversion get None.",
    ),
    (
        "numpy-inside-tape",
        "Not every gradient is lost: variables used only after the NumPy step still get theirs.",
    ),
    (
        "numpy-inside-tape",
        "Does the tape see through .numpy()? No, the result is a plain array with no history.",
    ),
    (
        "numpy-inside-tape",
        "Unlike JAX, where jax.numpy is traced, plain NumPy inside a GradientTape is invisible to it.",
    ),
    (
        "numpy-inside-tape",
        "Watching the NumPy result again with tape.watch doesn't reconnect it; it starts a new history from that tensor.",
    ),
    (
        "numpy-inside-tape",
        "If the tape recorded NumPy, the gradients would flow through it, but it doesn't.",
    ),
    (
        "numpy-inside-tape",
        "People assume the gradient passes straight through the NumPy step unchanged; it doesn't pass at all.",
    ),
    ("numpy-inside-tape", "np.square isn't differentiable by the tape; tf.square is."),
    (
        "numpy-inside-tape",
        "The problem is not the dtype of the array; it is that NumPy runs outside TensorFlow's recorded ops.",
    ),
    (
        "numpy-inside-tape",
        "It isn't only the loss that must be a tensor; every op between the weights and the loss has to be a TensorFlow op.",
    ),
    (
        "training-flag",
        "The flag does not turn gradient recording on or off; the tape records either way.",
    ),
    (
        "training-flag",
        "training=True is not an optimizer mode; it only changes how layers like Dropout and BatchNorm behave.",
    ),
    (
        "training-flag",
        "It's a myth that the tape detects training mode by itself; you pass training=True.",
    ),
    (
        "training-flag",
        "Leaving out the flag doesn't stop learning; the weights still update, just with dropout off and BatchNorm in inference mode.",
    ),
    (
        "training-flag",
        "Does the model raise an error without training=True? No, it silently runs in inference mode.",
    ),
    (
        "training-flag",
        "BatchNorm does not ignore the flag: with training=True it uses batch statistics, with False the moving averages.",
    ),
    ("training-flag", "Unlike PyTorch's model.train(), the Keras flag is passed on each call."),
    (
        "training-flag",
        "The optimizer does not update BatchNorm's moving statistics; the layer updates them in the forward pass when training=True.",
    ),
    (
        "training-flag",
        "If the flag controlled gradients, you'd get None without it; you get real gradients.",
    ),
    (
        "training-flag",
        "Dropout is not active at inference; it drops units only when training=True.",
    ),
    ("training-flag", "training=True has nothing to do with persistent tapes."),
    (
        "training-flag",
        "I wouldn't say BatchNorm updates its statistics at inference; it only does so in training mode.",
    ),
    (
        "tf-function-speedup",
        "tf.function does not move anything to the GPU; eager ops already run there.",
    ),
    ("tf-function-speedup", "It is not XLA by default; you have to ask for jit_compile=True."),
    (
        "tf-function-speedup",
        "It's a myth that big models gain the most; the gain is largest for small ops where Python overhead dominates.",
    ),
    (
        "tf-function-speedup",
        "The graph does not cache gradients between steps; it saves Python dispatch overhead.",
    ),
    (
        "tf-function-speedup",
        "Does tf.function distribute the training over devices? No, that's tf.distribute's job.",
    ),
    (
        "tf-function-speedup",
        "Unlike eager mode, which dispatches each op from Python, the traced graph runs the whole step without returning to Python.",
    ),
    (
        "tf-function-speedup",
        "Large batches don't gain the most; with big batches the kernels dominate and the overhead matters less.",
    ),
    (
        "tf-function-speedup",
        "The speedup is not universal: a step dominated by a few big matmuls barely changes.",
    ),
    (
        "tf-function-speedup",
        "tf.function does not change how gradients are computed; the same tape differentiation runs inside the graph.",
    ),
    (
        "tf-function-speedup",
        "Passing Python scalars does not avoid retracing; each new Python value triggers a new trace.",
    ),
    (
        "tf-function-speedup",
        "Eager mode does not build a graph per op; it runs each op immediately.",
    ),
    (
        "tf-function-speedup",
        "Eager ops are not copied back to the host after each op; the overhead is Python dispatch, not transfers.",
    ),
    (
        "gradient-accumulation",
        "TensorFlow does not accumulate gradients for you; you sum them yourself in a list of variables.",
    ),
    (
        "gradient-accumulation",
        "You must not apply after every micro-batch; apply once after the last one.",
    ),
    (
        "gradient-accumulation",
        "It's a myth that the tape accumulates gradients across calls; each call returns fresh ones.",
    ),
    (
        "gradient-accumulation",
        "People think one tape can be held across all micro-batches, but you open a new tape per micro-batch.",
    ),
    (
        "gradient-accumulation",
        "The optimizer does not clear the accumulators; you reset them yourself after applying.",
    ),
    (
        "gradient-accumulation",
        "Does the optimizer divide by the batch size for you? No, you divide the sum by the number of micro-batches.",
    ),
    (
        "gradient-accumulation",
        "Unlike PyTorch, where .grad adds up on its own, in TensorFlow you add the gradients into your own variables.",
    ),
    (
        "gradient-accumulation",
        "steps_per_execution does not accumulate gradients; it only runs several steps per call.",
    ),
    (
        "gradient-accumulation",
        "If apply_gradients were called every micro-batch, you'd get four small updates instead of one large one.",
    ),
    (
        "gradient-accumulation",
        "Accumulation does not match a big batch when BatchNorm is present; its statistics are per micro-batch.",
    ),
    (
        "gradient-accumulation",
        "apply_gradients does not clip by default; clipping needs clipnorm or an explicit tf.clip_by_global_norm.",
    ),
    (
        "gradient-accumulation",
        "A persistent tape doesn't store gradients to accumulate; you keep the sums in variables.",
    ),
    ("no-zero-grad", "Contrary to popular belief, TensorFlow has no zero_grad step at all."),
    (
        "no-zero-grad",
        "Zero the gradients? Not in TensorFlow - each tape.gradient call returns new ones.",
    ),
    (
        "no-zero-grad",
        "I used to think the gradients piled up between steps, but tape.gradient returns new tensors every time.",
    ),
    ("no-zero-grad", "Don't bother resetting gradients in a custom loop; nothing carries over."),
    ("no-zero-grad", "Calling zero_grad is a PyTorch habit; TensorFlow never needs it."),
    (
        "gradient-vs-apply",
        "You'd think tape.gradient updates the weights, but it only returns them.",
    ),
    (
        "gradient-vs-apply",
        "The claim that tape.gradient changes the variables is false; apply_gradients does the update.",
    ),
    (
        "gradient-vs-apply",
        "It's not that tape.gradient updates the weights; it's that apply_gradients does.",
    ),
    (
        "gradient-vs-apply",
        "Neither tape.gradient nor the end of the with block updates the weights; only apply_gradients does.",
    ),
    (
        "gradient-vs-apply",
        "Some tutorials claim apply_gradients computes the gradients. They're wrong: it only applies them.",
    ),
    (
        "persistent-tape",
        "Contrary to what some people assume, a tape is not persistent unless you pass persistent=True.",
    ),
    (
        "persistent-tape",
        "Is a persistent tape free? Not at all; it keeps its recording until del tape.",
    ),
    (
        "persistent-tape",
        "I used to believe a persistent tape costs nothing, but it holds every intermediate tensor until deleted.",
    ),
    (
        "persistent-tape",
        "Don't assume the tape is persistent by default; the second gradient call fails.",
    ),
    (
        "why-none-gradients",
        "Watch the weights yourself? No need - trainable variables are watched automatically.",
    ),
    (
        "why-none-gradients",
        "The idea that the loss can live outside the tape is wrong; it has to be computed inside.",
    ),
    (
        "why-none-gradients",
        "Whoever told you that None means zero was wrong; None means no recorded path.",
    ),
    (
        "trainable-vs-all-variables",
        "Contrary to what the names suggest, the two lists are different: model.variables adds the non-trainable ones.",
    ),
    (
        "trainable-vs-all-variables",
        "I used to think model.variables and trainable_variables were identical, but BatchNorm's moving statistics are only in the first.",
    ),
    (
        "trainable-vs-all-variables",
        "Don't pass model.variables to apply_gradients; the BatchNorm statistics are not meant for the optimizer.",
    ),
    (
        "trainable-vs-all-variables",
        "The claim that BatchNorm statistics get gradients is false: they are updated by assignment.",
    ),
    (
        "higher-order-derivatives",
        "Contrary to popular belief, nested tapes don't need persistent=True.",
    ),
    (
        "higher-order-derivatives",
        "I used to think calling gradient twice on one tape gave the second derivative, but you need an outer tape.",
    ),
    (
        "higher-order-derivatives",
        "The idea that a tape can only do first derivatives is wrong; nest them.",
    ),
    (
        "higher-order-derivatives",
        "Don't compute the inner gradient after the outer block closes; do it inside.",
    ),
    (
        "numpy-inside-tape",
        "Contrary to what you might expect, NumPy inside the tape raises no error; the gradient just comes back None.",
    ),
    (
        "numpy-inside-tape",
        "The claim that the tape records NumPy is false; it sees only TensorFlow ops.",
    ),
    (
        "numpy-inside-tape",
        "I used to think NumPy gave zero gradients, but the affected variables get None.",
    ),
    ("numpy-inside-tape", "Don't expect tape.watch on the converted array to restore the history."),
    ("training-flag", "Contrary to popular belief, training=True does not enable gradients."),
    (
        "training-flag",
        "I used to think the tape switched layers to training mode by itself, but you must pass training=True.",
    ),
    (
        "training-flag",
        "The claim that BatchNorm ignores the flag is false: it switches between batch and moving statistics.",
    ),
    (
        "training-flag",
        "Don't expect an error if you forget the flag; the model silently runs in inference mode.",
    ),
    (
        "tf-function-speedup",
        "Contrary to popular belief, tf.function is not XLA unless you set jit_compile=True.",
    ),
    (
        "tf-function-speedup",
        "I used to think big models gained the most, but small ops gain more since Python overhead dominates there.",
    ),
    (
        "tf-function-speedup",
        "The claim that tf.function moves work to the GPU is false; eager already uses it.",
    ),
    (
        "gradient-accumulation",
        "Contrary to popular belief, TensorFlow does not accumulate gradients for you.",
    ),
    (
        "gradient-accumulation",
        "I used to think the optimizer cleared the accumulators, but you reset them yourself.",
    ),
    (
        "gradient-accumulation",
        "The claim that the tape accumulates gradients across micro-batches is false.",
    ),
    ("gradient-accumulation", "Don't apply after every micro-batch; apply once after the last."),
    (
        "no-zero-grad",
        "Gradients in TF don't stick around, so a zero_grad call would have nothing to clear.",
    ),
    (
        "no-zero-grad",
        "Resetting gradients each step? That's PyTorch. TensorFlow returns them fresh.",
    ),
    (
        "no-zero-grad",
        "My PyTorch reflex was to zero the grads, which turned out to be pointless in TensorFlow.",
    ),
    ("no-zero-grad", "There isn't any gradient buffer on a tf.Variable that would need clearing."),
    (
        "gradient-vs-apply",
        "Nothing about tape.gradient touches model state; the update happens in apply_gradients.",
    ),
    (
        "gradient-vs-apply",
        "Many assume tape.gradient already steps the weights. It doesn't; it's a pure computation.",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients never differentiates anything; it only consumes (gradient, variable) pairs.",
    ),
    ("gradient-vs-apply", "You won't see the weights move after tape.gradient alone."),
    (
        "persistent-tape",
        "Persistence isn't the default, which is why the second tape.gradient call throws.",
    ),
    (
        "persistent-tape",
        "Leaving a persistent tape alive isn't harmless: its recorded tensors stay in memory.",
    ),
    (
        "persistent-tape",
        "A persistent tape won't carry over to the next training step; you make a new one each time.",
    ),
    ("why-none-gradients", "Calling tape.watch on a tf.Variable that is trainable is redundant."),
    (
        "why-none-gradients",
        "Many think None gradients mean a zero gradient, but None means the tape saw no path.",
    ),
    (
        "why-none-gradients",
        "Watching the loss after the fact cannot help, since the forward pass was never recorded.",
    ),
    ("why-none-gradients", "No compile() call is involved in computing gradients with a tape."),
    (
        "trainable-vs-all-variables",
        "The two lists aren't interchangeable once BatchNorm is in the model.",
    ),
    (
        "trainable-vs-all-variables",
        "Nobody should hand the BatchNorm moving statistics to the optimizer.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables won't list the optimizer's Adam slots; those live in the optimizer.",
    ),
    (
        "higher-order-derivatives",
        "A single tape can't give you the second derivative by calling gradient again.",
    ),
    (
        "higher-order-derivatives",
        "Many think persistent=True is what enables higher-order derivatives; nesting is what does.",
    ),
    (
        "higher-order-derivatives",
        "There's no hessian() on GradientTape, so you nest tapes instead.",
    ),
    (
        "numpy-inside-tape",
        "Many expect an exception when NumPy runs inside the tape; nothing is raised, the path just breaks.",
    ),
    ("numpy-inside-tape", "The tape has no idea what np.exp did to the array."),
    (
        "numpy-inside-tape",
        "Only the variables upstream of the conversion lose their gradients, not all of them.",
    ),
    (
        "training-flag",
        "Many believe training=True switches on gradient tracking, but it only changes layer behaviour.",
    ),
    ("training-flag", "Forgetting training=True won't crash anything; dropout just stays off."),
    (
        "training-flag",
        "BatchNorm never updates its moving averages when called with training=False.",
    ),
    (
        "tf-function-speedup",
        "Many assume the biggest models benefit most from tf.function; it's the small, op-heavy steps.",
    ),
    ("tf-function-speedup", "Tracing the step doesn't turn on XLA by itself."),
    ("gradient-accumulation", "Nothing in TensorFlow sums the micro-batch gradients for you."),
    (
        "gradient-accumulation",
        "Many expect the optimizer to zero the accumulators after applying; it doesn't, you assign zeros yourself.",
    ),
    (
        "gradient-accumulation",
        "Calling apply_gradients inside the micro-batch loop defeats the purpose of accumulating.",
    ),
]

STATED = [
    ("no-zero-grad", "You have to zero the gradients before every step in TensorFlow too."),
    ("no-zero-grad", "Like PyTorch, TensorFlow needs a zero_grad call each step."),
    (
        "no-zero-grad",
        "It's true that the tape keeps the old gradients, so you reset them each step.",
    ),
    ("no-zero-grad", "I would say the optimizer clears the gradients after applying them."),
    (
        "no-zero-grad",
        "Should you clear the gradients? Yes, they accumulate on the variables between steps.",
    ),
    ("gradient-vs-apply", "tape.gradient updates the weights; apply_gradients just logs the step."),
    ("gradient-vs-apply", "apply_gradients computes the gradients from the loss and applies them."),
    (
        "gradient-vs-apply",
        "Like loss.backward() in PyTorch, tape.gradient stores the gradients on the variables.",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients returns the new weights, which you assign back to the model.",
    ),
    (
        "persistent-tape",
        "A tape is persistent by default, so you can call gradient as often as you like.",
    ),
    ("persistent-tape", "A persistent tape is free; it costs no extra memory."),
    ("persistent-tape", "You release a persistent tape with tape.close()."),
    (
        "why-none-gradients",
        "You have to call tape.watch on trainable variables or they are not recorded.",
    ),
    ("why-none-gradients", "Every variable must be watched by hand."),
    ("why-none-gradients", "Watching the loss with tape.watch fixes the None gradients."),
    ("why-none-gradients", "A None gradient just means the gradient is zero."),
    (
        "trainable-vs-all-variables",
        "model.variables is the same list as model.trainable_variables.",
    ),
    (
        "trainable-vs-all-variables",
        "You can pass model.variables to tape.gradient; it's the same thing.",
    ),
    ("trainable-vs-all-variables", "model.variables also includes the optimizer's slot variables."),
    ("trainable-vs-all-variables", "The only difference between the lists is the frozen layers."),
    ("higher-order-derivatives", "You need persistent=True for a second derivative."),
    (
        "higher-order-derivatives",
        "Calling gradient twice on the same tape gives the second derivative.",
    ),
    ("higher-order-derivatives", "A tape can only do first-order derivatives."),
    ("higher-order-derivatives", "You can compute the inner gradient after the outer tape closes."),
    ("higher-order-derivatives", "tape.gradient takes an order argument for higher derivatives."),
    ("numpy-inside-tape", "The tape records NumPy operations like any other."),
    ("numpy-inside-tape", "NumPy code inside the tape raises an error."),
    ("numpy-inside-tape", "Watching the NumPy result with tape.watch reconnects the history."),
    ("training-flag", "The tape detects training mode by itself, so you can leave the flag out."),
    ("training-flag", "Without training=True the model raises an error."),
    ("training-flag", "The optimizer updates BatchNorm's moving statistics."),
    ("tf-function-speedup", "tf.function moves the computation to the GPU."),
    ("tf-function-speedup", "tf.function is XLA compilation by default."),
    ("tf-function-speedup", "Big models gain the most from tf.function."),
    ("tf-function-speedup", "The graph caches the gradients between steps."),
    ("tf-function-speedup", "Passing Python scalars avoids retracing."),
    ("gradient-accumulation", "TensorFlow accumulates the gradients for you across micro-batches."),
    ("gradient-accumulation", "You apply the gradients after every micro-batch."),
    ("gradient-accumulation", "The tape accumulates gradients across calls."),
    ("gradient-accumulation", "The optimizer divides by the batch size for you, so you just sum."),
    ("gradient-accumulation", "steps_per_execution accumulates gradients."),
    ("no-zero-grad", "Contrary to popular belief, TensorFlow needs zero_grad too."),
    ("gradient-vs-apply", "I now know tape.gradient updates the weights directly."),
    ("why-none-gradients", "The claim that you must watch trainable variables is true."),
    ("why-none-gradients", "You need tape.watch on every trainable variable."),
    ("trainable-vs-all-variables", "model.variables and trainable_variables are identical lists."),
    ("higher-order-derivatives", "Nested tapes need persistent=True."),
    ("numpy-inside-tape", "NumPy inside the tape raises an error."),
    ("training-flag", "training=True enables gradient recording."),
    ("gradient-accumulation", "TensorFlow accumulates gradients automatically."),
    ("why-none-gradients", "Trainable variables need tape.watch."),
    (
        "higher-order-derivatives",
        "Calling gradient again on the same tape gives the second derivative.",
    ),
    ("numpy-inside-tape", "NumPy inside the tape throws an exception."),
    ("training-flag", "training=True switches on gradient tracking."),
    ("tf-function-speedup", "The biggest models benefit most from tf.function."),
]


@pytest.mark.parametrize(("qid", "text"), TRUE_STATEMENTS)
def test_a_true_statement_names_no_tell(qid: str, text: str) -> None:
    assert grade_freetext(question(qid), text, neighbours=False).misconceptions == []


@pytest.mark.parametrize(("qid", "text"), STATED)
def test_a_stated_misconception_stays_named(qid: str, text: str) -> None:
    assert grade_freetext(question(qid), text, neighbours=False).misconceptions != []


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        # a belief reported as false, before or around the claim
        ("A common misconception is that the loss is computed outside the tape.", False),
        ("It's a mistake to think the loss is computed outside the tape.", False),
        ("I used to think the loss is computed outside the tape.", False),
        ("The claim that the loss is computed outside the tape is false.", False),
        ("The idea that the loss is computed outside the tape is a myth; it is inside.", False),
        # a diagnosis is no reported belief; an idea not judged false is no report
        ("The mistake is that the loss is computed outside the tape.", True),
        ("The idea that the loss is computed outside the tape explains the None.", True),
        # "neither ... nor" denies once
        ("Neither the model nor the loss is computed outside the tape.", False),
        ("Not only the loss is computed outside the tape, the model is too.", True),
    ],
)
def test_reads_reports_and_denials(text: str, stated: bool) -> None:
    assert affirms(text, "loss ~ (is )?computed ~ outside") is stated


@pytest.mark.parametrize(
    ("text", "consequence", "hypothetical"),
    [
        # a premise about TensorFlow that the speaker holds false: a world that is not
        ("If gradients piled up on the variables, you'd need zero_grad.", "need zero_grad", True),
        # a premise that is the user's action, or leaves something out, or is denied:
        # the consequence is what the speaker believes TensorFlow does
        (
            "If you passed model.variables, the statistics would get gradients.",
            "get gradients",
            False,
        ),
        ("If the reset was skipped, the gradients would pile up.", "pile up", False),
        ("If the tape didn't record them, the gradients would be None.", "be None", False),
        # an open condition is no counterfactual
        ("If the loss is outside the tape, you get None.", "get None", False),
    ],
)
def test_reads_the_consequence_of_a_counterfactual(
    text: str, consequence: str, hypothetical: bool
) -> None:
    start = text.index(consequence)
    assert (
        in_counterfactual_consequence(mask(text), start, start + len(consequence)) is hypothetical
    )


def test_a_counterfactual_consequence_of_a_false_premise_names_no_tell() -> None:
    text = "If gradients piled up on the variables, you'd need a zero_grad, but they never do."
    assert grade_freetext(question("no-zero-grad"), text, neighbours=False).misconceptions == []


def test_a_semicolon_ends_a_denied_clause_not_a_plain_one() -> None:
    pattern = "tape ~ records ~ ops ~ (graph|tape)"
    assert not affirms("The tape does not record the ops; the graph does.", pattern)
    assert affirms("The tape records the ops; it builds the graph from them.", pattern)
    # round 14: a clause with its own subject and a copula is a statement of its own
    assert not affirms("The tape records the ops; the graph is built later.", pattern)


def test_a_verdict_after_a_qualifying_phrase_denies_the_match() -> None:
    assert not affirms(
        "Watching the loss with tape.watch does not fix None.", "watch\\w* ~ (the )?loss"
    )
    assert affirms(
        "Watching the loss with tape.watch is what people try.", "watch\\w* ~ (the )?loss"
    )


def test_punctuation_after_a_gap_does_not_hide_the_denial() -> None:
    pattern = "(persistent|it) ~ (has|is) ~ (free|cheap)\\b ~ (memory|cost)?"
    assert not affirms("A persistent tape is not free: it holds its recording.", pattern)
    assert affirms("A persistent tape is free: it holds nothing.", pattern)


def test_a_counterfactual_read_in_the_lemma_twin_keeps_its_past_tense() -> None:
    text = "If tape.gradient updated the weights, apply_gradients would have nothing left to do."
    assert (
        grade_freetext(question("gradient-vs-apply"), text, neighbours=False).misconceptions == []
    )


WATCH_DENIALS = [
    "You don't have to call tape.watch on trainable variables; the tape watches them automatically.",
    "You do not need tape.watch for the weights; the loss was computed outside the tape.",
]
WATCH_CLAIMS = [
    "Variables are not watched automatically, you need tape.watch on them.",
    "You need to call tape.watch on the model variables or the gradients are None.",
]


@pytest.mark.parametrize("text", WATCH_DENIALS)
def test_saying_variables_need_no_watch_names_no_tell(text: str) -> None:
    result = grade_freetext(question("why-none-gradients"), text, neighbours=False)
    assert result.misconceptions == []


@pytest.mark.parametrize("text", WATCH_CLAIMS)
def test_saying_variables_need_a_watch_is_still_named(text: str) -> None:
    result = grade_freetext(question("why-none-gradients"), text, neighbours=False)
    assert result.misconceptions == ["must-watch-variables"]
