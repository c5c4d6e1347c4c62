"""Round 50 of issue 14 (engineer C46, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). numpy-inside-tape: round 49's one false
tell on a correct answer - `numpy-raises-error` read in the optimizer's error on unfiltered None
gradients, a consequence of the None gradients, not an error raised by the conversion - and
`auto-convert-reattaches-history`, the belief of six writers of rounds 48 and 49 that converting the
NumPy result back to a tensor puts it back on the tape (the source document: the tape records
TensorFlow ops as they run, so a value that left TensorFlow has no recorded history), and
`numpy-finite-differences` said as perturbing each weight and reading the change in the loss.
tf-function-speedup: `tf-function-symbolic-gradients` - the gradient said to be derived symbolically
or analytically, or held as a derivative expression or closed form (not the backward pass built as
graph nodes at trace time, which the labellers read as correct). Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 50: gradient-vs-apply,
gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape misconceptions
(engineer C46)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

NUMPY = "numpy-inside-tape"
RAISES = "numpy-raises-error"
REATTACHES = "auto-convert-reattaches-history"
PERTURBS = "numpy-finite-differences"
SPEEDUP = "tf-function-speedup"
SYMBOLIC = "tf-function-symbolic-gradients"

WRONG = [
    # auto-convert-reattaches-history: the conversion back and the re-attachment, in one clause or the later one.
    (NUMPY, REATTACHES, "Keras turns the array back into a tensor at the next layer and reconnects it to the recording."),
    (NUMPY, REATTACHES, "Once the result is converted back with tf.convert_to_tensor, the tape links it to the ops before it."),
    (NUMPY, REATTACHES, "The array is cast back to a tensor, and then the tape picks it up again."),
    (NUMPY, REATTACHES, "The implicit conversion back to a tensor restores the history, so backprop is unaffected."),
    (NUMPY, REATTACHES, "Since h goes back into a tf tensor before the loss, the tape still sees the whole path."),
    (NUMPY, REATTACHES, "The auto-conversion to a tensor gets tracked as usual, like any cast."),
    # numpy-raises-error: still named where the conversion is said to raise.
    (NUMPY, RAISES, "Calling .numpy() inside the tape raises an error as soon as the step runs."),
    (NUMPY, RAISES, "You get a ValueError from the tape, because the gradients are None."),
    # numpy-finite-differences: the gradient from perturbing each weight or input and reading the loss or output.
    (NUMPY, PERTURBS, "For the NumPy step TensorFlow nudges each input a little and watches how much the loss moves."),
    (NUMPY, PERTURBS, "It wiggles every weight and reads off the change in the output, so the NumPy part is no problem."),
    # tf-function-symbolic-gradients: the gradient derived symbolically or analytically, or held as an expression.
    (SPEEDUP, SYMBOLIC, "Under tf.function TensorFlow works out the gradient analytically, once, and each step just evaluates it."),
    (SPEEDUP, SYMBOLIC, "The traced graph keeps a closed-form derivative that every step reuses."),
    (SPEEDUP, SYMBOLIC, "After tracing, tf.function holds the derivative expressions and only plugs in new numbers."),
]  # fmt: skip

CORRECT = [
    # numpy-raises-error: the optimizer's error on unfiltered None gradients is a consequence, not the belief.
    (NUMPY, "The earlier variables get None from tape.gradient, and apply_gradients skips them (you may get an error if you do not filter the Nones)."),
    (NUMPY, "The weights before h get None, and the optimizer raises an error if you hand it those None gradients unfiltered."),
    # auto-convert-reattaches-history: a denial, a new constant, "only", a later-layers scope, a myth.
    (NUMPY, "Converting the array back to a tensor does not reattach it to the recording."),
    (NUMPY, "tf.convert_to_tensor turns it back into a new constant, so the earlier layers get None gradients."),
    (NUMPY, "The value is converted back to a tensor, but the tape only records from that point on, so the earlier variables get None."),
    (NUMPY, "It is a myth that converting back to a tensor reconnects the history; the earlier layers get None gradients."),
    # numpy-finite-differences: what a gradient means, a denial, noise.
    (NUMPY, "Intuitively a gradient tells you how the loss changes if you nudge each weight, but the tape gets it from the recorded ops, and the NumPy ops are not recorded."),
    (NUMPY, "The tape never perturbs the weights to see how the loss changes; the NumPy ops are simply not recorded, so the earlier layers get None."),
    (NUMPY, "Adding noise to perturb each input changes the output, but that has nothing to do with the tape."),
    # tf-function-symbolic-gradients: the backward pass built as graph nodes (labelled correct), a denial, a myth, a counterfactual.
    (SPEEDUP, "Inside tf.function the backward pass is built symbolically once at trace time, as extra nodes of the same graph."),
    (SPEEDUP, "TensorFlow never computes gradients symbolically; eager and graph mode run the same reverse-mode autodiff over recorded ops."),
    (SPEEDUP, "It is a myth that tf.function derives the gradients analytically; the graph just skips the Python dispatch of each op."),
    (SPEEDUP, "If tf.function derived the gradients symbolically, the first step would take longer."),
]  # fmt: skip


test_grade_freetext_names_a_round50_c46_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round50_c46_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def test_round50_auto_convert_reattaches_history_caps_at_the_labellers_incorrect() -> None:
    assert misconception_of(NUMPY, REATTACHES).cap == "incorrect"


PUMPED = [
    "word " * 2_000,
    "converted back " * 700,
    "convert " * 1_500 + "back",
    "convert back " * 400 + "picks " * 400 + "up",
    "back " * 2_000 + "picks it up",
    "converted " * 600 + "back " * 600 + "tracked again",
    "None apply_gradients error " * 400,
    "None " * 1_500 + "error raises filter",
    "perturbing each " * 600 + "loss",
    "nudge " * 1_500 + "weights change",
    "gradients " * 1_500 + "symbolically",
    "derivative " * 1_500 + "expression",
    "closed " * 2_000 + "form",
    "a" * 10_000,
]


def test_round50_c46_phrasings_search_pumped_text_in_linear_time() -> None:
    tags = {NUMPY: [REATTACHES, RAISES, PERTURBS], SPEEDUP: [SYMBOLIC]}
    assert_linear_on(phrasings_of_tags(tags), PUMPED)
