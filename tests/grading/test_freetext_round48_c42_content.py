"""Round 48 of issue 14 (engineer C42, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape): one general claim instead of another
fitted wording, kept where it named not-read answers.
numpy-inside-tape: numpy-kills-all-gradients - None said of the model (its weights, variables,
parameters) in an answer that never says which part of the model loses them (an answer guard over the
scope words: the source document's None is for the variables upstream of the NumPy call only). Said of
"the gradients" alone it would name more not-read answers, but it costs exact answers and names
earlier rounds' true statements ("it runs, and the gradients come back None"): left out.
Statements written for this file, in words of their own (docs/freetext-rounds.md "Round 48:
gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape
misconceptions (engineer C42)"). Read by the rules alone: the learned parts are retrained by the lead
after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

Q = "numpy-inside-tape"
TAG = "numpy-kills-all-gradients"

WRONG = [
    (Q, TAG, "h.numpy() takes the tensor off the tape, so tape.gradient hands back None for the weights and the optimizer has nothing to apply."),
    (Q, TAG, "The tape never sees the NumPy maths; the weights get None from tape.gradient, yet no error is raised."),
    (Q, TAG, "Nothing crashes. The network ends up with None as its gradient, because NumPy is not recorded."),
    (Q, TAG, "Training runs, but it learns nothing: the tape cannot see NumPy, so the variables' gradients come back as None."),
    # Round 49 (engineer C44): "the gradients" unscoped in the whole answer names it too (test_freetext_round49_c44_content.py).
    (Q, TAG, "It runs without an error, and the gradients come back None."),
]  # fmt: skip

CORRECT = [
    # The scope said anywhere in the answer spares the claim (the answer guard).
    (Q, "The tape does not record NumPy, so the variables before the conversion get None; the layers after h still get real gradients."),
    (Q, "Only the layers that produced h lose their gradients (None); the dense layers downstream of h keep training."),
    (Q, "The tape loses the path through h. The gradients are None for the encoder, while the head keeps learning."),
    # The lead's review mend: a numbered layer names the part (round 17's held statement drew the claim).
    (Q, "Converting layer1's output with .numpy() means layer1's weights get None, and layer2 still gets its gradients."),
    # A counterfactual and a denial state no claim; "those" / "these" gradients are a part named before.
    (Q, "Those gradients are None, not zero, so apply_gradients skips them."),
    (Q, "If the loss had never touched the weights, the gradients would be None."),
    (Q, "The gradients are not None for the dense layers applied to the converted result; the encoder's are."),
]  # fmt: skip


test_grade_freetext_names_a_round48_c42_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round48_c42_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "gradients None " * 700,
    "gradients " * 1_500 + "None",
    "None " * 2_000 + "weights",
    "would " * 2_000 + "gradients None",
    "a" * 10_000,
]


def test_round48_c42_cap_is_the_labellers_partial_since_round49() -> None:
    """Round 48 left the rubric's cap `incorrect`; round 49 (engineer C44) set the labellers' `partial`."""
    assert misconception_of(Q, TAG).cap == "partial"


def test_round48_c42_phrasings_search_pumped_text_in_linear_time() -> None:
    assert_linear_on(phrasings_of_tags({Q: [TAG]}), PUMPED)
