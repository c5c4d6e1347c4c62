"""Round 43 of issue 14 (engineer C33, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated beliefs the rules missed most, counted per (question, tag) over every tune persona, in
words the rubrics did not read. Kept (a gain on not-read personas): on higher-order-derivatives,
the same tape differentiating its own first result (gradient-twice-same-tape, in code and in
prose), the first derivative taken once both blocks are closed (gradient-outside-outer-tape, also
as two tapes opened in one with-statement: round 38's dropped reading, now with a not-read gain)
and GradientTape said to give first derivatives only (tape-first-order-only); on
trainable-vs-all-variables, the optimizer treating the moving statistics as weights
(bn-stats-get-gradients). Dropped (one more not-read answer named for one not-read exact lost):
the rest of the model said to run the same beside dropout alone (batchnorm-ignores-training-flag)
and None read as a zero derivative or a flat loss (none-means-zero-signal): strict xfails. True
statements sharing their words name nothing. Statements written for this file, in words of their
own (docs/freetext-rounds.md "Round 43: ... (engineer C33)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

HOD = "higher-order-derivatives"

ONE_TAPE_CODE = """One tape is enough:

```python
with tf.GradientTape(persistent=True) as tape:
    y = tf.sin(x) * x
first = tape.gradient(y, x)
second = tape.gradient(first, x)
```"""

ONE_TAPE_CODE_SPLIT = """```python
with tf.GradientTape() as t:
    y = x ** 4

g1 = t.gradient(y, x)
g2 = t.gradient(g1, x)
```"""

TWO_TAPES_ONE_WITH = """```python
with tf.GradientTape() as a, tf.GradientTape() as b:
    y = x * x * x
d1 = a.gradient(y, x)
d2 = b.gradient(d1, x)
```"""

# Beliefs in words the rubric did not read (each fails on the round's start commit, 382881d).
NEW_WORDS = [
    (HOD, "gradient-twice-same-tape", ONE_TAPE_CODE),
    (HOD, "gradient-twice-same-tape", ONE_TAPE_CODE_SPLIT),
    (HOD, "gradient-twice-same-tape", "Then call the tape again on the first derivative and you have d2y/dx2."),
    (HOD, "gradient-twice-same-tape", "Its second pass runs over the first derivative and gives d2y/dx2."),
    (HOD, "gradient-twice-same-tape", "Keep one tape and apply tape.gradient once more on its output."),
    (HOD, "gradient-outside-outer-tape", "Open the outer tape and the inner tape, compute y, and after closing both blocks take the inner gradient."),
    (HOD, "gradient-outside-outer-tape", "Exit both with blocks and call inner.gradient(y, x), then outer.gradient(dy, x)."),
    (HOD, "gradient-outside-outer-tape", TWO_TAPES_ONE_WITH),
    (HOD, "tape-first-order-only", "GradientTape is designed for first derivatives only."),
    (HOD, "tape-first-order-only", "Autodiff gives first derivatives only; the second one has to be numerical."),
    (HOD, "tape-first-order-only", "The tape is essentially first-order."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "It would include the BatchNorm moving mean and variance, and the optimizer would then start treating them as weights."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Model.variables holds BN's running statistics and gradient descent would treat them as weights."),
]  # fmt: skip

# Dropped at the end of the round (abd02ff): no gain on the not-read side.
DROPPED = [
    ("training-flag", "batchnorm-ignores-training-flag", "It turns on dropout. Other than that there is no difference."),
    ("training-flag", "batchnorm-ignores-training-flag", "The flag enables dropout; the forward computation is exactly the same."),
    ("why-none-gradients", "none-means-zero-signal", "Seeing None means you are at a stationary point."),
    ("why-none-gradients", "none-means-zero-signal", "TF hands back None to save memory when nothing changes."),
    ("why-none-gradients", "none-means-zero-signal", "None signals that the gradient works out to zero."),
]  # fmt: skip

ONE_TAPE_RECORDING = """A persistent tape can record its own first gradient call:

```python
with tf.GradientTape(persistent=True) as t:
    y = f(x)
    g = t.gradient(y, x)
h = t.gradient(g, x)
```"""

NESTED = """```python
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = f(x)
    dy = inner.gradient(y, x)
d2 = outer.gradient(dy, x)
```"""

# True statements beside the new words: name nothing.
STILL_TRUE = [
    (HOD, ONE_TAPE_RECORDING),
    (HOD, NESTED),
    (HOD, "Take dy = inner.gradient(y, x) inside the outer block; after both blocks close, call outer.gradient(dy, x)."),
    (HOD, "If you call inner.gradient after both blocks are closed, the outer tape never sees it and you get None."),
    (HOD, "A single tape only gives first derivatives, so nest a second tape around it."),
    (HOD, "Each tape computes only a first-order gradient; the outer one records the inner one's computation."),
    ("training-flag", "It switches dropout on and makes BatchNorm normalise with batch statistics and update its moving averages; everything else behaves the same."),
    ("training-flag", "Without the flag dropout is off and BatchNorm uses its moving averages; nothing else changes."),
    ("trainable-vs-all-variables", "BatchNorm's moving statistics get None from the tape: they are updated by assignment, not by the optimizer."),
    ("why-none-gradients", "None does not mean the gradient is zero: it means the tape recorded no path from the loss to that variable."),
    ("why-none-gradients", "A zero gradient is a tensor of zeros, whereas None means the tape found no path."),
]  # fmt: skip


test_grade_freetext_names_a_round43_c33_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round43_c33_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: one not-read answer named for one not-read exact lost (round 43, engineer C33)",
)
test_grade_freetext_round43_c33_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


QUESTIONS = (HOD, "trainable-vs-all-variables")


def round43_phrasings() -> list[str]:
    """Every list item under this round's `# Round 43 (engineer C33)` comments."""
    return list(dict.fromkeys(phrasings_under("# Round 43 (engineer C33)", QUESTIONS)))


PUMPED = [
    "with tf.GradientTape() as t:\n" + "    y = f(x)\n" * 600 + "g = t.gradient(y, x)\n" * 300,
    "g = t.gradient(y, x)\n" * 700,
    "with tf.GradientTape() as a, tf.GradientTape() as b:\n" * 300,
    "after closing both blocks take the " * 250,
    "gradienttape only gives first order " * 280,
    "the moving statistics would get gradients like " * 200,
    "the optimizer would start treating them as weights " * 200,
    "call it again on the result " * 350,
    "second call second query on the result of the first " * 180,
]


def test_round43_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round43_phrasings()
    # gradient-twice-same-tape 5, gradient-outside-outer-tape 3, tape-first-order-only 3, bn-stats-get-gradients 2
    assert len(patterns) == 13
    assert_linear_on(patterns, PUMPED)
