"""Round 34 of issue 14 (engineer C14, rubric content): round 33's final set, now tuned on
(brazilian-portuguese-engineer, computational-chemist, tf-internals-contributor,
mathematica-symbolic-user), read one answer at a time for stated misconceptions the rules did not
name and for its false tells on correct answers. New phrasings read claims' shapes: the tape
building, storing or returning a derivative formula (tape-is-symbolic-differentiation, now on every
question of this task where the tape's differentiation is explained), the optimizers differing only
in how they set the learning rate, only the stochastic layers caring about the training flag, the
model looking whether it runs inside a tape, None given for the model's weights as a whole, a None
in the gradient list raising, a constant that cannot be differentiated twice, the learning rate
divided by four for per-micro-batch steps, the summed result said to be the full batch's gradient,
passing model.variables said not to hurt (stated by its own denial);
excluded words read whole ("if" was read inside "differentiate"). Guards: a numerical reverse pass,
a constant "from the tape's point of view", "with a single persistent tape" beside a first gradient
taken inside the block. Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 34: rubric content from round 33's set (engineer C14)"). Read by the
rules alone: the learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-accumulation", "tape-is-symbolic-differentiation", "On the first micro-batch the tape works out the gradient formula, and later micro-batches just plug new data into it."),
    ("why-none-gradients", "tape-is-symbolic-differentiation", "The tape could not finish because a custom op has no symbolic derivative rule."),
    ("trainable-vs-all-variables", "tape-is-symbolic-differentiation", "Extra variables make the tape construct a much bigger derivative expression each step."),
    ("numpy-inside-tape", "tape-is-symbolic-differentiation", "TensorFlow differentiates the loss symbolically, and it has no formula for np.log."),
    ("trainable-vs-all-variables", "tape-is-numerical-differentiation", "For the variables it does not watch, TensorFlow falls back to finite differences, which is slow."),
    ("gradient-vs-apply", "apply-ignores-optimizer-rule", "Adam and SGD differ only in how they choose the learning rate; apply_gradients always subtracts it times the gradient."),
    ("training-flag", "batchnorm-ignores-training-flag", "Only the random layers like dropout care about that argument."),
    ("training-flag", "training-auto-detected-in-tape", "Keras checks whether the call happens inside a GradientTape and then picks training mode by itself."),
    ("numpy-inside-tape", "numpy-kills-all-gradients", "As a result tape.gradient gives None for all the weights and nothing trains."),
    ("gradient-vs-apply", "none-gradient-crashes-apply", "Be careful: a single None in that list crashes the optimizer."),
    ("higher-order-derivatives", "watched-constant-no-second-order", "Use a Variable, because a tf.constant cannot be differentiated twice."),
    ("higher-order-derivatives", "nested-tapes-need-persistent", "The inner tape needs persistent=True, otherwise the outer one has nothing left to differentiate."),
    ("gradient-accumulation", "apply-every-micro-batch", "Just step the optimizer on each micro-batch with the learning rate divided by 4."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Add the four gradient lists; the total is the gradient of the full batch."),
    ("trainable-vs-all-variables", "pass-model-variables", "Passing all the variables won't hurt; the extra ones just get zero gradients."),
]  # fmt: skip

CORRECT = [
    ("higher-order-derivatives", "Think of it as differentiating twice, except each step is a numerical reverse pass over recorded ops, not a formula."),
    ("why-none-gradients", "If the forward pass ran before the block, the loss is a constant from the tape's point of view, so every gradient is None."),
    ("gradient-accumulation", "The tape does not build a formula; it records ops and walks them backwards once per micro-batch."),
    ("trainable-vs-all-variables", "Finite differences play no part: the tape simply has no record for variables it never watched."),
    ("training-flag", "Only dropout and BatchNorm layers care about the flag; dense layers ignore it."),
    ("numpy-inside-tape", "tape.gradient returns None for the weights before the conversion, while the head still trains."),
    ("gradient-vs-apply", "apply_gradients only raises when every gradient in the list is None; a single None is skipped with a warning."),
    ("higher-order-derivatives", "An unwatched tf.constant cannot be differentiated twice, so watch it on both tapes."),
    ("trainable-vs-all-variables", "Passing model.variables would not break the code, but the optimizer would then overwrite the BatchNorm moving statistics."),
]  # fmt: skip


test_grade_freetext_names_a_round34_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round34_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
