# ruff: noqa: E501 - one answer per line
"""Round 9 (issue 14): answers written by engineer V before any round-9 tuning, in
candidates' voices, each graded as an interviewer would grade it clearly - correct in other
words, partial missing one key part, incorrect with the right keywords. Three per question
and verdict; the third of each (held=True) was kept untouched until the end of the round.
Data only: test_freetext_round9_verdicts.py reads it."""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    question: str
    verdict: str
    answer: str
    held: bool = False


CASES: list[Case] = [
    # gradient-accumulation
    Case(
        "gradient-accumulation",
        "correct",
        "TF won't sum gradients across calls for you, so I keep a list of tf.Variables, zero-initialised and shaped like each trainable weight. Each of the four chunks runs under its own tape; I take its gradients and assign_add them into the matching variable. When the fourth chunk is done I divide every running sum by 4, hand the averages to apply_gradients in one call, and then set the sums back to zero for the next 256.",
    ),
    Case(
        "gradient-accumulation",
        "correct",
        "Keep a running total per weight, starting from zeros. For every micro-batch of 64: forward pass in a tape, gradients, add them to the running totals. After four of them, average (divide by 4) and do a single optimizer.apply_gradients with those averages, then zero the totals again so the next big batch starts clean.",
    ),
    Case(
        "gradient-accumulation",
        "correct",
        "Make zero-filled accumulator variables matching model.trainable_variables. Loop over the 4 micro-batches; in each, record the loss with a GradientTape, get the grads and accumulate them with assign_add. Once all 4 are in, apply the mean of the accumulated grads (sum / 4) with one apply_gradients call, and clear the accumulators afterwards.",
        held=True,
    ),
    Case(
        "gradient-accumulation",
        "partial",
        "I create zero accumulators for each trainable variable, add each micro-batch's gradients into them, and after the fourth micro-batch call apply_gradients once with the accumulated sums, then reset them to zero.",
    ),
    Case(
        "gradient-accumulation",
        "partial",
        "You keep a sum of the gradients: each micro-batch gets its own tape, you compute the gradients and add them to the sum. Then you apply it.",
    ),
    Case(
        "gradient-accumulation",
        "partial",
        "Compute gradients for each of the 4 micro-batches with a tape and add them up in a list of accumulators; after the 4th, call apply_gradients once. Don't forget to zero the accumulators afterwards.",
        held=True,
    ),
    Case(
        "gradient-accumulation",
        "incorrect",
        "Use one persistent GradientTape across all four micro-batches; it accumulates the gradients internally, so after the fourth you call tape.gradient once and apply_gradients with the result.",
    ),
    Case(
        "gradient-accumulation",
        "incorrect",
        "Compute the gradients for each micro-batch and call apply_gradients after each one with the learning rate divided by 4; four small steps add up to the same as one big step.",
    ),
    Case(
        "gradient-accumulation",
        "incorrect",
        "Just skip resetting: TensorFlow adds each new tape.gradient result onto the variables' stored gradients, so after four micro-batches you call apply_gradients and it uses the accumulated sum.",
        held=True,
    ),
    # gradient-vs-apply
    Case(
        "gradient-vs-apply",
        "correct",
        "tape.gradient does the backward pass: it goes back over what the tape recorded and returns d(loss)/d(var) for each variable you passed - it's read-only, no variable changes. apply_gradients takes the (gradient, variable) pairs and runs the optimizer's update (learning rate, momentum, Adam state) and writes the new values into the variables. So apply_gradients is the one that changes the weights.",
    ),
    Case(
        "gradient-vs-apply",
        "correct",
        "The first just calculates the derivatives of the loss w.r.t. the variables via reverse-mode autodiff and gives them back as a list; the weights are untouched. The second is the optimizer step: it uses those gradients to modify the variables in place according to its rule (SGD, Adam...). Only the optimizer call changes the model.",
    ),
    Case(
        "gradient-vs-apply",
        "correct",
        "gradient: backprop through the recorded ops, returns one gradient tensor per variable, changes nothing. apply_gradients: takes zip(grads, vars), does the update w -= lr * g (or Adam's version) on each variable and bumps optimizer.iterations. Weights change only in apply_gradients.",
        held=True,
    ),
    Case("gradient-vs-apply", "partial", "apply_gradients is the one that changes the weights."),
    Case(
        "gradient-vs-apply",
        "partial",
        "tape.gradient computes the gradients of the loss with respect to the variables and returns them. apply_gradients then uses them.",
    ),
    Case(
        "gradient-vs-apply",
        "partial",
        "tape.gradient returns the list of gradients, one per variable, by going backwards through the tape. I'm not sure what apply_gradients does exactly beyond using them.",
        held=True,
    ),
    Case(
        "gradient-vs-apply",
        "incorrect",
        "tape.gradient computes the gradients and immediately updates the weights with them; apply_gradients is just there to log the step and increment the counter.",
    ),
    Case(
        "gradient-vs-apply",
        "incorrect",
        "apply_gradients computes the gradients from the loss, and tape.gradient only reads the values stored during the forward pass. The weights change when the tape block exits.",
    ),
    Case(
        "gradient-vs-apply",
        "incorrect",
        "tape.gradient stores each gradient on its variable, like .grad in PyTorch, and apply_gradients returns the new weights, which you then assign back to the model yourself.",
        held=True,
    ),
    # higher-order-derivatives
    Case(
        "higher-order-derivatives",
        "correct",
        "You put one GradientTape inside another. Compute y inside the inner tape, and - while you're still inside the outer tape's with block - get dy_dx = inner.gradient(y, x). Because computing that gradient is just more TensorFlow ops, the outer tape records them, so outer.gradient(dy_dx, x) after that gives you d2y/dx2. If x is a tf.constant you need to watch it in both tapes.",
    ),
    Case(
        "higher-order-derivatives",
        "correct",
        "Two nested tapes. The inner one records y = f(x); the first derivative is taken inside the outer block, so the outer tape sees the operations that produce dy/dx as part of its recording. Then differentiate dy/dx with the outer tape to get the second derivative. It works because the gradient computation is itself differentiable ops that the outer tape traced.",
    ),
    Case(
        "higher-order-derivatives",
        "correct",
        "with tf.GradientTape() as t2: with tf.GradientTape() as t1: y = f(x); then, still under t2, dy = t1.gradient(y, x); and after the block d2y = t2.gradient(dy, x). The outer tape is recording when t1.gradient runs, so it captures those ops and can differentiate them again. Watch x on both tapes if it isn't a Variable.",
        held=True,
    ),
    Case(
        "higher-order-derivatives",
        "partial",
        "Nest two GradientTapes: compute y inside the inner tape, take inner.gradient(y, x) inside the outer block, then outer.gradient of that result gives the second derivative.",
    ),
    Case(
        "higher-order-derivatives",
        "partial",
        "Use two tapes, nested, and call gradient twice - once on each tape.",
    ),
    Case(
        "higher-order-derivatives",
        "partial",
        "You need two tapes, one inside the other, and you take the gradient of the gradient.",
        held=True,
    ),
    Case(
        "higher-order-derivatives",
        "incorrect",
        "Use one persistent tape: compute y, call tape.gradient(y, x) to get dy/dx, then call tape.gradient(dy_dx, x) on the same tape for the second derivative. Persistent is what makes the second-order gradient possible.",
    ),
    Case(
        "higher-order-derivatives",
        "incorrect",
        "Nest two tapes, but take the first gradient after the outer with block has closed; the outer tape stored the values of y, so outer.gradient(dy_dx, x) then gives d2y/dx2.",
    ),
    Case(
        "higher-order-derivatives",
        "incorrect",
        "Nest the tapes: the outer tape computes the first derivative dy/dx and the inner tape then differentiates it again to get the second derivative, since the inner one is the last to record.",
        held=True,
    ),
    # no-zero-grad
    Case(
        "no-zero-grad",
        "correct",
        "You don't call it anywhere - TensorFlow has no zero_grad. tape.gradient hands back a brand-new list of gradient tensors each step; nothing is stored on the variables, and apply_gradients uses that list right away. Next step you get a new list, so there's nothing to clear. PyTorch needs it because backward() adds into .grad.",
    ),
    Case(
        "no-zero-grad",
        "correct",
        "Tell them there's no equivalent and it isn't needed: gradients in TF are just the return value of tape.gradient, computed fresh for this step from this tape, and they're passed straight to apply_gradients. Nothing accumulates between steps the way .grad does in PyTorch.",
    ),
    Case(
        "no-zero-grad",
        "correct",
        "Nowhere. In TF the gradients aren't kept on the parameters - each call to tape.gradient returns new tensors for just this batch, the optimizer consumes them, and they're gone. So there's no leftover state to zero.",
        held=True,
    ),
    Case("no-zero-grad", "partial", "There is no zero_grad in TensorFlow, you just don't call it."),
    Case(
        "no-zero-grad",
        "partial",
        "TensorFlow doesn't have zero_grad. In PyTorch gradients accumulate in .grad, which is why you need it there.",
    ),
    Case(
        "no-zero-grad",
        "partial",
        "You don't need it in TF; the optimizer works differently from PyTorch's.",
        held=True,
    ),
    Case(
        "no-zero-grad",
        "incorrect",
        "Call optimizer.zero_grad() right after apply_gradients at the end of every step, otherwise the gradients from the tape accumulate into the next step.",
    ),
    Case(
        "no-zero-grad",
        "incorrect",
        "TensorFlow has no zero_grad because apply_gradients clears the gradients automatically after using them, so they get zeroed for you each step.",
    ),
    Case(
        "no-zero-grad",
        "incorrect",
        "There's no zero_grad since the tape stores the gradients and they're wiped when the tape is deleted at the end of the with block, so each step starts at zero.",
        held=True,
    ),
    # numpy-inside-tape
    Case(
        "numpy-inside-tape",
        "correct",
        "The tape only records TensorFlow ops, so once h goes through .numpy() the NumPy maths is invisible to it. The result comes back as a fresh constant with no history, so everything before that point - the earlier layers' variables - gets None gradients and quietly stops learning, while the later layers still train. No error. Use tf ops instead of NumPy.",
    ),
    Case(
        "numpy-inside-tape",
        "correct",
        "The .numpy() call cuts the tape's recording: NumPy work isn't tracked, so there's no path back from the loss to the variables upstream of h. Those get None as their gradient and never update, silently. Keep the maths in tf.math so it stays differentiable.",
    ),
    Case(
        "numpy-inside-tape",
        "correct",
        "Gradients for all layers before the conversion come back None: the tape can't see NumPy operations, so the link from the loss to those weights is lost. Nothing crashes; the early layers just stop training. Rewrite the NumPy part with TensorFlow ops.",
        held=True,
    ),
    Case(
        "numpy-inside-tape",
        "partial",
        "The tape doesn't record NumPy operations, so you should use TensorFlow ops instead.",
    ),
    Case(
        "numpy-inside-tape", "partial", "The earlier layers get None gradients and stop training."
    ),
    Case(
        "numpy-inside-tape",
        "partial",
        "Because NumPy isn't tracked by GradientTape, the gradient is broken at that point.",
        held=True,
    ),
    Case(
        "numpy-inside-tape",
        "incorrect",
        "The tape records the NumPy operations too, so the gradients flow through normally; nothing special happens.",
    ),
    Case(
        "numpy-inside-tape",
        "incorrect",
        "The gradient is lost for the layers after the NumPy conversion, while the earlier layers are fine, because the tape stops recording at .numpy().",
    ),
    Case(
        "numpy-inside-tape",
        "incorrect",
        "All the gradients become zeros because TensorFlow treats the NumPy part as a constant, so the model trains but nothing changes.",
        held=True,
    ),
    # persistent-tape
    Case(
        "persistent-tape",
        "correct",
        "A regular tape drops its recorded operations as soon as you call gradient once, so the second call has nothing left and raises. Create it as tf.GradientTape(persistent=True) so it keeps the recording for both gradient calls, and when you've got both, del the tape to free the memory it's holding.",
    ),
    Case(
        "persistent-tape",
        "correct",
        "By default the tape is single-use: after the first gradient() it releases its resources. Use persistent=True to call gradient several times on the same recording, then delete the tape (del tape) once done, because a persistent tape holds its intermediate tensors until it's garbage-collected.",
    ),
    Case(
        "persistent-tape",
        "correct",
        "The first tape.gradient call frees the tape's stored forward pass, that's why the second one errors. Pass persistent=True when you open the tape, compute both gradients, and afterwards drop the reference with del tape so the buffers are released.",
        held=True,
    ),
    Case(
        "persistent-tape",
        "partial",
        "The tape is freed after the first gradient call. Use tf.GradientTape(persistent=True) and you can call gradient twice.",
    ),
    Case(
        "persistent-tape",
        "partial",
        "Make the tape persistent=True and delete it with del tape when you're done.",
    ),
    Case(
        "persistent-tape",
        "partial",
        "The second call fails because a normal tape can only compute gradients once; after that its recording is gone.",
        held=True,
    ),
    Case(
        "persistent-tape",
        "incorrect",
        "The second call fails because the first gradient call consumed the loss tensor. Just run the forward pass again before the second gradient; tapes are persistent by default anyway.",
    ),
    Case(
        "persistent-tape",
        "incorrect",
        "Call tape.reset() between the two gradient calls so the default tape can be used again, then close it with tape.close() at the end.",
    ),
    Case(
        "persistent-tape",
        "incorrect",
        "The RuntimeError is because you called gradient inside the with block. Move both calls after the block and it works; nothing to clean up afterwards.",
        held=True,
    ),
    # tf-function-speedup
    Case(
        "tf-function-speedup",
        "correct",
        "Eagerly, every op goes back through Python one at a time. tf.function traces the step once into a graph and runs that graph, so the per-operation Python overhead goes away (and TF can fuse and prune ops). That matters most for small models with many tiny ops, where overhead dominates; big models are bound by heavy matmuls so they gain relatively little.",
    ),
    Case(
        "tf-function-speedup",
        "correct",
        "It turns the Python function into a TensorFlow graph on the first call and reuses it, so you stop paying the interpreter cost per op. The biggest wins are small networks / lots of cheap ops, where that dispatch overhead is most of the step time; for a large conv net the GPU kernels dominate and the gain is small.",
    ),
    Case(
        "tf-function-speedup",
        "correct",
        "Graph mode: the step is traced once and executed as a graph instead of op-by-op from Python, removing dispatch overhead. Largest speedup for small models where Python overhead is a big fraction of each step.",
        held=True,
    ),
    Case(
        "tf-function-speedup",
        "partial",
        "tf.function traces the step into a graph, so Python doesn't dispatch every operation one by one and that overhead disappears.",
    ),
    Case(
        "tf-function-speedup",
        "partial",
        "It helps most with small models where each step is made of many tiny operations.",
    ),
    Case(
        "tf-function-speedup",
        "partial",
        "It compiles the training step into a static graph that TensorFlow can optimise, so the step runs faster.",
        held=True,
    ),
    Case(
        "tf-function-speedup",
        "incorrect",
        "tf.function moves the computation to the GPU and compiles it with XLA, so the biggest models gain the most since they have the most work to accelerate.",
    ),
    Case(
        "tf-function-speedup",
        "incorrect",
        "It caches the gradients after the first step so later steps don't need a backward pass; large batch sizes gain the most.",
    ),
    Case(
        "tf-function-speedup",
        "incorrect",
        "tf.function builds a graph, and the speedup is largest for big models, because graph optimisations matter more when there are huge matrix multiplications.",
        held=True,
    ),
    # trainable-vs-all-variables
    Case(
        "trainable-vs-all-variables",
        "correct",
        "model.variables also holds non-trainable state, like BatchNorm's moving mean and variance, which the layer updates itself during the forward pass - it's not learned by gradient descent, so the optimizer must not touch it. trainable_variables is exactly what the optimizer should update, and the grads come back in the same order so zip pairs them up.",
    ),
    Case(
        "trainable-vs-all-variables",
        "correct",
        "Because variables includes things that aren't weights to be trained - non-trainable variables such as batch norm's running statistics or frozen layers. Those aren't updated by gradients and shouldn't be given to the optimizer; trainable_variables is only the learnable parameters.",
    ),
    Case(
        "trainable-vs-all-variables",
        "correct",
        "model.variables = trainable + non-trainable (e.g. BN moving averages). The non-trainable ones aren't meant to be optimised - they're updated by the layer, not by apply_gradients - so we differentiate and apply only over trainable_variables.",
        held=True,
    ),
    Case(
        "trainable-vs-all-variables",
        "partial",
        "model.variables also contains non-trainable variables.",
    ),
    Case(
        "trainable-vs-all-variables",
        "partial",
        "Because the optimizer should only update the weights that are meant to be trained.",
    ),
    Case(
        "trainable-vs-all-variables",
        "partial",
        "trainable_variables are just the weights we want to learn; variables has more stuff in it.",
        held=True,
    ),
    Case(
        "trainable-vs-all-variables",
        "incorrect",
        "model.variables also contains the optimizer's slot variables, like Adam's moments and the iteration counter, which would get corrupted if we passed them.",
    ),
    Case(
        "trainable-vs-all-variables",
        "incorrect",
        "They're actually the same list in most models; trainable_variables is just the conventional name, passing model.variables works equally well.",
    ),
    Case(
        "trainable-vs-all-variables",
        "incorrect",
        "model.variables includes the layer activations and cached inputs from the forward pass, and asking for gradients on those raises an error.",
        held=True,
    ),
    # training-flag
    Case(
        "training-flag",
        "correct",
        "It switches layers that act differently in training, like Dropout and BatchNorm, to training mode: dropout actually drops units, and batch norm normalises with the batch's own statistics and updates its moving averages. Leave it out and the forward pass inside the tape runs in inference mode - no dropout, BN uses its stored stats and never updates them - so you're silently training a different model than you meant.",
    ),
    Case(
        "training-flag",
        "correct",
        "training=True makes dropout active and makes BatchNorm use the current batch mean/variance (and update the running averages). Without it those layers behave as at inference time during training: no regularisation from dropout, frozen BN statistics. Nothing errors, the gradients still flow, but the model you train isn't the one you intended and usually does worse.",
    ),
    Case(
        "training-flag",
        "correct",
        "The flag selects training behaviour: Dropout drops activations only when training=True, and BatchNormalization normalises with batch statistics and updates its moving mean/variance only then. If you omit it, both run in inference mode while you train, so the model trains without dropout and with stale BN stats - a quiet bug that hurts accuracy.",
        held=True,
    ),
    Case(
        "training-flag",
        "partial",
        "It turns on dropout during training; without it dropout is off.",
    ),
    Case(
        "training-flag",
        "partial",
        "Dropout and BatchNorm behave differently in training mode, and this flag picks the training behaviour.",
    ),
    Case(
        "training-flag",
        "partial",
        "BatchNorm uses the batch statistics when training=True and the moving averages otherwise. If you forget it the model trains differently than intended.",
        held=True,
    ),
    Case(
        "training-flag",
        "incorrect",
        "training=True tells the tape to record gradients; without it the tape doesn't track the forward pass and you get None gradients.",
    ),
    Case(
        "training-flag",
        "incorrect",
        "It tells the optimizer that it's the training step so it updates the weights; if you leave it out, dropout and batchnorm are fine because Keras sets training=True automatically inside a GradientTape.",
    ),
    Case(
        "training-flag",
        "incorrect",
        "Leaving it out raises an error, since dropout and batchnorm layers require the training flag to know the learning phase.",
        held=True,
    ),
    # why-none-gradients
    Case(
        "why-none-gradients",
        "correct",
        "Most likely the forward pass or the loss was computed after the with tf.GradientTape() block closed. The tape only records operations while it's open, so there's no recorded path from the loss to the weights and gradient returns None for all of them. Fix: compute the predictions and the loss inside the with block, then call tape.gradient.",
    ),
    Case(
        "why-none-gradients",
        "correct",
        "The loss was calculated outside the tape context. Since the tape didn't see those ops, the loss isn't connected to anything it recorded, hence None. Move the model call and the loss computation under the with.",
    ),
    Case(
        "why-none-gradients",
        "correct",
        "Usually the model call and loss sit below the with block instead of inside it. Only ops executed while the tape is active get recorded, so the loss has no link back to the variables and every gradient is None. Indent the forward pass and loss into the block.",
        held=True,
    ),
    Case(
        "why-none-gradients",
        "partial",
        "You probably computed the loss outside the tape. Move it inside.",
    ),
    Case(
        "why-none-gradients",
        "partial",
        "The tape didn't record the operations that produced the loss, so there's no connection between the loss and the variables.",
    ),
    Case(
        "why-none-gradients",
        "partial",
        "Something in the loss isn't a TensorFlow op, like NumPy, so the gradient path is broken. Use tf ops.",
        held=True,
    ),
    Case(
        "why-none-gradients",
        "incorrect",
        "You need to call tape.watch on the model's variables; trainable variables aren't watched automatically, so the loss isn't connected and you get None.",
    ),
    Case(
        "why-none-gradients",
        "incorrect",
        "Gradients are None until the optimizer has run apply_gradients once, and the model must be compiled before tape.gradient works. Call model.compile first.",
    ),
    Case(
        "why-none-gradients",
        "incorrect",
        "Calling tape.gradient inside the with block is the problem - it gives None there. Move the gradient call outside the block and it'll work.",
        held=True,
    ),
]
