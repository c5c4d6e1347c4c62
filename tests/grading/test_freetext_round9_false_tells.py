"""Round 9 (issue 14): true statements the rules read as a misconception, from the shapes of
the false tells on tune answers labelled correct.

Written before any round-9 fix (docs/freetext-rounds.md "Round 9: false tells on correct
answers"): 64 true statements in candidates' voices about the ten core questions and 33
misconceptions in the same shapes. TRUE_TUNED (42) and the first 19 of STATED were read
while fixing; TRUE_CHECK (20) with the check's two misses and the last 9 of STATED were run only
once, at the end, as the untouched check (before: 7 of the 22 true statements named a
tell, after: 2 - the check's misses, left for a later round, read right since rounds 21 and 29
and now the last two of TRUE_CHECK; the 9 stayed named). Five written misconceptions no rule
named before this round are listed in NOT_NAMED for the content engineer, not tested.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

TRUE_TUNED = [
    (
        "persistent-tape",
        "Make it persistent=True so both gradient calls work; don't hold on to it longer than needed, del tape right after.",
    ),
    (
        "persistent-tape",
        "I wouldn't make every tape persistent, it just eats memory for no reason.",
    ),
    (
        "persistent-tape",
        "A plain tape frees what it recorded after one gradient call, so the second one raises; open it with persistent=True and delete it when both gradients are out.",
    ),
    (
        "persistent-tape",
        "By default the tape drops everything it held as soon as gradient() returns, so call two has nothing left and throws.",
    ),
    (
        "persistent-tape",
        "You could also just stack both losses into a list target, but that sums them, so for separate gradients use persistent=True and del the tape after.",
    ),
    (
        "higher-order-derivatives",
        "If you take the inner gradient after the outer with-block has closed I believe you'd just get None for d2y/dx2.",
    ),
    (
        "higher-order-derivatives",
        "If the first derivative is computed outside the outer tape, the outer tape never sees it and returns None.",
    ),
    (
        "higher-order-derivatives",
        "The inner gradient is taken inside the outer block, so after the outer block you call outer.gradient(dy_dx, x) and get the second derivative.",
    ),
    (
        "higher-order-derivatives",
        "Outer tape watches x (automatic for a tf.Variable, otherwise outer.watch(x)), inner tape too, then nest them.",
    ),
    (
        "higher-order-derivatives",
        "Nest the tapes: y inside the inner one, inner.gradient(y, x) while the outer is still recording, and outer.gradient of that result afterwards.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient works out how much the loss changes when each weight changes a little; it returns tensors and touches nothing.",
    ),
    (
        "gradient-vs-apply",
        "The gradient call tells you how much each variable would change the loss, nothing more; apply_gradients is what writes the new values.",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients is what updates the weights, for plain SGD it's basically var.assign_sub(lr * g).",
    ),
    (
        "gradient-vs-apply",
        "apply_gradients runs the optimizer step (plain sgd is w minus lr times g, adam keeps moment estimates on top).",
    ),
    (
        "gradient-vs-apply",
        "Adam's apply_gradients updates its moment slots - and writes the result into the variables.",
    ),
    ("gradient-vs-apply", "That's why you can clip the gradients yourself between the two calls."),
    (
        "gradient-vs-apply",
        "You can also average or clip the gradient list before handing it to apply_gradients.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient only reads the recording; apply_gradients changes the weights in place and bumps optimizer.iterations.",
    ),
    ("no-zero-grad", "no need, no zero_grad in tf since grads are not accumulated anywhere"),
    (
        "no-zero-grad",
        "Nothing to call: there's no zero_grad in TF, gradients come back as fresh tensors.",
    ),
    (
        "no-zero-grad",
        "Tell them to forget zero_grad; tape.gradient returns new tensors every step.",
    ),
    (
        "gradient-accumulation",
        "Scale each loss by 1/4 or divide the summed grads by 4, otherwise the effective learning rate is 4x.",
    ),
    (
        "gradient-accumulation",
        "the divide by 4 matters, otherwise its like your lr got four times bigger",
    ),
    (
        "gradient-accumulation",
        "Run each micro-batch under its own tape so the activations are freed after each tape.gradient, add the grads into tf.Variable accumulators, apply once, then reset them.",
    ),
    (
        "gradient-accumulation",
        "Keep the four gradient lists, average them per variable with tf.reduce_mean, and pass the averaged gradients to apply_gradients once.",
    ),
    (
        "gradient-accumulation",
        "Accumulate the gradients in tf.Variables with assign_add, divide by four, call apply_gradients once and zero the accumulators for the next round.",
    ),
    (
        "why-none-gradients",
        "For a variable with no recorded path to the loss, tape.gradient returns None rather than zero.",
    ),
    (
        "why-none-gradients",
        "You get None instead of 0 because the tape has no path from the loss back to the weights.",
    ),
    (
        "why-none-gradients",
        "Forget model.compile here: it only configures fit(), the tape doesn't care.",
    ),
    (
        "why-none-gradients",
        "Forget about compile, the cause is that the loss was computed after the with block closed.",
    ),
    (
        "trainable-vs-all-variables",
        "apply_gradients would warn about the missing gradients (or error if none of them had any).",
    ),
    (
        "trainable-vs-all-variables",
        "With model.variables, the optimizer would also create slot variables for weights it never updates, which wastes memory.",
    ),
    (
        "trainable-vs-all-variables",
        "The optimizer creates its slot variables itself; they are not part of model.variables.",
    ),
    (
        "trainable-vs-all-variables",
        "The BN moving mean and variance are non-trainable and are updated by assign ops in the forward pass, not by gradients.",
    ),
    (
        "numpy-inside-tape",
        "The layers after the conversion still learn, but every variable used to produce h gets None.",
    ),
    (
        "numpy-inside-tape",
        "Everything that led to h ends up with None gradients; the layers after it train normally.",
    ),
    (
        "numpy-inside-tape",
        "All the weights that feed into h get None, while the rest of the model keeps learning.",
    ),
    (
        "training-flag",
        "When fine-tuning, call base(x, training=False) so its BatchNorm stays in inference mode.",
    ),
    (
        "training-flag",
        "A frozen backbone's BN layers should stay in inference mode even inside the train step.",
    ),
    (
        "training-flag",
        "training=True turns dropout on and makes BatchNorm use batch statistics; without it dropout stays off and BN uses its moving averages.",
    ),
    (
        "tf-function-speedup",
        "tf.function traces the step into a graph once, so small models with many tiny ops gain the most; big matmul-bound models barely change.",
    ),
    (
        "tf-function-speedup",
        "It is not XLA unless you pass jit_compile=True; the gain comes from dropping Python overhead per op.",
    ),
]

TRUE_CHECK = [
    (
        "persistent-tape",
        "Don't keep the persistent tape around longer than you must, del it once both gradients are taken.",
    ),
    (
        "persistent-tape",
        "I'd not turn persistent on for a single loss, it only holds activations for nothing.",
    ),
    (
        "persistent-tape",
        "The second call fails because a non-persistent tape releases its resources after the first gradient; use persistent=True and del tape when done.",
    ),
    (
        "higher-order-derivatives",
        "When inner.gradient runs outside the outer tape the outer one records nothing and gives None.",
    ),
    (
        "higher-order-derivatives",
        "The first-derivative ops get recorded by the outer tape, so once outside you call outer.gradient(dy_dx, x).",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient measures how much the loss would change if a weight moved slightly; it does not update anything.",
    ),
    (
        "gradient-vs-apply",
        "For plain SGD apply_gradients boils down to w -= lr * g, other optimizers add momentum or Adam moments.",
    ),
    (
        "gradient-vs-apply",
        "You could clip the grads in between if you want, nothing does it for you.",
    ),
    (
        "no-zero-grad",
        "No need for it, no zero_grad in TensorFlow, the tape returns fresh gradients.",
    ),
    ("no-zero-grad", "Forget zero_grad: each tape.gradient call gives brand-new tensors."),
    (
        "gradient-accumulation",
        "Average the four gradients, otherwise the update is four times too large.",
    ),
    (
        "gradient-accumulation",
        "Divide the sum by 4, otherwise effectively your learning rate is multiplied by four.",
    ),
    (
        "why-none-gradients",
        "It gives None rather than a zero tensor because no recorded op links the loss to the variable.",
    ),
    (
        "why-none-gradients",
        "Forget model.compile, it has nothing to do with gradients; move the forward pass inside the tape.",
    ),
    (
        "trainable-vs-all-variables",
        "It warns about variables with no gradient and only raises if none of them got one.",
    ),
    (
        "trainable-vs-all-variables",
        "Slot variables are created by the optimizer when it first applies gradients; they live on the optimizer.",
    ),
    (
        "numpy-inside-tape",
        "All variables upstream of the conversion get None, the downstream ones still get gradients.",
    ),
    (
        "training-flag",
        "Call the pretrained base with training=False so its BatchNorm layers stay in inference mode while you fine-tune the head.",
    ),
    (
        "tf-function-speedup",
        "The graph removes per-op Python dispatch, which matters most for small models; XLA is only used with jit_compile=True.",
    ),
    (
        "trainable-vs-all-variables",
        "Pass the trainable ones because the non-trainable variables like BN statistics are not meant to get gradient updates.",
    ),
    (
        "numpy-inside-tape",
        "Every weight used to compute h gets a None gradient and silently stops learning; the later layers are fine.",
    ),
    # The untouched check's two misses, both read right now: "used to compute h" (above; the
    # tell's exclusions knew "produce" and "feed", not "compute") since round 21 (engineer C),
    # and this counterfactual whose consequence has no comma before it since round 29 (engineer
    # C9: gradient-outside-outer-tape is not read where the sentence gives the result, None).
    (
        "higher-order-derivatives",
        "If the inner gradient were taken after the outer block ends you'd get None, so keep it inside.",
    ),
]

STATED = [
    (
        "persistent-tape",
        "By default the tape keeps its recording, so the second call should work; the error comes from something else.",
    ),
    (
        "higher-order-derivatives",
        "Compute y in the inner tape, close both tapes, then take the inner gradient after the outer tape is closed and differentiate it again.",
    ),
    (
        "higher-order-derivatives",
        "x must be a tf.Variable for the second derivative to work, a watched constant won't do.",
    ),
    ("gradient-vs-apply", "tape.gradient updates the weights and apply_gradients just logs them."),
    ("gradient-vs-apply", "apply_gradients is just plain SGD whatever optimizer you chose."),
    (
        "gradient-vs-apply",
        "apply_gradients returns the new weights and you assign them to the model yourself.",
    ),
    ("gradient-vs-apply", "apply_gradients also clips the gradients by default."),
    (
        "gradient-vs-apply",
        "tape.gradient stores the gradients on the variables, like .grad in PyTorch.",
    ),
    ("no-zero-grad", "You need to call optimizer.zero_grad() after every step in TensorFlow too."),
    ("no-zero-grad", "The tape accumulates the gradients across steps, so reset it each step."),
    (
        "gradient-accumulation",
        "Just call apply_gradients after every micro-batch with the learning rate divided by 4.",
    ),
    (
        "gradient-accumulation",
        "Use one tape over all four micro-batches and the tape accumulates the gradients for you.",
    ),
    (
        "why-none-gradients",
        "You forgot to call model.compile, so tape.gradient has nothing to differentiate.",
    ),
    (
        "why-none-gradients",
        "None means the gradient is zero, the weights are already at a minimum.",
    ),
    (
        "trainable-vs-all-variables",
        "model.variables also includes the optimizer's slot variables, so you'd be updating Adam's moments.",
    ),
    (
        "numpy-inside-tape",
        "After the .numpy() call every gradient in the model is None, nothing learns at all.",
    ),
    ("numpy-inside-tape", "The tape records the NumPy operations too, so the gradients are fine."),
    ("training-flag", "training=True is a mode that sticks until you set it back."),
    ("tf-function-speedup", "tf.function is faster because it always compiles with XLA."),
    ("persistent-tape", "Persistent tapes are free, there's no memory cost, so always use them."),
    (
        "higher-order-derivatives",
        "You take the inner gradient after the outer tape has closed, then call outer.gradient on it.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient changes the weights directly, apply_gradients only records the step.",
    ),
    ("gradient-vs-apply", "apply_gradients clips gradients automatically before applying them."),
    ("no-zero-grad", "You have to call zero_grad before each step or the gradients pile up."),
    (
        "gradient-accumulation",
        "Apply the gradients after each micro-batch but divide the learning rate by 4.",
    ),
    ("why-none-gradients", "You need to compile the model first, otherwise gradients are None."),
    (
        "numpy-inside-tape",
        "Every gradient becomes None after the .numpy() call, the whole network stops learning.",
    ),
    ("training-flag", "Once you set training=True the mode persists until you turn it off."),
]

# Misconceptions written for this corpus that no rule named before round 9 (rubric content).
NOT_NAMED = [
    (
        "persistent-tape",
        "A persistent tape costs nothing extra, so you can leave it open for the whole training run.",
    ),
    (
        "why-none-gradients",
        "Computing the loss outside the tape is fine, the tape sees the variables anyway.",
    ),
    ("trainable-vs-all-variables", "A None gradient makes apply_gradients crash with an error."),
    ("why-none-gradients", "None just means a zero gradient, nothing is wrong."),
    ("trainable-vs-all-variables", "A None gradient crashes apply_gradients."),
]


@pytest.mark.parametrize(("qid", "text"), TRUE_TUNED + TRUE_CHECK)
def test_a_true_statement_names_no_tell(qid: str, text: str) -> None:
    assert grade_freetext(question(qid), text, neighbours=False).misconceptions == []


@pytest.mark.parametrize(("qid", "text"), STATED)
def test_a_stated_misconception_stays_named(qid: str, text: str) -> None:
    assert grade_freetext(question(qid), text, neighbours=False).misconceptions != []


@pytest.mark.parametrize(
    ("qid", "text", "named"),
    [
        # an open condition whose consequence says it goes wrong warns against it
        (
            "higher-order-derivatives",
            "If you take the inner gradient after the outer tape is closed, you get None.",
            False,
        ),
        (
            "higher-order-derivatives",
            "If you take the inner gradient after the outer tape is closed, you get the second derivative.",
            True,
        ),
        (
            "higher-order-derivatives",
            "Take the inner gradient after the outer tape is closed, then call outer.gradient.",
            True,
        ),
        # a denial said in two clauses is one denial
        ("no-zero-grad", "no need, no zero_grad in tf", False),
        ("no-zero-grad", "No, you need zero_grad, no way around it.", True),
        # a clause's own denial stays behind when the match runs on into the next clause
        (
            "persistent-tape",
            "Make it persistent; don't keep it longer than needed, del the tape after.",
            False,
        ),
        ("persistent-tape", "Don't worry, persistent=True costs no memory.", True),
        # "otherwise" opens a new statement
        (
            "gradient-accumulation",
            "Divide the summed gradients by 4, otherwise the effective learning rate is 4x.",
            False,
        ),
        (
            "gradient-accumulation",
            "Just apply after every micro-batch and divide the learning rate by 4.",
            True,
        ),
        # the object of "under its own" is no subject
        (
            "gradient-accumulation",
            "Run each micro-batch under its own tape so memory is freed, sum the gradients, apply once.",
            False,
        ),
        (
            "gradient-accumulation",
            "The tape sums the gradients across the micro-batches for you.",
            True,
        ),
        # a word after "rather than" fills no claim role
        (
            "why-none-gradients",
            "For a variable with no recorded path, tape.gradient returns None rather than zero.",
            False,
        ),
        ("why-none-gradients", "None just means the gradient is zero.", True),
    ],
)
def test_reads_the_round9_shapes(qid: str, text: str, named: bool) -> None:
    found = grade_freetext(question(qid), text, second_opinion=False, neighbours=False)
    assert bool(found.misconceptions) is named
