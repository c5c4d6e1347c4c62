"""Round 16 of issue 14: the labeller tags of round 15's final set that no rubric knew, and
a known content defect on numpy-inside-tape. Wrong statements for each belief in candidates'
voices and true statements on the same subjects that must name nothing. All were written
from the tags' descriptions, the source document and a scratch check on TF 2.21 / Keras
3.15.1 (docs/freetext-rounds.md "Round 16: rubric content (engineer C)"), before any
phrasing was written and without reading the labelled answers; the `_HELD` lists (about a
third) were kept untouched until the end, as a last check."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # underflow-gives-none, mapped onto none-means-zero-signal (None confused with a tiny or zero gradient)
    ("why-none-gradients", "none-means-zero-signal", "With a deep sigmoid stack the gradients underflow to nothing, and tape.gradient reports that as None."),
    ("why-none-gradients", "none-means-zero-signal", "None is what you get when the gradient is too small for float32 to represent - classic vanishing gradients."),
    ("why-none-gradients", "none-means-zero-signal", "My guess: vanishing gradients. Once they get tiny enough TF just hands back None for those layers."),
    # tf-function-pipelines-steps (new)
    ("tf-function-speedup", "tf-function-pipelines-steps", "The graph lets TensorFlow pipeline the training steps: the next batch's forward pass runs while the current backward pass finishes, so deep models gain most."),
    ("tf-function-speedup", "tf-function-pipelines-steps", "tf.function overlaps consecutive steps - step n+1's forward starts before step n's backward is done - and that's the speedup."),
    ("tf-function-speedup", "tf-function-pipelines-steps", "Compiled steps run back to back in a pipeline, so while one step's gradients are being computed the forward of the next is already going."),
    # gradient-returns-updated-variables, mapped onto gradient-applies-learning-rate (tape.gradient computes the update itself)
    ("gradient-vs-apply", "gradient-applies-learning-rate", "Depending on the arguments, tape.gradient can hand you back the updated variable values, so it already does part of the update."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient returns the new weights after a step of descent; apply_gradients then just writes them into the model."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "What comes back from tape.gradient are the updated parameter values, not raw derivatives."),
    # reset-states-is-zero-grad, mapped onto needs-zero-grad (the tune labellers' precedent for model.reset_states())
    ("no-zero-grad", "needs-zero-grad", "TensorFlow's zero_grad is model.reset_states(): call it at the start of each epoch to clear the accumulated gradients."),
    ("no-zero-grad", "needs-zero-grad", "You do still clear gradients in TF, it's just called reset_states() on the model."),
    ("no-zero-grad", "needs-zero-grad", "Call model.reset_states() every step, otherwise the gradients from the last batch carry over."),
    # variables-is-legacy-api, mapped onto variables-are-the-same (the tune labellers' precedent)
    ("trainable-vs-all-variables", "variables-are-the-same", "model.variables is the old TF1-style API; trainable_variables is the modern one, which is why you pass it - the contents are the same."),
    ("trainable-vs-all-variables", "variables-are-the-same", "Use trainable_variables because model.variables is a legacy attribute kept for backwards compatibility."),
    ("trainable-vs-all-variables", "variables-are-the-same", "It's mostly an API thing: variables is deprecated TF1 stuff, and apply_gradients expects the trainable_variables type."),
    # accumulators-never-reset (new)
    ("gradient-accumulation", "accumulators-never-reset", "There's no need to reset the accumulators after applying; just keep adding into them every cycle."),
    ("gradient-accumulation", "accumulators-never-reset", "Keep summing into the same tf.Variables for the whole run - resetting them after each update isn't necessary."),
    ("gradient-accumulation", "accumulators-never-reset", "The accumulators can just keep growing across cycles; apply every 4 micro-batches and carry on adding."),
    # numpy-only-precision-issue, mapped onto numpy-is-recorded (the gradients still flow through the NumPy step)
    ("numpy-inside-tape", "numpy-is-recorded", "The only cost of the round trip is precision: NumPy works in float64 and you lose a bit when casting back, but the gradients still get through."),
    ("numpy-inside-tape", "numpy-is-recorded", "It's a performance and precision hit, nothing more - the backward pass still flows through h."),
    ("numpy-inside-tape", "numpy-is-recorded", "The NumPy detour only costs you a host-device copy and some float64 rounding; the gradients still flow back through it."),
    # missing-flag-minor-effect (new)
    ("training-flag", "missing-flag-minor-effect", "Leaving out training=True only nudges the gradients a little; the model converges to roughly the same place."),
    ("training-flag", "missing-flag-minor-effect", "Without the flag training is a bit less stable, but you end up with about the same model."),
    ("training-flag", "missing-flag-minor-effect", "It's a minor effect - dropout and batch norm behave slightly differently, the final accuracy is about the same."),
    # variables-not-differentiable (new)
    ("trainable-vs-all-variables", "variables-not-differentiable", "model.variables are raw resource handles, and the tape can't differentiate against them; trainable_variables is the gradient-ready view."),
    ("trainable-vs-all-variables", "variables-not-differentiable", "tape.gradient doesn't work with model.variables because those aren't differentiable objects - you need the trainable_variables wrappers."),
    ("trainable-vs-all-variables", "variables-not-differentiable", "If you pass model.variables, the tape cannot compute gradients with respect to them at all, since they're not differentiable."),
    # known defect (task item 2): every gradient None, numpy-kills-all-gradients
    ("numpy-inside-tape", "numpy-kills-all-gradients", "Converting to numpy inside the tape means every gradient in the model is None."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "Once h goes through NumPy the whole network gets None gradients, the layers after it included."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "tape.gradient returns None for all of the model's variables, so nothing trains."),
    # task item 3, the worst named miss widened: missing-flag-stops-learning (training-flag), 20 of 26 labelled unnamed
    ("training-flag", "missing-flag-stops-learning", "Leave the flag out and the layers run in inference mode, so nothing learns."),
    ("training-flag", "missing-flag-stops-learning", "Without training=True the weights are frozen for that call and the optimizer won't change them."),
    ("training-flag", "missing-flag-stops-learning", "Forget it and your loss just flatlines."),
]  # fmt: skip

CORRECT = [
    # underflow-gives-none
    ("why-none-gradients", "A vanishing gradient is still a number - tiny, maybe exactly 0.0 after underflow - whereas None means no recorded path from the loss to the variable."),
    ("why-none-gradients", "Underflow gives you zeros, not None; None only shows up when the variable isn't connected to the loss on the tape."),
    # tf-function-pipelines-steps
    ("tf-function-speedup", "Consecutive steps can't overlap: the next forward pass reads the weights the previous apply_gradients wrote, so tf.function's gain is the Python overhead it removes per op."),
    ("tf-function-speedup", "tf.function doesn't run two training steps at once; each call is one step, just executed as a graph without per-op Python dispatch."),
    # gradient-returns-updated-variables
    ("gradient-vs-apply", "tape.gradient returns the derivatives, one tensor per variable with the same shape; the variables themselves still hold their old values afterwards."),
    ("gradient-vs-apply", "Nothing tape.gradient returns is a new weight value - it's dL/dw, and only apply_gradients turns that into updated variables."),
    # reset-states-is-zero-grad
    ("no-zero-grad", "In Keras 2, model.reset_states() reset the hidden state of stateful RNN layers (Keras 3 models no longer have it); it never had anything to do with gradients, because TensorFlow keeps no gradients to clear."),
    ("no-zero-grad", "Resetting a stateful LSTM's states between sequences is not zero_grad - tape.gradient returns fresh tensors each step anyway."),
    # variables-is-legacy-api
    ("trainable-vs-all-variables", "model.variables is not legacy - it is current Keras 3 API and lists every variable, including BatchNorm's moving mean and variance."),
    ("trainable-vs-all-variables", "Both are current properties holding the same kind of variable objects; the difference is content: variables adds the non-trainable state."),
    # accumulators-never-reset
    ("gradient-accumulation", "After apply_gradients, assign zeros to every accumulator, or the next update also applies the old sums."),
    ("gradient-accumulation", "If the accumulators are never reset, each update applies all the gradients since the start of training, not just the last 4 micro-batches."),
    # numpy-only-precision-issue
    ("numpy-inside-tape", "It's not a precision problem: even if the dtypes match exactly, the variables before the conversion get None, because NumPy ops aren't recorded."),
    ("numpy-inside-tape", "The float64 cast is a side issue; the real effect is that the recorded chain stops at h.numpy(), so the earlier layers get no gradient."),
    # missing-flag-minor-effect
    ("training-flag", "Without training=True, BatchNorm's moving averages are never updated, so the trained model is evaluated with its initial statistics - not a small effect."),
    ("training-flag", "Leaving the flag out turns off dropout and uses BatchNorm's moving statistics in training, so you train a different model than you think."),
    # variables-not-differentiable
    ("trainable-vs-all-variables", "tape.gradient accepts model.variables fine: the trainable ones get gradients and BatchNorm's moving statistics get None."),
    ("trainable-vs-all-variables", "Both lists hold the same variable objects; the tape can differentiate with respect to any of them that the loss depends on."),
    # numpy-kills-all-gradients' true neighbours
    ("numpy-inside-tape", "Every variable before the conversion gets a None gradient, while the layers after it still train."),
    ("numpy-inside-tape", "All the gradients upstream of h.numpy() come back None; the head after it is unaffected."),
    # missing-flag-stops-learning
    ("training-flag", "Without the flag BatchNorm's moving averages don't update and dropout doesn't drop anything, but the weights still learn."),
    ("training-flag", "The model still trains without it, just in inference mode, so it generalises worse."),
]  # fmt: skip

WRONG_HELD = [
    ("why-none-gradients", "none-means-zero-signal", "If the values underflow during backprop, the tape returns None instead of a number."),
    ("tf-function-speedup", "tf-function-pipelines-steps", "Once it's a graph, TF can overlap one iteration's backward with the next iteration's forward, which is why it helps the most on deep nets."),
    ("gradient-vs-apply", "gradient-applies-learning-rate", "tape.gradient gives you the variables' next values, and apply_gradients commits them."),
    ("no-zero-grad", "needs-zero-grad", "In Keras the equivalent of optimizer.zero_grad() is model.reset_states(), which wipes the old gradients."),
    ("trainable-vs-all-variables", "variables-are-the-same", "trainable_variables is just the newer name; model.variables survives from the TF1 days."),
    ("gradient-accumulation", "accumulators-never-reset", "Once you've applied the accumulated gradients you can leave the accumulators as they are and keep accumulating into them."),
    ("numpy-inside-tape", "numpy-is-recorded", "Worst case you lose some precision from the float64 cast; TF still backprops through the NumPy bit."),
    ("training-flag", "missing-flag-minor-effect", "Forgetting training=True just makes the loss curve a little noisier; it still converges to essentially the same weights."),
    ("trainable-vs-all-variables", "variables-not-differentiable", "trainable_variables exposes the weights in a differentiable form; model.variables gives you handles the tape can't take gradients against."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "Doing the maths in NumPy inside the tape kills the gradients of the entire model."),
]  # fmt: skip

CORRECT_HELD = [
    ("why-none-gradients", "Don't confuse None with vanishing gradients: a tiny gradient comes back as a float tensor, so None points at the recording."),
    ("tf-function-speedup", "Within one step the graph runtime can run independent ops in parallel, but step n+1 still waits for step n's weight update."),
    ("gradient-vs-apply", "After tape.gradient the weights are exactly what they were; the returned tensors are gradients, which apply_gradients uses to compute and assign the new values."),
    ("no-zero-grad", "reset_states() is about recurrent state between batches, not gradients; there is no gradient buffer in TensorFlow."),
    ("trainable-vs-all-variables", "In TF1 you'd use tf.trainable_variables(); in TF2 model.trainable_variables is the subset of model.variables the optimizer should update."),
    ("gradient-accumulation", "Reset the accumulators after each update so every cycle starts from zero."),
    ("numpy-inside-tape", "Precision and speed are not what you lose - you lose the gradients for everything before the conversion."),
    ("training-flag", "The effect is not minor: no dropout means no regularisation, and BatchNorm's moving mean and variance stay at their initial values."),
    ("trainable-vs-all-variables", "Nothing about model.variables is non-differentiable - the moving averages just have no path from the loss, so their gradient is None."),
    ("numpy-inside-tape", "Only the layers after the NumPy step keep learning; every gradient before it is None."),
]  # fmt: skip

# Wrong statements the grader does not name. Round 34 (engineer M6): "Forget it and your loss
# just flatlines" is named now ("and your" opens its own statement) and is among the wrong
# statements only. Held (the last check, run once, nothing
# changed after it): underflow in an if-clause, "leave the accumulators as they are" (no
# phrasing reads leaving them), "kills the gradients of the entire model" (no None, no
# "all/every" beside the gradients).
KNOWN_UNNAMED = [
    ("why-none-gradients", "none-means-zero-signal", "If the values underflow during backprop, the tape returns None instead of a number."),
    ("gradient-accumulation", "accumulators-never-reset", "Once you've applied the accumulated gradients you can leave the accumulators as they are and keep accumulating into them."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "Doing the maths in NumPy inside the tape kills the gradients of the entire model."),
]  # fmt: skip
# True statements that name a tell: "the same variable objects" reads as the same set
# (variables-are-the-same; the statement is ambiguous, written so before any phrasing), and
# the shipped neighbours artefact (main's and the one retrained here) names
# bn-stats-get-gradients on "lists every variable, including BatchNorm's moving mean and
# variance" (the rules alone name nothing).
# Round 17: the neighbours' vote for bn-stats-get-gradients on "model.variables is not
# legacy ..." does not stand without each writer among the nearest (_jackknifed), so it names
# nothing now and is back among the true statements.
KNOWN_NAMED = [
    ("trainable-vs-all-variables", "Both lists hold the same variable objects; the tape can differentiate with respect to any of them that the loss depends on."),
]  # fmt: skip
WRONG = [w for w in WRONG if w not in KNOWN_UNNAMED]
WRONG_HELD = [w for w in WRONG_HELD if w not in KNOWN_UNNAMED]
# Round 28: "model.variables is not legacy ... moving mean and variance." was named again by the
# neighbours retrained at round 28's end, on evidence read loosely from an ordered phrasing
# without an end (docs/freetext-rounds.md, "Round 28: the learned tells' evidence"), and kept
# as a strict xfail. Round 30: the artefacts retrained with round 29's set in tune name nothing
# on it, so it is back among the true statements.
CORRECT = [c for c in CORRECT if c not in KNOWN_NAMED]
CORRECT_HELD = [c for c in CORRECT_HELD if c not in KNOWN_NAMED]


test_grade_freetext_names_a_round16_tell = names_the_tell(WRONG + WRONG_HELD)
test_grade_freetext_round16_true_statements_name_nothing = names_nothing(CORRECT + CORRECT_HELD)
test_grade_freetext_round16_known_unnamed_statements = names_the_tell(
    KNOWN_UNNAMED, xfail="the phrasings do not read this statement"
)
test_grade_freetext_round16_known_named_statements = names_nothing(
    KNOWN_NAMED, xfail="an ambiguous true statement reads as the tell"
)
