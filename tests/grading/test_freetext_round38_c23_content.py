"""Round 38 of issue 14 (engineer C23, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). The inner gradient said to be taken once both tapes' blocks are
left (gradient-outside-outer-tape), in prose and in code that opens both tapes on one `with`
line; a second tape opened as a next step after the first (sequential-tapes-second-derivative);
the forward pass said to be run again under a second tape (two-tapes-need-two-forwards);
BatchNorm's moving statistics said to still get updated without the flag (bn-updates-in-inference);
a tf.constant differentiated in code with no watch call (source-arg-watches), or watched by the
inner tape only (inner-watch-visible-to-outer); the model said to train fine without the flag, or a
big problem denied (missing-flag-minor-effect);
the gradients said to come through a NumPy round trip in a sentence whose later clause
names what older claims exclude, or a problem for them denied (numpy-is-recorded) - these two
dropped at the merge (a gain on read personas only: strict xfails in DROPPED). Three
labeller tags new in round 37's set map onto the rubric tag of the same belief; eight stay
unmapped (one answer each, no rubric tag of the same belief). True statements sharing their
words name nothing. Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 38: ... (engineer C23)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.evaluation import core_labelled
from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

MAPPED = [
    ("training-flag", "training-flag-only-dropout", "batchnorm-ignores-training-flag"),
    ("persistent-tape", "tape-clear-method", "tape-close-method"),
    ("trainable-vs-all-variables", "trainable-variables-registered-with-tape", "variables-not-differentiable"),
]  # fmt: skip

UNMAPPED = [
    ("why-none-gradients", "zero-weights-give-none"),
    ("why-none-gradients", "fake-quant-gives-none"),
    ("why-none-gradients", "stale-tape-gives-none"),
    ("why-none-gradients", "inf-loss-gives-none"),
    ("trainable-vs-all-variables", "masked-inputs-give-none"),
    ("trainable-vs-all-variables", "masks-learnable-by-optimizer"),
    ("training-flag", "training-flag-enables-ste"),
    ("training-flag", "training-flag-controls-rnn-kernel"),
]  # fmt: skip

TWO_TAPES_ONE_LINE = """Both tapes on one line:

```python
with tf.GradientTape() as first, tf.GradientTape() as second:
    first.watch(x)
    second.watch(x)
    y = tf.sin(x)
dy = first.gradient(y, x)
d2y = second.gradient(dy, x)
```"""

CONSTANT_UNWATCHED = """Nested:

```python
x = tf.constant(1.5)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
```"""

CONSTANT_WATCHED = """Nested:

```python
x = tf.constant(1.5)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x ** 3
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
```"""

INNER_WATCH_ONLY = """Nested:

```python
x = tf.constant(0.5)
with tf.GradientTape() as g2:
    with tf.GradientTape() as g1:
        g1.watch(x)
        y = tf.exp(x)
    dy = g1.gradient(y, x)
d2y = g2.gradient(dy, x)
```"""

TWO_TAPES_ONE_LINE_INSIDE = """Both tapes on one line:

