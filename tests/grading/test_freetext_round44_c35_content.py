"""Round 44 of issue 14 (engineer C35, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) over the tune
personas. Kept (each names a not-read answer's stated tag, no false tell, no exact answer lost):
on trainable-vs-all-variables, "they" / "these two" said to be the same list
(variables-are-the-same); on why-none-gradients, None said to follow from a non-persistent tape,
the cause first (non-persistent-gives-none); on training-flag, the moving statistics said to
update in either mode or regardless of the flag (bn-updates-in-inference); on
higher-order-derivatives, round 43's same-tape code with a persistent with-line
(persistent-gives-second-order). Dropped (strict xfails): either list said to work and the same
result either way (pass-model-variables: read-only names), None after the first call or a
one-use tape (non-persistent-gives-none: read-only or none), the watch on the model's variables
in code (must-watch-variables: a not-read answer labelled correct gained it) and the outer tape
seeing everything the inner one does (outer-records-inner-tape-object: answers labelled correct
say it too). True statements sharing the words name nothing. Statements written for this file
(docs/freetext-rounds.md "Round 44: ... (engineer C35)"). Read by the rules alone."""

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
    (TVA, "variables-are-the-same", "For most nets these two are pretty much the same list."),
    (TVA, "variables-are-the-same", "I believe these two are same collection for most networks."),
    (WNG, "non-persistent-gives-none", "As my tape was non-persistent, the call handed back None."),
    (TF, "bn-updates-in-inference", "The moving mean is updated regardless of the flag, so BatchNorm is fine either way."),
    (TF, "bn-updates-in-inference", "Even in inference mode the layer keeps refreshing its running variance."),
    (HOD, "persistent-gives-second-order", PERSISTENT_TWICE),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names, none at all, or a
# not-read cost).
DROPPED = [
    (TVA, "pass-model-variables", "Honestly, in practice either works."),
    (TVA, "pass-model-variables", "Handing the optimizer model.variables would work, it is only a little slower."),
    (TVA, "pass-model-variables", "The trained weights are identical either way, it is a matter of taste."),
    (WNG, "non-persistent-gives-none", "Each call after the first gives None, because the tape forgot everything."),
    (WNG, "non-persistent-gives-none", "The tape is used up by the first backward pass, so you get None for all the weights."),
    (WNG, "non-persistent-gives-none", "A default tape is good for a single call and afterwards returns None."),
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
    xfail="phrasings dropped: no not-read gain, or a not-read cost (round 44, engineer C35)",
)
test_grade_freetext_round44_c35_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


QUESTIONS = (TVA, WNG, TF, HOD)


def round44_phrasings() -> list[str]:
    """Every list item under this round's `# Round 44 (engineer C35)` comments."""
    return list(dict.fromkeys(phrasings_under("# Round 44 (engineer C35)", QUESTIONS)))


PUMPED = [
    "they are actually the same the same list " * 250,
    "these two are pretty much the same " * 280,
    "because the tape is non-persistent " * 280,
    "because the tape is non-persistent None None " * 200,
    "the moving averages are updated regardless of the flag " * 180,
    "updated in both modes the running mean " * 250,
    "with tf.GradientTape(persistent=True) as t:\n"
    + "    y = f(x)\n" * 600
    + "g = t.gradient(y, x)\n" * 300,
    "with tf.GradientTape(persistent=True) as t:\n" * 400,
]


def test_round44_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round44_phrasings()
    # variables-are-the-same, non-persistent-gives-none, bn-updates-in-inference,
    # persistent-gives-second-order: one each
    assert len(patterns) == 4
    assert_linear_on(patterns, PUMPED)
