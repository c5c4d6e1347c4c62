"""Round 52 of issue 14 (engineer C50, rubric content for gradient-vs-apply, gradient-accumulation,
no-zero-grad, tf-function-speedup and numpy-inside-tape). Round 51's two false tells on correct
answers mended (gradient-accumulation `tape-accumulates` on a micro-batch's own tape;
numpy-inside-tape `downstream-loses-gradients` where the None sits past an identifier's dot), and
claims for the commonest misses with the rules alone over tune: no-zero-grad `tape-accumulates`
(a reused or persistent tape earlier in the sentence, the gradients adding up in a later clause,
past "otherwise"), tf-function-speedup `big-models-gain-most` (the superlative and the big model
after "therefore", which cuts the clause), numpy-inside-tape `numpy-is-recorded` (the gradients
computed but only slightly off); and true statements that older tf-function-speedup phrasings
named (a large batch or a large model said to gain the least, the superlative reached past
"while"). Statements written for this file, in words of their own (docs/freetext-rounds.md
"Round 52: gradient-vs-apply, gradient-accumulation, no-zero-grad, tf-function-speedup and
numpy-inside-tape misconceptions (engineer C50)"). Read by the rules alone: the learned parts are
retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import assert_linear_on, phrasings_of_tags, tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

ACCUMULATION = "gradient-accumulation"
ZERO_GRAD = "no-zero-grad"
SPEEDUP = "tf-function-speedup"
NUMPY = "numpy-inside-tape"
TAPE_ACCUMULATES = "tape-accumulates"
DOWNSTREAM = "downstream-loses-gradients"
BIG_MODELS = "big-models-gain-most"
LARGE_BATCH = "large-batch-gains-most"
RECORDED = "numpy-is-recorded"

WRONG = [
    # gradient-accumulation tape-accumulates: the mend keeps the tape's own accumulation.
    (ACCUMULATION, TAPE_ACCUMULATES, "A persistent tape sums the gradients across the four calls for you."),
    # numpy-inside-tape downstream-loses-gradients: the mend keeps the reversed claim.
    (NUMPY, DOWNSTREAM, "The weights before the numpy call stay fine; it is the dense head after it that stops training."),
    # no-zero-grad tape-accumulates: a reused tape earlier, the gradients adding up in a later clause.
    (ZERO_GRAD, TAPE_ACCUMULATES, "Only when a persistent tape is reused across steps: call tape.reset() at the top of the step, otherwise the gradients of old losses are summed into the new ones."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "If they hoist the tape out of the loop and re-enter it every step, the recordings pile up."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "A persistent tape holds on to its state, so if you call gradient() on it every step the results build up."),
    (ZERO_GRAD, TAPE_ACCUMULATES, "Skip the reset and the tape keeps every earlier batch and the gradients add up."),
    # tf-function-speedup big-models-gain-most: "therefore" between the gain and the superlative.
    (SPEEDUP, BIG_MODELS, "The gain is therefore largest for deep networks with dozens of layers."),
    (SPEEDUP, BIG_MODELS, "Hence it is therefore biggest for large CNNs, which have the most ops to record."),
    (SPEEDUP, BIG_MODELS, "It's thus biggest for heavy models, where the tape has the most to record."),
    # tf-function-speedup large-batch-gains-most: the guards keep the belief said outright.
    (SPEEDUP, LARGE_BATCH, "Large batches gain the most, while small ones barely change."),
    # numpy-inside-tape numpy-is-recorded: the round trip taken to cost precision, not the gradient.
    (NUMPY, RECORDED, "The gradients come through the round trip, only slightly imprecise."),
    (NUMPY, RECORDED, "Gradients flow back as before, but they lose a little precision in float64."),
    (NUMPY, RECORDED, "The gradients get computed, just approximate after the cast to float64."),
]  # fmt: skip

CORRECT = [
    # Round 51's two false tells on correct answers, in words of their own.
    (ACCUMULATION, "Push each micro-batch through its own tape and keep a running sum of the gradients, one accumulator per variable."),
    (ACCUMULATION, "Give every micro-batch a separate tape and keep the summed gradients in tf.Variables you reset after the update."),
    (NUMPY, "Variables before h get None from tape.gradient and variables after it are fine."),
    # no-zero-grad tape-accumulates: a denial, accumulation you want, PyTorch's own buffers, a fresh tape.
    (ZERO_GRAD, "A persistent tape can be reused for several gradient calls, but the gradients never add up; each call returns new tensors."),
    (ZERO_GRAD, "If you want gradients to add up across micro-batches, reuse your own accumulators and reset them yourself."),
    (ZERO_GRAD, "In PyTorch you reuse the same optimizer, so you call zero_grad, otherwise backward() sums the gradients into .grad."),
    # big-models-gain-most: small models gain most, with "therefore".
    (SPEEDUP, "The gain is therefore largest for small models made of many tiny ops rather than big CNNs."),
    (SPEEDUP, "It is thus biggest for small networks; large models keep the GPU busy anyway."),
    (SPEEDUP, "Large transformers see the least benefit, while tiny models with many small ops gain the most."),
    # large-batch-gains-most: small batches gain most; large batches gain least.
    (SPEEDUP, "The gain is largest for small models and small batches; with large batches the GPU is already busy."),
    (SPEEDUP, "Large batches gain least, while small batches of cheap ops gain the most."),
    # large-batch-gains-most, round 6's and round 9's phrasings: a least gain, a large batch past "while".
    (SPEEDUP, "Large batches see the least benefit, since each op is already big."),
    (SPEEDUP, "Small batches of cheap ops gain the most, while large batches gain the least."),
    # numpy-is-recorded: the later layers' gradients, a fix, a precision remark beside None.
    (NUMPY, "The gradients of the layers after the conversion are computed, but every variable before it gets None."),
    (NUMPY, "Nothing is recorded across the NumPy part, so the earlier gradients are None; float64 is a separate, smaller issue."),
]  # fmt: skip


test_grade_freetext_names_a_round52_c50_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round52_c50_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


PUMPED = [
    "word " * 2_000,
    "persistent " * 700 + "gradients " * 700 + "add up",
    "reuse " * 300 + "tape.reset " * 300 + "the gradients summed",
    "gain " * 700 + "largest for " * 300 + "deep models",
    "it " * 1_000 + "biggest for big networks",
    "speedup " * 700 + "largest " * 700 + "large batch",
    "gradients computed " * 500 + "but slightly off",
    "variables before it " * 300 + "get None " * 300 + "are fine",
    "a" * 10_000,
]


def test_round52_c50_phrasings_search_pumped_text_in_linear_time() -> None:
    tags = {
        ZERO_GRAD: [TAPE_ACCUMULATES],
        ACCUMULATION: [TAPE_ACCUMULATES],
        SPEEDUP: [BIG_MODELS, LARGE_BATCH],
        NUMPY: [DOWNSTREAM, RECORDED],
    }
    assert_linear_on(phrasings_of_tags(tags), PUMPED)