```python
with tf.GradientTape() as second, tf.GradientTape() as first:
    first.watch(x)
    second.watch(x)
    y = tf.sin(x)
    dy = first.gradient(y, x)
d2y = second.gradient(dy, x)
```"""

WRONG = [
    ("higher-order-derivatives", "sequential-tapes-second-derivative", "Compute dy/dx with one tape, then open a new tape, watch x and differentiate dy/dx again."),
    ("higher-order-derivatives", "sequential-tapes-second-derivative", "Second tape: open it, watch x, and call its gradient on dy_dx."),
    ("higher-order-derivatives", "source-arg-watches", CONSTANT_UNWATCHED),
    ("higher-order-derivatives", "inner-watch-visible-to-outer", INNER_WATCH_ONLY),
    ("persistent-tape", "two-tapes-need-two-forwards", "You need a second tape and have to repeat the forward pass under it for the other loss."),
    ("training-flag", "bn-updates-in-inference", "The running means keep getting refreshed even at inference."),
    ("training-flag", "bn-updates-in-inference", "Skip the flag and the moving variance still gets updated each step, so nothing is lost there."),
    ("training-flag", "missing-flag-minor-effect", "Leave it out and the network still learns fine, you only lose some regularisation."),
    ("training-flag", "missing-flag-minor-effect", "Forgetting the flag is not a big problem; dropout is off and that is about it."),
    ("training-flag", "missing-flag-minor-effect", "Honestly nothing dramatic happens, dropout just stays off."),
]  # fmt: skip

# Dropped by the lead at the merge: these phrasings gained on read personas only (no not-read answer
# moved), so they stay in history (bd709a1's YAML, fc69503) and their statements strict xfails.
DROPPED = [
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Put the inner.gradient call after both with blocks close."),
    ("numpy-inside-tape", "numpy-is-recorded", "The gradients still come through, although the float64 arrays make the rest of the step slower."),
    ("numpy-inside-tape", "numpy-is-recorded", "The copy to the host costs time, but the gradients are still right."),
]  # fmt: skip

# Named since round 43 by other phrasings that did gain on not-read personas: C33's inner gradient
# taken after both blocks close (one not-read answer), C32's denied problem for the gradients (three).
NAMED_SINCE_ROUND_43 = [
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Open the outer tape and the inner one inside it, compute y, and after exiting both blocks call inner.gradient(y, x) for dy/dx."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "When both with blocks are done, ask the inner tape for dy/dx."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", "Leave both blocks and call inner.gradient(y, x) first."),
    ("higher-order-derivatives", "gradient-outside-outer-tape", TWO_TAPES_ONE_LINE),
    ("numpy-inside-tape", "numpy-is-recorded", "No problem for the gradients, the values are the same either way."),
    ("numpy-inside-tape", "numpy-is-recorded", "It's a speed issue, not a correctness issue."),
]  # fmt: skip

CORRECT = [
    ("higher-order-derivatives", "Call inner.gradient(y, x) inside the outer block; once both blocks are closed, call outer.gradient(dy_dx, x)."),
    ("higher-order-derivatives", "If you call inner.gradient after both blocks are closed, the outer tape never saw it and the second derivative is None."),
    ("higher-order-derivatives", "Never take inner.gradient once both blocks are closed: by then the outer tape has stopped recording."),
    ("higher-order-derivatives", "After the inner block closes, still inside the outer one, take inner.gradient(y, x)."),
    ("higher-order-derivatives", "Take dy/dx with the inner tape while the outer one is open; after the outer block closes, differentiate dy/dx with outer.gradient."),
    ("higher-order-derivatives", TWO_TAPES_ONE_LINE_INSIDE),
    ("higher-order-derivatives", "Open an outer tape, then open a second tape inside it and compute y there."),
    ("higher-order-derivatives", "Start the outer tape; then start a new tape in it for the first derivative."),
    ("higher-order-derivatives", "Then use a second tape around the first so it records the gradient computation."),
    ("higher-order-derivatives", "Second tape: the outer one, which wraps the first and records its gradient call."),
    ("higher-order-derivatives", CONSTANT_WATCHED),
    ("persistent-tape", "With persistent=True you avoid running the forward pass twice under two tapes."),
    ("persistent-tape", "Two tapes can record one forward pass together, so there is no need to run the forward twice."),
    ("training-flag", "With training=True the moving averages keep getting updated; without it they stay frozen."),
    ("training-flag", "Without the flag BN uses the moving averages and does not update them; with it they keep being updated."),
    ("training-flag", "Dense and Conv layers work fine without the flag; Dropout and BatchNorm do not."),
    ("training-flag", "Leaving it out is a major problem: BatchNorm never updates its moving averages."),
    ("training-flag", "The gradients are computed fine without it, but you train a different model."),
    ("numpy-inside-tape", "The gradients still reach the layers after the conversion, but the ones before it get None."),
    ("numpy-inside-tape", "It is a gradient problem, not just a speed issue: the tape cannot see NumPy."),
    ("numpy-inside-tape", "No problem for the gradients if the maths stays in tf ops."),
    ("numpy-inside-tape", "The gradients do come through for the dense layers after it, but not for the encoder."),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "tag", "rubric_tag"), MAPPED)
def test_round38_labeller_tag_maps_to_the_rubric_tag_of_its_belief(
    question_id: str, tag: str, rubric_tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (rubric_tag,)


@pytest.mark.parametrize(("question_id", "tag"), UNMAPPED)
def test_round38_labeller_tag_without_a_rubric_belief_stays_unmapped(
    question_id: str, tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (tag,)


test_grade_freetext_names_a_round38_c23_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round38_c23_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: a gain on read personas only (round 38, engineer C23)",
)
test_grade_freetext_round38_c23_dropped_statements_named_since_round_43 = names_the_tell(
    NAMED_SINCE_ROUND_43, tells=tells_by_rules
)
test_grade_freetext_round38_c23_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def round38_phrasings() -> list[str]:
    """This round's phrasings: those under a `# Round 38 (engineer C23)` comment."""
    questions = (
        "higher-order-derivatives",
        "numpy-inside-tape",
        "persistent-tape",
        "training-flag",
    )
    return phrasings_under("# Round 38 (engineer C23)", questions)


PUMPED = [
    "after leaving both blocks " * 400,
    "with tf.GradientTape() as a, tf.GradientTape() as b:\n    y = x\ndy = a.gradient(y, x)\n"
    * 120,
    "the gradients still " * 500,
    "No problem for the gradients " * 350,
    "but they are still " * 500,
    "run the forward pass again " * 380,
    "the moving averages still " * 400,
    "x = tf.constant(1.0)\nwith tf.GradientTape() as t:\n" * 200,
    "the model still trains fine " * 350,
]


def test_round38_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round38_phrasings()
    assert len(patterns) == 11  # 21 written, 10 dropped at the merge (DROPPED)
    assert_linear_on(patterns, PUMPED)
