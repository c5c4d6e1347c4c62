"""Round 35 of issue 14 (engineer C17, rubric content): round 34's final set, now tuned on
(arabic-native-engineer, swift-for-tensorflow-alumnus, pinn-researcher,
evolutionary-algorithms-researcher), read for stated misconceptions the rules did not name on six
questions and for its false tell on a correct answer. New phrasings read claims' shapes: the outer
tape said to hold its own record of the forward pass (outer-keeps-forward-values, a kit tag
higher-order-derivatives lacked), the NumPy part said to be traced into the graph by tf.function,
the tape said to differentiate tf.function graphs only, the tape said to need several forward
evaluations (tape-is-numerical-differentiation, now on why-none-gradients and
gradient-accumulation too), convention as the only reason to pass trainable_variables, and the tape
said to track only what it is told to watch. Guards: a watch added as a precaution, variables made
apart, "after" read up to a contrast or a part said to train. Statements written for this file, in
words of their own (docs/freetext-rounds.md "Round 35: rubric content from round 34's set (engineer
C17)"). Read by the rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("higher-order-derivatives", "outer-keeps-forward-values", "Nesting works since the outer tape also remembers the whole forward pass of y, so it can take a derivative once more."),
    ("higher-order-derivatives", "outer-keeps-forward-values", "The outer tape provides a second recording of the function, which is why two tapes are needed."),
    ("numpy-inside-tape", "autograph-converts-numpy", "Decorate the step with @tf.function: then the numpy code is converted into the graph and gradients flow."),
    ("why-none-gradients", "eager-needs-tf-function-for-gradients", "The tape can only differentiate functions compiled with tf.function, so eager code yields None."),
    ("why-none-gradients", "tape-is-numerical-differentiation", "From one point you get no slope; the tape needs several forward evaluations to get a gradient."),
    ("gradient-accumulation", "tape-is-numerical-differentiation", "Each micro-batch gradient is a numerical approximation, so averaging four of them reduces the error."),
    ("trainable-vs-all-variables", "pass-model-variables", "We pass trainable_variables only because that is the convention in the docs."),
    ("why-none-gradients", "must-watch-variables", "Remember that the tape only records what it has been told to watch."),
    ("why-none-gradients", "must-watch-variables", "The tape does not automatically watch the model's weights."),
]  # fmt: skip

CORRECT = [
    ("numpy-inside-tape", "Layers after it train fine; earlier ones get None gradients."),
    ("why-none-gradients", "Some people add tape.watch(model.trainable_variables) just in case, which does not hurt."),
    ("higher-order-derivatives", "The outer tape has recorded both the forward pass and the inner gradient computation, so it can differentiate dy/dx."),
    ("higher-order-derivatives", "If the inner gradient ran after the outer block, the outer tape would have seen only y and would return None."),
    ("numpy-inside-tape", "tf.function will not help: the numpy call runs once while tracing and is baked in as a constant."),
    ("why-none-gradients", "tf.function is not needed for gradients; eager code is recorded by the tape just the same."),
    ("why-none-gradients", "The tape does not automatically watch variables marked trainable=False."),
]  # fmt: skip


test_grade_freetext_names_a_round35_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round35_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
