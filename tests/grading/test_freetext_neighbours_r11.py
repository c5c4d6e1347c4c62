"""Round 11 (issue 14): a marking word counts only if the voters state it.

When round 10's set joined tune, answers saying "call tape.reset() each step, otherwise the
previous step gets mixed in" made "previous" and "mix" words that mark needs-zero-grad, and the
true "A new tape records each step from scratch, so nothing from the previous step is mixed
in" was named that tell: the voters use those words in a consequence, not in the claim. Now a
marking word counts only when most of the voting answers that use it state it, read by the
same reader as the answer (`neighbours.voters_state`). The statements below were written in
new words before the change was tried (engineer N, round 11, 15:06 UTC); a third of them (the
`HELD` ones) were not looked at until the last check. With the neighbours on, none of the
true ones may gain a tell."""

# ruff: noqa: E501 - answers read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext import neighbours as nb
from tests.grading.core_questions import question

TRUE_STATEMENTS = [
    ('no-zero-grad', "Every iteration starts a brand-new tape, so gradients from earlier iterations can't leak into this one."),
    ('no-zero-grad', "Nothing needs zeroing: tape.gradient hands back new tensors each time, so last step's values never get added in."),
    ('no-zero-grad', 'There is no zero_grad in TF because gradients are return values, not fields that build up on the variables.'),  # held
    ('no-zero-grad', 'Tell them to skip it; the optimizer never holds on to old gradients, so there is nothing stale to combine with.'),
    ('gradient-accumulation', "Keep running sums in tf.Variables, add each micro-batch's gradients to them, apply once after the fourth, then set the sums back to zero so the next batch doesn't inherit them."),
    ('gradient-accumulation', 'Use a fresh tape per micro-batch; the tape itself never accumulates, so the summing is your job.'),  # held
    ('gradient-accumulation', 'Divide each micro-batch loss by four so the summed gradients match the mean over 256.'),
    ('persistent-tape', 'A non-persistent tape throws away its recorded operations after the first gradient call, which is why the second one fails; pass persistent=True and del the tape afterwards.'),
    ('persistent-tape', 'The error is not about the weights changing; the tape simply released its record, so make it persistent and drop it when done.'),  # held
    ('persistent-tape', 'Passing both losses as a list would give you the gradient of their sum; use persistent=True so each loss gets its own gradient, then delete the tape.'),
    ('gradient-vs-apply', "tape.gradient only reads the recorded ops and produces derivatives; the variables are untouched until apply_gradients runs the optimizer's update."),
    ('gradient-vs-apply', 'Computing gradients leaves the model as it was; it is the optimizer step that writes new values into the weights.'),  # held
    ('gradient-vs-apply', 'apply_gradients takes (gradient, variable) pairs and applies the update rule, e.g. SGD subtracts lr times the gradient.'),
    ('trainable-vs-all-variables', 'model.variables also contains the BatchNorm running mean and variance, which the layer updates itself, not gradient descent.'),
    ('trainable-vs-all-variables', 'Non-trainable variables get no gradient, so listing them would only produce None entries for the optimizer.'),  # held
    ('training-flag', 'With training=True dropout actually drops units and BatchNorm uses the batch statistics; leave it out and the model behaves as in inference, so dropout is off.'),
    ('training-flag', 'The flag does not decide whether gradients exist; the tape records either way.'),
    ('numpy-inside-tape', 'The NumPy step is invisible to the tape, so every variable before it gets None and only the layers after it learn.'),  # held
    ('numpy-inside-tape', 'No exception is raised; the gradient path is just cut at the .numpy() call.'),
    ('tf-function-speedup', 'It removes per-op Python dispatch by tracing the step into a graph once; tiny models made of many small ops see the biggest speed-up.'),
    ('tf-function-speedup', 'A huge convolutional net spends its time inside GPU kernels anyway, so graph mode barely helps there.'),  # held
    ('higher-order-derivatives', 'Open an outer tape, open an inner one inside it, get dy/dx from the inner tape while still in the outer block, then ask the outer tape for the gradient of that.'),
    ('higher-order-derivatives', 'The inner gradient computation is itself made of ops, which the outer tape records, so it can be differentiated again.'),
    ('why-none-gradients', 'Usually the loss is computed outside the with block, so the tape has no record linking it to the weights; move the loss computation inside.'),  # held
    ('why-none-gradients', 'Variables are watched automatically; the problem is the loss being calculated after the tape stopped recording.'),
    ('no-zero-grad', "Old gradients can't mix into the new ones, because a new tape is opened each step."),
    ('gradient-accumulation', "Reset the sums after the update, otherwise the next batch's gradients get mixed with the previous ones."),  # held
]  # fmt: skip

