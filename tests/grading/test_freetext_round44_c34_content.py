"""Round 44 of issue 14 (engineer C34, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): the stated beliefs the rules missed, counted
per (question, tag) over the tune personas, kept where they named not-read answers.
tf-function-speedup: XLA said to compile (fuse) the step with no opt-in in the clause, and the gain said
to be the largest for big models in either order. numpy-inside-tape: `tape.watch(h)` said to bring the
gradients back, and gradient-reruns-forward (copied from gradient-vs-apply, where labellers named it here
too). gradient-vs-apply: round 43's labellers' gradient-includes-add-loss-terms, a new entry.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 44:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C34)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

QUESTIONS = ["tf-function-speedup", "numpy-inside-tape", "gradient-vs-apply"]
NEW_ENTRIES = {
    "gradient-vs-apply": ["gradient-includes-add-loss-terms"],
    "numpy-inside-tape": ["gradient-reruns-forward"],
}

WRONG = [
    ("tf-function-speedup", "tf-function-is-xla", "It traces the step into a graph, and the graph goes through XLA, which fuses the kernels."),
    ("tf-function-speedup", "tf-function-is-xla", "XLA fuses the ops of the traced graph into one kernel, which is why it is fast."),
    ("tf-function-speedup", "big-models-gain-most", "The gain is largest for models with a large number of parameters."),
    ("tf-function-speedup", "big-models-gain-most", "The gain grows with the depth of the model, since every layer adds work to optimise."),
    ("numpy-inside-tape", "watch-reattaches-history", "Use tape.watch(h) after the NumPy step and the gradient flows into the earlier layers as usual."),
    ("numpy-inside-tape", "watch-reattaches-history", "Put tape.watch(h) right after the conversion back to a tensor and the gradient flows to the first layer as usual."),
    ("numpy-inside-tape", "gradient-reruns-forward", "When you call tape.gradient it runs the forward pass again, so the NumPy part is skipped and the earlier layers get None."),
    ("gradient-vs-apply", "gradient-includes-add-loss-terms", "tape.gradient computes the gradients and automatically includes the auxiliary losses registered with add_loss; apply_gradients updates the weights."),
]  # fmt: skip

CORRECT = [
    ("tf-function-speedup", "tf.function traces a graph; XLA compiles it only if you pass jit_compile=True."),
    ("tf-function-speedup", "tf.function does not compile the step with XLA; it runs a graph of the same kernels."),
    ("tf-function-speedup", "XLA can fuse ops, but it is opt-in, not what tf.function does by default."),
    ("tf-function-speedup", "Pass jit_compile=True to tf.function and XLA compiles the step."),
    ("tf-function-speedup", "The gain is largest for small models; big models barely gain because their time is in the kernels."),
    ("tf-function-speedup", "The biggest speedup is for models with many tiny ops, where Python overhead dominates."),
    ("tf-function-speedup", "The gain shrinks as models grow: the largest gain is for small models, not big ones."),
    ("numpy-inside-tape", "The layers before h get None. tape.watch(h) won't reconnect anything."),
    ("numpy-inside-tape", "The layers before h get None. Calling tape.watch(h) afterwards does not fix it: it only makes h a new source."),
    ("numpy-inside-tape", "The layers before h get None, and even tape.watch(h) would not restore the chain."),
    ("numpy-inside-tape", "The layers before h get None. You might think tape.watch(h) fixes it, but the history is gone."),
    ("numpy-inside-tape", "tape.gradient walks the recorded ops backwards; it does not re-run the forward pass, so the NumPy part is simply missing and the earlier layers get None."),
    ("numpy-inside-tape", "The earlier layers get None: the tape replays its recording in reverse, and the NumPy ops are not on it."),
    ("gradient-vs-apply", "tape.gradient differentiates only the target; the add_loss terms count only if you add sum(model.losses) to the loss yourself. apply_gradients updates the weights."),
    ("gradient-vs-apply", "tape.gradient does not include the add_loss terms by itself; apply_gradients updates the weights."),
    ("gradient-vs-apply", "In fit the regularisation losses are included automatically; in a custom loop tape.gradient returns the gradients of your loss only."),
]  # fmt: skip


test_grade_freetext_names_a_round44_c34_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round44_c34_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "the gain is largest for " * 400,
    "largest gain big models with many " * 300,
    "xla compiles fuses " * 500,
    "tape.watch(h) " * 700,
    "tape.watch(h) again " * 500,
    "add_loss also tape.gradient " * 350,
    "tape.gradient re-runs the forward " * 300,
    "a" * 10_000,
]


def test_round44_c34_phrasings_are_read_back() -> None:
    assert len(phrasings_under("# Round 44 (engineer C34)", QUESTIONS)) == 4
    assert len(phrasings_of_tags(NEW_ENTRIES)) == 6


def test_round44_c34_phrasings_search_pumped_text_in_linear_time() -> None:
    phrasings = phrasings_under("# Round 44 (engineer C34)", QUESTIONS)
    assert_linear_on([*phrasings, *phrasings_of_tags(NEW_ENTRIES)], PUMPED)
