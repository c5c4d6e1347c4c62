"""Round 31 of issue 14 (engineer M3): claims read too far, pronoun subjects and round 30's
left matcher causes (docs/freetext-rounds.md "Round 31: claims read too far and pronoun
subjects (engineer M3)").

1. A match whose only words after a ";" are the next clause's own subject, its copula dropped
   ("...; heavy network like a big CNN already GPU bound"), reads too far; a sentence that
   opens on "It" after a sentence whose first clause is a condition ("If the loss was computed
   ..., the tape has no record. It doesn't raise ...") does not take that condition as its
   subject.
2. A cause whose subject is a pronoun ("..., (usually) because it's computed outside the
   block") states it of the clause before's subject.
3. An alternative bracketed by commas ("the logits were computed, or the loss evaluated,
   outside the tape") cuts no clause.
4. A negation without its apostrophe ("isnt", "wont", "doesnt") or with an accent for it
   ("doesn´t") is the contraction.
5. `.grad` before a contrast that fronts TensorFlow's clause names PyTorch.
6. Dictated brackets ("tape dot watch open bracket x close bracket") are brackets.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import clean
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

CORRECT = [
    # 1. read too far: across ";" into a subject with its copula dropped; across two
    # sentences into a condition
    ("tf-function-speedup", "So models with many tiny ops benefit most, e.g. a small MLP with many steps; heavy network like a big CNN with big batch already GPU bound, speedup only little."),
    ("tf-function-speedup", "Programs of many small ops gain most, for instance an RNN with long sequences; large model such as BERT already compute bound, little gain."),
    ("why-none-gradients", "If the loss was computed before entering the block, the tape has no record of it. It doesn't raise an error because None is a legitimate answer."),
    # 4. negations without their apostrophe
    ("why-none-gradients", "Calling tape.watch on the loss wont help here."),
    ("no-zero-grad", "Clearing the gradients each step isnt needed in TensorFlow."),
    ("no-zero-grad", "optimizer.zero_grad() isnt part of the TF API."),
    ("gradient-vs-apply", "tape.gradient doesn\u00b4t update the weights; apply_gradients does."),
    # 5. `.grad` before a contrast with TensorFlow
    ("no-zero-grad", "Gradients add up in .grad so you must zero them, whereas in TensorFlow every call returns fresh gradients."),
    ("no-zero-grad", "Gradients keep summing into .grad and you clear them every iteration, but TF hands back new tensors on every call."),
    # guards: `.grad` alone names no framework; a dictated code line with nested brackets
    ("no-zero-grad", "TensorFlow returns fresh tensors; nothing piles up in .grad, so there is nothing to clear."),
    ("gradient-accumulation", "loss equals loss fn open bracket y comma model open bracket x close bracket close bracket divided by four, then grads equals tape dot gradient open bracket loss comma model dot trainable variables close bracket, added into the accumulators."),
]  # fmt: skip

WRONG = [
    # guards: the tell is still read in its own clause, across ";" with a pronoun going on,
    # and across sentences from a main clause
    ("tf-function-speedup", "big-models-gain-most", "Big models gain the most; small ones barely notice."),
    ("no-zero-grad", "tape-accumulates", "The tape accumulates gradients across steps; it never resets them."),
    ("why-none-gradients", "outside-tape-raises-error", "The loss was computed outside the tape. It raises an error when you call gradient."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient updates the weights; apply_gradients only logs them."),
]  # fmt: skip

test_grade_freetext_round31_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round31_tell = names_the_tell(WRONG, tells=tells_by_rules)


@pytest.mark.parametrize(
    ("question_id", "text", "concept"),
    [
        # 2. a pronoun subject after "because" / "since", an adverb between
        (
            "why-none-gradients",
            "The loss isn't connected to the weights because it's computed outside the with block.",
            "loss-outside-block",
        ),
        (
            "why-none-gradients",
            "The loss has no path to the weights, most likely because it was computed outside the tape.",
            "loss-outside-block",
        ),
        (
            "why-none-gradients",
            "The loss has no path to the weights, probably since it was computed outside the tape.",
            "loss-outside-block",
        ),
        # 3. an alternative bracketed by commas
        (
            "why-none-gradients",
            "Either the model was called, or the loss computed, before the with block.",
            "loss-outside-block",
        ),
        # 4. an apostrophe typed as an accent
        (
            "gradient-vs-apply",
            "tape.gradient doesn\u00b4t update the weights; apply_gradients does.",
            "gradient-no-update",
        ),
    ],
)
def test_a_round31_statement_credits_its_concept(question_id: str, text: str, concept: str) -> None:
    assert concept in concepts_by_rules(question_id, text)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("grads arent accumulated", "grads aren't accumulated"),
        ("TF doesnt. It wont. You cant.", "TF doesn't. It won't. You can't."),
        ("DOESNT isnt", "DOESN'T isn't"),
        ("it isn`t and don\u00b4t", "it isn't and don't"),
        (
            "tape dot watch open bracket model dot trainable variables close bracket",
            "tape.watch(model.trainable_variables)",
        ),
        (
            "tape dot gradient open bracket loss comma model dot trainable variables close bracket",
            "tape.gradient(loss, model.trainable_variables)",
        ),
        ("optimizer dot zero grad open and close brackets", "optimizer.zero_grad()"),
        ("f open bracket g open bracket x close bracket close bracket", "f(g(x))"),
        # guards: words, not contractions or brackets
        ("the student wants it", "the student wants it"),
        ("as is his wont", "as is his wont"),
        ("leave the bracket open. Close bracket.", "leave the bracket open. Close bracket."),
    ],
)
def test_dropped_apostrophes_and_dictated_brackets(written: str, read: str) -> None:
    assert clean(written)[0] == read


def test_a_bracketed_alternative_cuts_no_clause() -> None:
    assert "," not in mask("the model was called, or the loss computed, before the block")
    assert mask("a, or b, c") == "a, or b, c"  # no shared complement after it: a list


HOSTILE = {
    "semicolons before noun phrases": ("big model gain most with x; heavy model like y " * 220)[
        :10_000
    ],
    "because it after adverbs": ("the loss, usually because it, " * 340)[:10_000],
    "bracketed alternatives": ("the model was called, or the loss computed, " * 230)[:10_000],
    "apostrophes dropped": ("doesnt isnt arent wont cant " * 360)[:10_000],
    "brackets opened, never closed": ("tape dot watch open bracket x " * 340)[:10_000],
    "nested dictated brackets": ("open bracket " * 400 + "x " + "close bracket " * 300)[:10_000],
    ".grad before contrasts": ("in .grad so " * 800 + "whereas in TensorFlow")[-10_000:],
    "conditions before it": ("If the loss was after the block, x. It raises. " * 210)[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for question_id in ("why-none-gradients", "tf-function-speedup"):
        assert_grades_in_linear_time(question_id, HOSTILE[name])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_clean_and_mask_in_linear_time(name: str) -> None:
    # clean() cuts at 5,000 characters; mask() reads all 10,000
    assert_linear(lambda text: (clean(text), mask(text)), HOSTILE[name], what=name)