# The wrong ones (intended tag) are counted in docs/freetext-rounds.md; only what the neighbours
# add is pinned below, the rest is the rules' reading.
WRONG_STATEMENTS = [
    ('no-zero-grad', 'needs-zero-grad', 'You still have to clear the old gradients before each step in TF, otherwise they get mixed into the new ones.'),
    ('no-zero-grad', 'tape-accumulates', 'The tape keeps adding the new gradients onto the old ones, so start a fresh one each iteration to empty it.'),
    ('no-zero-grad', 'optimizer-clears-grads', 'apply_gradients wipes the gradients once it has used them, so TF does the zeroing for you.'),  # held
    ('no-zero-grad', 'needs-zero-grad', "Call tape.reset() at the start of each iteration; that is TensorFlow's version of zero_grad."),
    ('gradient-vs-apply', 'gradient-updates-weights', 'tape.gradient already shifts the parameters a bit; apply_gradients only commits the change.'),
    ('gradient-vs-apply', 'apply-computes-gradients', 'apply_gradients works out the derivatives from the loss and then updates the model.'),  # held
    ('gradient-vs-apply', 'gradient-reruns-forward', 'tape.gradient runs the model forward again to get the derivatives.'),
    ('persistent-tape', 'runtime-error-from-weight-change', 'The second call crashes because the first call already changed the weights the tape recorded.'),
    ('persistent-tape', 'persistent-is-free', "Just set persistent=True; it costs nothing, so there's no need to clean up."),  # held
    ('persistent-tape', 'retain-graph-flag', 'Pass retain_graph=True to the first gradient call, like in PyTorch.'),
    ('trainable-vs-all-variables', 'pass-model-variables', 'Using model.variables would be fine too; the optimizer just skips anything frozen.'),
    ('trainable-vs-all-variables', 'bn-stats-get-gradients', "BatchNorm's moving mean would get gradients and be trained, which we don't want."),  # held
    ('training-flag', 'training-flag-enables-gradients', "Without training=True the tape doesn't record anything and every gradient is None."),
    ('training-flag', 'training-auto-detected-in-tape', 'Keras notices it is inside a GradientTape and switches to training mode by itself, so the flag is optional.'),
    ('numpy-inside-tape', 'numpy-raises-error', 'TensorFlow will throw an error as soon as you call .numpy() inside the tape.'),  # held
    ('numpy-inside-tape', 'numpy-is-recorded', 'The tape follows NumPy operations too, so the gradients come out fine.'),
    ('tf-function-speedup', 'big-models-gain-most', 'The bigger and deeper the network, the more you gain from tf.function.'),
    ('tf-function-speedup', 'tf-function-uses-gpu', "tf.function speeds things up by moving the computation onto the GPU, which eager mode doesn't use."),  # held
    ('higher-order-derivatives', 'gradient-twice-same-tape', 'Just call tape.gradient twice on the same tape, first for dy/dx then for its derivative.'),
    ('higher-order-derivatives', 'persistent-gives-second-order', 'Make one persistent tape and call gradient on the result of gradient; persistence is what gives you the second order.'),
    ('gradient-accumulation', 'single-tape-over-micro-batches', 'Open one tape around all four micro-batches and take the gradient once at the end.'),  # held
    ('gradient-accumulation', 'apply-every-micro-batch', 'Call apply_gradients after each micro-batch of 64; four small updates equal one large one.'),
    ('why-none-gradients', 'must-watch-variables', "You forgot tape.watch on the model's weights; trainable variables aren't tracked unless you watch them."),
    ('why-none-gradients', 'watch-loss-fixes-none', 'Call tape.watch(loss) before tape.gradient and the Nones go away.'),  # held
    ('gradient-accumulation', 'tape-accumulates', 'TensorFlow sums gradients across calls by itself, so just call tape.gradient four times and apply once.'),
    ('no-zero-grad', 'needs-zero-grad', 'Before every step wipe the previous gradients, or the new ones will be mixed with them.'),
    ('gradient-accumulation', 'needs-zero-grad', 'Between micro-batches call optimizer.zero_grad() so the previous micro-batch is not mixed in.'),  # held
]  # fmt: skip


@pytest.mark.parametrize(("qid", "text"), TRUE_STATEMENTS)
def test_a_true_statement_gains_no_tell(qid: str, text: str) -> None:
    q = question(qid)
    assert grade_freetext(q, text, neighbours=True) == grade_freetext(q, text, neighbours=False)


@pytest.mark.xfail(
    strict=True,
    reason="not suggested since round 16's set joined tune (round 17 start, before any change): "
    "147 of the question's 439 tune answers now carry big-models-gain-most, over a third, so "
    "no word can mark it (MARK_LIFT); the rules are left to read it (docs/freetext-rounds.md, "
    "round 17, V)",
)
def test_a_tell_the_voters_state_is_still_suggested() -> None:
    q = question("tf-function-speedup")
    text = "The bigger and deeper the network, the more you gain from tf.function."
    assert grade_freetext(q, text, neighbours=False).misconceptions == []
    assert grade_freetext(q, text, neighbours=True).details["neighbours"] == "big-models-gain-most"


CONSEQUENCES = [
    "Call tape.reset() at the start of each step, otherwise the previous step gets mixed in.",
    "Use tape.reset() every step; otherwise gradients from the previous step get mixed in.",
    "The TF equivalent is tape.reset(). Call it first in each step.",
]


@pytest.mark.parametrize(
    ("word", "voters", "stated"),
    [
        ("mix", CONSEQUENCES, False),  # said only as what happens otherwise
        ("reset", CONSEQUENCES, True),  # the claim itself
        ("previous", ["Gradients from the previous step are mixed in."] * 3, True),
        ("previous", ["In PyTorch the previous step is mixed in."] * 3, False),  # another framework
        ("mix", ["The tape keeps the old ops around."] * 3, False),  # no voter uses it
    ],
)
def test_a_marking_word_counts_when_most_voters_state_it(
    word: str, voters: list[str], stated: bool
) -> None:
    assert nb.voters_state(word, voters) is stated
