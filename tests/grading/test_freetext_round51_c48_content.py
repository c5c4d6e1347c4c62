"""Round 51 of issue 14 (engineer C48, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). Claims over a belief's subject and
predicate for the commonest misses with the rules alone over tune: no-zero-grad `tape-accumulates`
(a tape kept across steps whose gradients add up, said beside a comparison with PyTorch's
zero_grad; the old gradients said to stay and add up), no-zero-grad `optimizer-clears-grads` (the
optimizer's clearing verb in every form, with "them"; the zeroing folded into apply_gradients),
gradient-accumulation `tape-accumulates` (the accumulation said to be the tape's job),
tf-function-speedup `big-models-gain-most` (the large model named by its parameters or weight),
and gradient-vs-apply's new `tape-stores-local-derivatives` (the tape said to store each op's
derivative as it runs; three writers in tune; the source document: the tape records each op "along
with enough information to compute that op's derivative" and computes when asked). Statements
written for this file, in words of their own (docs/freetext-rounds.md "Round 51: gradient-vs-apply,
gradient-accumulation, no-zero-grad, tf-function-speedup and numpy-inside-tape misconceptions
(engineer C48)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    misconception_of,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

APPLY = "gradient-vs-apply"
ACCUMULATION = "gradient-accumulation"
ZERO_GRAD = "no-zero-grad"
SPEEDUP = "tf-function-speedup"
TAPE_ACCUMULATES = "tape-accumulates"
CLEARS = "optimizer-clears-grads"
LOCAL_DERIVATIVES = "tape-stores-local-derivatives"
BIG_MODELS = "big-models-gain-most"

WRONG = [
    # no-zero-grad tape-accumulates: a tape kept across steps, its gradients adding up, PyTorch compared.
    (ZERO_GRAD, TAPE_ACCUMULATES, "If a colleague creates the tape once outside the loop and reuses it, the gradients from every step get summed in the tape, exactly like PyTorch without zero_grad."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "With one tape kept across iterations the gradients keep adding up, the same as the .grad buffers in PyTorch."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "Call tape.reset() before each forward pass; otherwise the old gradients stay on it and get added to the new ones, as in PyTorch."),
    # no-zero-grad optimizer-clears-grads: the clearing verb in its every form, "them", zero_grad folded in.
    (ZERO_GRAD, CLEARS, "Keras optimizers zero them inside apply_gradients, so nothing is left over for the next step."),
    (ZERO_GRAD, CLEARS, "Unlike PyTorch's optimizer, the Keras one tidies up: apply_gradients uses the gradients and then discards them."),
    (ZERO_GRAD, CLEARS, "apply_gradients plays the part of both step() and zero_grad()."),
    # gradient-accumulation tape-accumulates: the accumulation as the tape's job.
    (ACCUMULATION, TAPE_ACCUMULATES, "Open one tape around the four micro-batches of 64 and the tape does the accumulation for you."),
    (ACCUMULATION, TAPE_ACCUMULATES, "Sum the four losses under a single tape; the summation is handled by the tape itself."),
    # gradient-vs-apply tape-stores-local-derivatives: each op's own derivative stored as it runs.
    (APPLY, LOCAL_DERIVATIVES, "As each op runs, the tape saves its local derivative, and tape.gradient just multiplies those saved numbers."),
    (APPLY, LOCAL_DERIVATIVES, "The tape keeps the derivative of every operation during the forward pass, so the gradient call is only a product of stored values."),
    # tf-function-speedup big-models-gain-most: the large model by its parameters or weight.
    (SPEEDUP, BIG_MODELS, "The gain is biggest for models with a very expensive forward pass."),
    (SPEEDUP, BIG_MODELS, "it helps most for the heaviest models (big convnets, transformers) since they have the most compute to optimize, small models barely change"),
]  # fmt: skip

CORRECT = [
    # tape-accumulates (no-zero-grad): a denial, accumulation you want, PyTorch's own statement, nowhere to build up.
    (ZERO_GRAD, "Reusing a persistent tape across steps does not make the gradients add up; each call returns that step's gradients."),
    (ZERO_GRAD, "If you want gradients to add up across micro-batches, you keep your own accumulators and reset them yourself."),
    (ZERO_GRAD, "In PyTorch, backward() adds the new gradients onto the old ones in param.grad, so you zero them first."),
    (ZERO_GRAD, "A new tape is opened every step, so there is nowhere for old gradients to build up and nothing to zero."),
    # optimizer-clears-grads: a denial, PyTorch's optimizer, the optimizer's own state, a counterfactual.
    (ZERO_GRAD, "apply_gradients does not clear the gradients; tape.gradient returns new tensors every step."),
    (ZERO_GRAD, "In PyTorch, optimizer.zero_grad() clears the gradients before each backward pass."),
    (ZERO_GRAD, "The optimizer keeps its Adam moments between steps and never resets them."),
    (ZERO_GRAD, "If apply_gradients cleared the gradients, you would not be able to apply the same list twice."),
    # tape-accumulates (gradient-accumulation): a denial, a fresh tape per micro-batch with accumulators.
    (ACCUMULATION, "The tape does not do the accumulation; you add each micro-batch's gradients into your own tf.Variable accumulators."),
    (ACCUMULATION, "For each micro-batch open a fresh tape, do the forward pass and add the gradients into the accumulators."),
    # tape-stores-local-derivatives: what a derivative needs, the loss's derivative, a denial.
    (APPLY, "The tape records each op with what its derivative needs, and tape.gradient computes the local derivatives on the way back."),
    (APPLY, "tape.gradient walks back through the ops the tape recorded during the forward pass and returns the derivative of the loss with respect to each variable."),
    (APPLY, "The tape does not store each op's derivative as it runs; it computes them only when you call gradient."),
    # big-models-gain-most: small models gain most, a denial.
    (SPEEDUP, "The biggest gain is for small models made of many tiny ops; large CNNs gain little since the GPU is busy anyway."),
    (SPEEDUP, "The speedup is not biggest for compute-heavy networks: those already keep the GPU busy."),
]  # fmt: skip


test_grade_freetext_names_a_round51_c48_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round51_c48_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


def test_round51_tape_stores_local_derivatives_caps_at_partial() -> None:
    # the labels: partial 3 of 3 on this question in tune
    assert misconception_of(APPLY, LOCAL_DERIVATIVES).cap == "partial"


PUMPED = [
    "word " * 2_000,
    "reuse " * 1_000 + "gradients add up",
    "persistent " * 700 + "accumulate " * 700 + "gradients",
    "old " * 1_500 + "gradients added to",
    "optimizer " * 700 + "zero " * 700 + "them",
    "zero_grad " * 700 + "folded into " * 300 + "apply_gradients",
    "tape does " * 600 + "the accumulation",
    "accumulation " * 1_000 + "done by the tape",
    "tape " * 700 + "stores " * 700 + "the derivative of each op",
    "local derivative " * 700 + "as it runs",
    "gain " * 700 + "largest " * 700 + "many parameters",
    "a" * 10_000,
]


def test_round51_c48_phrasings_search_pumped_text_in_linear_time() -> None:
    tags = {
        ZERO_GRAD: [TAPE_ACCUMULATES, CLEARS],
        ACCUMULATION: [TAPE_ACCUMULATES],
        APPLY: [LOCAL_DERIVATIVES],
        SPEEDUP: [BIG_MODELS],
    }
    assert_linear_on(phrasings_of_tags(tags), PUMPED)
