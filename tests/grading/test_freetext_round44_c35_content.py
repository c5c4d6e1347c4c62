"""Round 44 of issue 14 (engineer C35, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas. Kept (a gain on not-read personas, no false tell, no exact answer lost): on
trainable-vs-all-variables, either list said to work and model.variables to work or give the
same result (pass-model-variables), "they" / "these two" said to be the same list
(variables-are-the-same); on why-none-gradients, None said to follow the tape's first call or
its non-persistence (non-persistent-gives-none); on training-flag, the moving statistics said
to update in either mode (bn-updates-in-inference); on higher-order-derivatives, round 43's
same-tape code with a persistent with-line (persistent-gives-second-order). Dropped (strict
xfails): the watch on the model's variables in code (must-watch-variables: a not-read answer
labelled correct gained it) and the outer tape seeing everything the inner one does
(outer-records-inner-tape-object: correct answers say it too). True statements sharing the
words name nothing. Statements written for this file (docs/freetext-rounds.md "Round 44: ...
(engineer C35)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

TVA = "trainable-vs-all-variables"
WNG = "why-none-gradients"
TF = "training-flag"
HOD = "higher-order-derivatives"

PERSISTENT_TWICE = """A persistent tape does it:

```python
with tf.GradientTape(persistent=True) as g:
    y = x ** 3
first = g.gradient(y, x)
second = g.gradient(first, x)
```"""

PERSISTENT_RECORDING = """```python
with tf.GradientTape(persistent=True) as g:
    y = x ** 3
    first = g.gradient(y, x)
second = g.gradient(first, x)
```"""

# Beliefs in words the rubric did not read (each fails on the round's start commit, f3c08b3).
NEW_WORDS = [
    (TVA, "pass-model-variables", "Honestly, in practice either works."),
    (TVA, "pass-model-variables", "Handing the optimizer model.variables would work, it is only a little slower."),
    (TVA, "pass-model-variables", "The trained weights are identical either way, it is a matter of taste."),
    (TVA, "variables-are-the-same", "For most nets these two are pretty much the same list."),
    (TVA, "variables-are-the-same", "I believe these two are same collection for most networks."),
    (WNG, "non-persistent-gives-none", "Each call after the first gives None, because the tape forgot everything."),
    (WNG, "non-persistent-gives-none", "The tape is used up by the first backward pass, so you get None for all the weights."),
    (WNG, "non-persistent-gives-none", "Because the tape is non-persistent, you end up with None for every weight."),
    (WNG, "non-persistent-gives-none", "A default tape is good for a single call and afterwards returns None."),
    (TF, "bn-updates-in-inference", "The moving mean is updated regardless of the flag, so BatchNorm is fine either way."),
    (TF, "bn-updates-in-inference", "Even in inference mode the layer keeps refreshing its running variance."),
    (HOD, "persistent-gives-second-order", PERSISTENT_TWICE),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side without a cost there.
DROPPED = [
    (WNG, "must-watch-variables", "```python\nwith tf.GradientTape() as tape:\n    tape.watch(self.trainable_weights)\n    loss = self.compute_loss(x, y)\n```"),
    (WNG, "must-watch-variables", "The fix:\n\n```python\nwith tf.GradientTape() as tape:\n    tape.watch(model.trainable_variables)\n    loss = loss_fn(y, model(x))\n```"),
    (HOD, "outer-records-inner-tape-object", "The outer tape sees everything the inner tape sees."),
    (HOD, "outer-records-inner-tape-object", "The outer tape has recorded everything the inner one did, so it can differentiate the first derivative again."),
]  # fmt: skip

# True statements, denials and conditions beside the new words: name nothing.
STILL_TRUE = [
    (TVA, "For a model without BatchNorm or frozen layers either works, but with BatchNorm model.variables adds the moving statistics."),
    (TVA, "Both lists hold the same tf.Variable objects for the weights; model.variables just adds the moving mean and variance."),
    (TVA, "If a model has no non-trainable state, they are the same list; with BatchNorm they differ."),
    (WNG, "A non-persistent tape is released after the first gradient call; a second call raises a RuntimeError, it does not return None."),
    (WNG, "Variables created after the first step get None gradients until the model is rebuilt."),
    (WNG, "It is not because the tape is non-persistent that you get None: the loss was computed outside the block."),
    (TF, "BatchNorm normalises in either mode, but it updates its moving averages only with training=True."),
    (TF, "In inference mode BatchNorm does not update its moving statistics."),
    (HOD, PERSISTENT_RECORDING),
]  # fmt: skip


test_grade_freetext_names_a_round44_c35_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round44_c35_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: a not-read cost or names on answers labelled otherwise (round 44, engineer C35)",
)
test_grade_freetext_round44_c35_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


QUESTIONS = (TVA, WNG, TF, HOD)


def round44_phrasings() -> list[str]:
    """Every list item under this round's `# Round 44 (engineer C35)` comments."""
    return list(dict.fromkeys(phrasings_under("# Round 44 (engineer C35)", QUESTIONS)))


PUMPED = [
    "either works either works " * 300,
    "model.variables would work " * 350,
    "the result would be the same either way " * 250,
    "they are actually the same the same list " * 250,
    "every step after the first step after the first " * 200,
    "released by the first call None " * 300,
    "because the tape is non-persistent " * 280,
    "the tape works only once and " * 350,
    "the moving averages are updated regardless of the flag " * 180,
    "with tf.GradientTape(persistent=True) as t:\n"
    + "    y = f(x)\n" * 600
    + "g = t.gradient(y, x)\n" * 300,
]


def test_round44_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round44_phrasings()
    # pass-model-variables 3, variables-are-the-same 1, non-persistent-gives-none 5,
    # bn-updates-in-inference 1, persistent-gives-second-order 1
    assert len(patterns) == 11
    assert_linear_on(patterns, PUMPED)
