"""Round 46 of issue 14 (engineer C38, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): the stated beliefs the rules missed, counted
per (question, tag) over the tune personas, kept where they named not-read answers.
gradient-accumulation: persistent-needed-for-accumulation (new entry: a persistent tape said to be what
makes accumulation possible, or needed for it). gradient-vs-apply: apply-returns-new-loss (new entry:
apply_gradients said to return the new loss). numpy-inside-tape: two numpy-is-recorded phrasings no
longer read the fix ("if you use tf.math ops, TF differentiates through them", "..., so the tape can
record the operations"): round 45's set's two false tells on correct answers.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 46:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C38)"). Read by the rules alone: the learned parts are retrained by the lead
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

QUESTIONS = ["gradient-vs-apply", "gradient-accumulation", "numpy-inside-tape"]
NEW_ENTRIES = {
    "gradient-accumulation": ["persistent-needed-for-accumulation"],
    "gradient-vs-apply": ["apply-returns-new-loss"],
}

WRONG = [
    ("gradient-accumulation", "persistent-needed-for-accumulation", "Make the tape persistent: a persistent tape is what makes the accumulation over the micro-batches possible."),
    ("gradient-accumulation", "persistent-needed-for-accumulation", "The persistent flag is what lets one tape hold several forward passes, so the four micro-batches end up in one gradient."),
    ("gradient-accumulation", "persistent-needed-for-accumulation", "To accumulate across micro-batches you need a persistent tape, otherwise it forgets the earlier ones."),
    ("gradient-accumulation", "persistent-needed-for-accumulation", "The tape sums the micro-batches for you as long as you make it persistent."),
    ("gradient-accumulation", "persistent-needed-for-accumulation", "A regular tape only remembers the last micro-batch, so you have to make it persistent."),
    ("gradient-vs-apply", "apply-returns-new-loss", "tape.gradient gives the gradients, and apply_gradients updates the variables and returns the new loss."),
    ("gradient-vs-apply", "apply-returns-new-loss", "apply_gradients changes the weights; it hands you back the updated loss so you can print it."),
    ("numpy-inside-tape", "numpy-is-recorded", "NumPy is fine inside the tape, TF still differentiates through it and every layer gets a gradient."),
    ("numpy-inside-tape", "numpy-is-recorded", "NumPy operations are recorded by the tape as well, so every layer gets its gradient."),
]  # fmt: skip

CORRECT = [
    ("gradient-accumulation", "No persistent tape is needed for accumulation: one tape per micro-batch, add its gradients into tf.Variable accumulators, apply the mean every four and reset."),
    ("gradient-accumulation", "You don't need persistent=True to accumulate; open a new tape for each micro-batch and assign_add the gradients, then apply them divided by 4."),
    ("gradient-accumulation", "persistent=True is only needed for several gradients from one forward pass, not for accumulation; a fresh tape per micro-batch does it."),
    ("gradient-accumulation", "Each micro-batch has its own non-persistent tape, so you never need to make it persistent; sum into accumulators and apply the average."),
    ("gradient-accumulation", "Accumulation is not done by the tape, even if you make it persistent; keep variables for the sums and divide by four before applying."),
    ("gradient-accumulation", "A persistent tape lets you call gradient several times; for accumulation you just use a new tape per micro-batch and average the four gradients."),
    ("gradient-vs-apply", "apply_gradients updates the weights; it does not return the new loss, it returns nothing useful."),
    ("gradient-vs-apply", "apply_gradients updates the weights. It doesn't give you the updated loss: the loss is only known after the next forward pass."),
    ("gradient-vs-apply", "tape.gradient computes the gradients and changes nothing; apply_gradients assigns the new values and gives back nothing useful, so log the loss you computed."),
    ("numpy-inside-tape", "The layers before h get None. If you use tf.math ops instead of NumPy, TF differentiates through them and the gradients flow."),
    ("numpy-inside-tape", "Rewrite the NumPy step with TensorFlow ops so the tape can record the operations; otherwise the layers before h get None."),
    ("numpy-inside-tape", "The layers before h get None. Convert the NumPy lines to TF so that the tape can record them."),
]  # fmt: skip


test_grade_freetext_names_a_round46_c38_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round46_c38_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "persistent is what makes accumulation " * 250,
    "so you must make it persistent " * 300,
    "accumulate if you make it persistent " * 250,
    "a normal tape only keeps the last " * 300,
    "apply_gradients returns the new loss " * 250,
    "once returns the updated " * 400,
    "tf differentiates through them tf ops " * 250,
    "so the tape can record numpy " * 300,
    "a" * 10_000,
]


def test_round46_c38_phrasings_are_read_back() -> None:
    assert (
        len(phrasings_under("# Round 46 (engineer C38)", ["numpy-inside-tape"], first_only=True))
        == 2
    )
    assert len(phrasings_of_tags(NEW_ENTRIES)) == 7


def test_round46_c38_phrasings_search_pumped_text_in_linear_time() -> None:
    phrasings = phrasings_under("# Round 46 (engineer C38)", QUESTIONS, first_only=True)
    assert_linear_on([*phrasings, *phrasings_of_tags(NEW_ENTRIES)], PUMPED)
