"""Round 42 of issue 14 (engineer K2): concept phrasings that credited by a keyword or a list
of keywords, with no predicate about their subject, now need one. A sentence that only names
the thing ("I prefer Adam", "RNNs are a kind of network", "the outer tape is watching
everything") earns no concept; the claim said of its subject still does. Statements written for
this file, in words of their own (docs/freetext-rounds.md "Round 42: concept credit by keyword
list, and required concepts correct answers lose (engineer K2)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_under,
    verdict_and_concepts_by_rules,
)

QUESTIONS = [
    "gradient-vs-apply",
    "gradient-accumulation",
    "no-zero-grad",
    "tf-function-speedup",
    "persistent-tape",
    "training-flag",
    "numpy-inside-tape",
    "higher-order-derivatives",
]

# (question, concept, a sentence that only names the keyword: credited before this round)
NAMED_ONLY = [
    ("gradient-vs-apply", "apply-rule", "I prefer Adam for most of my projects."),
    ("gradient-vs-apply", "gradient-computes", "Backpropagation is a classic algorithm from the eighties."),
    ("gradient-accumulation", "scale", "gradient_accumulation_steps is a name I have seen in Keras."),
    ("gradient-accumulation", "add-each", "gradient_accumulation_steps is a name I have seen in Keras."),
    ("gradient-accumulation", "apply-every-n", "gradient_accumulation_steps is a name I have seen in Keras."),
    ("no-zero-grad", "fresh-gradients", "Gradients recomputed."),
    ("tf-function-speedup", "small-models", "RNNs are a kind of network with a hidden state."),
    ("persistent-tape", "persistent-true", "A persistent tape keeps everything it recorded across the training steps."),
    ("persistent-tape", "use-case", "Two losses get summed into one scalar first."),
    ("training-flag", "consequence", "The weights of the first layer stay frozen."),
    ("training-flag", "consequence", "Dropout helps a network generalize."),
    ("training-flag", "layers-differ", "Training mode is a Keras concept."),
    ("numpy-inside-tape", "keep-tf-ops", "The model is built from tf.keras layers."),
    ("higher-order-derivatives", "watch-constant", "The outer tape is watching everything."),
    ("higher-order-derivatives", "nest-tapes", "Two tapes are used side by side, one per loss."),
]  # fmt: skip

# (question, concept, the claim said of its subject: credited)
CLAIMED = [
    ("gradient-vs-apply", "apply-rule", "apply_gradients uses the learning rate and the momentum buffers."),
    ("gradient-vs-apply", "gradient-computes", "tape.gradient runs the chain rule over the recorded ops."),
    ("gradient-vs-apply", "gradient-computes", "tape.gradient = backward pass; apply_gradients = the update."),
    ("gradient-accumulation", "scale", "Pass gradient_accumulation_steps=4 to the optimizer."),
    ("gradient-accumulation", "scale", "Newer optimizers take a gradient_accumulation_steps option that does all of this for you."),
    ("no-zero-grad", "fresh-gradients", "They are recomputed from the tape on every call."),
    ("no-zero-grad", "fresh-gradients", "tape.gradient recomputes them each step."),
    ("tf-function-speedup", "small-models", "RNNs with a Python loop over time steps benefit most."),
    ("tf-function-speedup", "small-models", "The biggest wins are for RNNs and other loops of tiny ops."),
    ("persistent-tape", "persistent-true", "You need a persistent tape here."),
    ("persistent-tape", "use-case", "Take the gradients of two losses from one forward pass."),
    ("training-flag", "consequence", "The moving statistics stay frozen at their initial values."),
    ("training-flag", "consequence", "The model overfits because dropout never runs."),
    ("training-flag", "layers-differ", "It runs the layers in training mode."),
    ("numpy-inside-tape", "keep-tf-ops", "Replace np.exp with tf.exp so the tape records it."),
    ("higher-order-derivatives", "watch-constant", "x is a constant, so both tapes must watch it."),
    ("higher-order-derivatives", "watch-constant", "Variables are watched automatically, constants are not."),
    ("higher-order-derivatives", "nest-tapes", "two tapes, the inner inside the outer."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "concept", "text"), NAMED_ONLY)
def test_a_keyword_named_alone_earns_no_concept(question: str, concept: str, text: str) -> None:
    assert concept not in verdict_and_concepts_by_rules(question, text)[1]


@pytest.mark.parametrize(("question", "concept", "text"), CLAIMED)
def test_the_claim_about_its_subject_still_credits(question: str, concept: str, text: str) -> None:
    assert concept in verdict_and_concepts_by_rules(question, text)[1]


PUMPED = [
    "tape " * 1500,
    "the model is " * 500,
    "two tapes two tapes " * 300,
    "rnns rnns benefit " * 400,
    "watch watch x " * 500,
    "tf.exp tf.exp use " * 400,
    "gradients are " * 700,
    "gradient_accumulation_steps = " * 200,
]


def test_round42_k2_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_under("Round 42 (engineer K2)", QUESTIONS)
    assert len(patterns) >= 20
    assert_linear_on(patterns, PUMPED)
