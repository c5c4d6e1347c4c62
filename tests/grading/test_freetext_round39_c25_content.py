"""Round 39 of issue 14 (engineer C25, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). First the false tells the rules gave on answers labelled correct in
round 38's set, each a phrasing reading more than its claim: a diagonal beside a Hessian-vector
product (outer-gradient-gives-hessian-diagonal); two tapes with two forward passes offered as an
alternative (two-tapes-need-two-forwards, separate-gradients-impossible); "differ" read in
"differentiated" (only-frozen-layers-differ); frozen weights granted in a concession
(training-flag-is-optimizer-mode); the tape's verb reaching NumPy past a comma
(numpy-is-recorded). The wrong statements beside them still name their tag. Then two beliefs in
new words: tf.hessians offered as the route in eager code (tf-hessians-works-eagerly) and the
gradients said to survive once the tape is persistent (persistent-fixes-none), the tape said to
give BatchNorm's statistics gradients or the statistics to be updated twice (bn-stats-get-gradients). Two labeller tags
new in round 38's set map onto the rubric tag of the same belief. Statements written
for this file, in words of their own (docs/freetext-rounds.md "Round 39: ... (engineer C25)").
Read by the rules alone."""

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
    ("persistent-tape", "persistent-allows-one-call", "separate-gradients-impossible"),
    ("why-none-gradients", "loss-must-be-variable", "watch-loss-fixes-none"),
]  # fmt: skip

# The claims the mended phrasings are for: still named.
WRONG = [
    ("higher-order-derivatives", "outer-gradient-gives-hessian-diagonal", "outer.gradient(dy_dx, x) gives you the diagonal of the Hessian."),
    ("persistent-tape", "two-tapes-need-two-forwards", "You need two separate tapes, which means two forward passes."),
    ("persistent-tape", "two-tapes-need-two-forwards", "Run the forward pass twice, once per tape."),
    ("persistent-tape", "separate-gradients-impossible", "You cannot get the gradients separately from one forward pass."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "The only difference is the frozen layers."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "The lists only differ when some layers are frozen."),
    ("training-flag", "training-flag-is-optimizer-mode", "With training=False the layers are frozen, so the optimizer skips them."),
    ("training-flag", "training-flag-is-optimizer-mode", "In inference mode the weights are frozen."),
    ("numpy-inside-tape", "numpy-is-recorded", "The tape records NumPy operations too."),
    ("numpy-inside-tape", "numpy-is-recorded", "TF tracks the numpy ops just fine."),
    ("numpy-inside-tape", "numpy-is-recorded", "The tape records the numpy ops as well."),
]  # fmt: skip

# Beliefs in words the rubric did not read (each fails on 71e243a's questions/).
NEW_WORDS = [
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "The easiest way is tf.hessians(y, x), one call."),
    ("higher-order-derivatives", "tf-hessians-works-eagerly", "Another option is tf.hessians, which returns the whole matrix."),
    ("why-none-gradients", "persistent-fixes-none", "The tape is persistent now, so the gradients stick around."),
    ("why-none-gradients", "persistent-fixes-none", "Construct it as tf.GradientTape(persistent=True), wrap it, and the gradients survive."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "Pass model.variables and tape.gradient would compute gradients for the moving statistics too."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The tape returns gradients for the running means as well, so the optimizer moves them."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "The BN statistics would get updated twice by the optimizer and by the layer."),
    ("trainable-vs-all-variables", "bn-stats-get-gradients", "With apply_gradients on model.variables the moving means are double-updated."),
]  # fmt: skip

# True statements that named a tell before this round (each fails on 71e243a's questions/).
CORRECT = [
    ("higher-order-derivatives", "For EWC I compared the diagonal of the Fisher matrix with Hessian-vector products from the nested tapes."),
    ("higher-order-derivatives", "Nested tapes give HVPs cheaply, which I checked against a diagonal approximation."),
    ("persistent-tape", "Another alternative is two tapes and two forward passes, which costs compute."),
    ("persistent-tape", "The alternative is two separate tapes, which costs compute and is not the same forward pass."),
    ("trainable-vs-all-variables", "Freezing only removes those kernels from the variables being differentiated."),
    ("training-flag", "The BN statistics would still drift even though the backbone's weights are frozen."),
    ("numpy-inside-tape", "The tape records TensorFlow ops, and NumPy operations run outside of it."),
    ("numpy-inside-tape", "The tape records only tf ops, NumPy ops are invisible to it."),
]  # fmt: skip

# True statements beside the new words: named nothing before, name nothing now.
STILL_TRUE = [
    ("higher-order-derivatives", "tf.hessians only works inside a tf.function; in eager code nest two tapes."),
    ("higher-order-derivatives", "tf.hessians is a TF1 graph API; in TF2 you nest tapes instead."),
    ("higher-order-derivatives", "Don't use tf.hessians in eager code."),
    ("why-none-gradients", "With persistent=True the gradients stay available for a second call."),
    ("why-none-gradients", "Even with persistent=True the gradients do not show up if the loss is computed outside the block."),
    ("why-none-gradients", "If the tape were persistent, the gradients would survive a second call, but the first call never needed it."),
    ("trainable-vs-all-variables", "The tape returns None for the moving statistics, since they are updated by an EMA, not by gradients."),
    ("trainable-vs-all-variables", "With frozen layers the tape would compute gradients for their means and variances too, and they would train again."),
    ("trainable-vs-all-variables", "BatchNorm's statistics are never updated twice: the optimizer does not see them."),
    ("trainable-vs-all-variables", "The tape gives gradients for the kernels and biases only."),
]  # fmt: skip


test_grade_freetext_names_a_round39_c25_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_names_a_round39_c25_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round39_c25_true_statements_name_nothing = names_nothing(
    CORRECT + STILL_TRUE, tells=tells_by_rules
)


@pytest.mark.parametrize(("question_id", "tag", "rubric_tag"), MAPPED)
def test_round39_labeller_tag_maps_to_the_rubric_tag_of_its_belief(
    question_id: str, tag: str, rubric_tag: str
) -> None:
    assert core_labelled().tag_map.rubric_tags(question_id, tag) == (rubric_tag,)


def round39_phrasings() -> list[str]:
    """This round's phrasings: the one under each `# Round 39 (engineer C25)` comment."""
    questions = (
        "higher-order-derivatives",
        "numpy-inside-tape",
        "persistent-tape",
        "training-flag",
        "trainable-vs-all-variables",
        "why-none-gradients",
    )
    return phrasings_under("# Round 39 (engineer C25)", questions, first_only=True)


PUMPED = [
    "the tape records " * 600,
    "the tape records tf ops and " * 350,
    "tf.hessians use " * 600,
    "persistent=True and the " * 450,
    "the weights are " * 600,
    "only frozen differ " * 500,
    "the alternative two tapes need two forward passes " * 200,
    "the diagonal hessian " * 500,
    "the tape computes gradients for the " * 300,
    "updated twice by the optimizer " * 330,
]


def test_round39_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round39_phrasings()
    assert len(patterns) == 11  # six mended, one guarded beside them, four new
    assert_linear_on(patterns, PUMPED)
