"""Round 33 of issue 14 (engineer C13, rubric content): round 32's final set, now tuned on
(korean-native-engineer, actuary, mlx-apple-silicon-user, notebook-tinkerer), read one answer at a
time for stated misconceptions the rules did not name and for its five false tells on correct
answers. New phrasings read claims' shapes: persistence given as the reason a second gradient call
works, the weights staying unchanged without the training flag, the derivative propagated back
through the NumPy conversion, tape.gradient adding into what an earlier step left, a step's gradient
carried to the next, the tape re-running its block's code, separate gradients of one forward pass
said impossible with the denial after the claim. Guards: an infinitive of accumulation you choose,
a tape that frees itself, a scope said as "only through h", "after" read across "before", train mode
by default said of another framework in contrast. Statements written for this file, in words of
their own (docs/freetext-rounds.md "Round 33: rubric content from round 32's set (engineer C13)").
Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("higher-order-derivatives", "persistent-gives-second-order", "Set persistent=True so that you can call gradient twice and get the second derivative."),
    ("higher-order-derivatives", "persistent-gives-second-order", "A persistent tape remembers everything, so the second call works and gives d2y/dx2."),
    ("training-flag", "missing-flag-stops-learning", "Leave it out and the parameters stay exactly the same no matter how long you train."),
    ("numpy-inside-tape", "numpy-is-recorded", "The gradient is simply propagated back through the NumPy round trip as usual."),
    ("numpy-inside-tape", "numpy-is-recorded", "The numpy operations are still traced by the tape like any tf op."),
    ("no-zero-grad", "tape-accumulates", "Each step tape.gradient sums onto the old values unless you reset the tape."),
    ("no-zero-grad", "tape-accumulates", "The gradients of this batch get carried over to the next step if nothing clears them."),
    ("no-zero-grad", "tape-accumulates", "Stale gradients will linger around between iterations in TensorFlow."),
    ("no-zero-grad", "needs-zero-grad", "TensorFlow makes you do the zeroing yourself at the top of every iteration."),
    ("persistent-tape", "separate-gradients-impossible", "Computing separate gradients for each loss from one forward pass is not possible."),
    ("gradient-vs-apply", "gradient-reruns-forward", "When asked for gradients the tape re-executes your Python code with autodiff switched on."),
    ("higher-order-derivatives", "gradient-reruns-forward", "The outer tape simply replays the function inside its block to differentiate it."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "Should you want gradients to add up over several batches, you sum the returned tensors yourself."),
    ("no-zero-grad", "The tape is new each step too, and a plain tape frees itself after one gradient call."),
    ("numpy-inside-tape", "Every parameter that affects the loss only through h gets a gradient of None."),
    ("numpy-inside-tape", "The layers after that point still get their gradients, but those before .numpy() get None since nothing is recorded."),
    ("training-flag", "MLX is the opposite of Keras here: its modules are in train mode by default until you call model.eval()."),
    ("higher-order-derivatives", "Persistence is needed here only because each of the two tapes is used more than once."),
    ("training-flag", "The weights still update; only BatchNorm's moving statistics stay at their initial values."),
]  # fmt: skip


test_grade_freetext_names_a_round33_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round33_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
