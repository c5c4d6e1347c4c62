"""Round 34 of issue 14 (engineer M6): matcher causes left by rounds 32-33 (docs/freetext-rounds.md
"Round 34: matcher causes left by rounds 32-33 (engineer M6)").

1. "and" before "your", "my" or "our" opens a new statement, as "and the" does: "... doesn't
   move them and your loss stays flat" states the flat loss (the "doesn't" is the first
   clause's).
2. A hedge of knowledge or manner set off by commas ("It is not, as far as I know, possible
   to ...", "..., of course, ...") cuts no clause: a denial before it reaches past it.
3. A denial of possibility after the statement ("computing X from one pass isn't possible",
   "... is impossible") judges it false, as "... isn't needed" does.
4. MLX is another framework: a statement about it is no claim about TensorFlow.
5. "No, hmm" / "no, um" after a claim takes it back, as "hmm, no" does (a hedged
   self-question answered by the speaker: "X, or does it? No, hmm, Y").
6. A claim of one role and excluded ones (`X ~ Y & !(Z)`) reads its role as the phrasing
   `X ~ Y` does, across a comma-bounded phrase, outside the sentences that say Z.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.phrasings import TERMINATOR, mask
from app.grading.freetext.polarity import judged_false
from app.grading.freetext.retraction import withdraw
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

WRONG = [
    # 1. "and your / our" opens the flat-loss statement
    ("training-flag", "missing-flag-stops-learning", "The model doesn't switch modes and your loss stays flat."),
    ("training-flag", "missing-flag-stops-learning", "Leaving the flag off doesn't raise anything and our loss just stays flat."),
    # 2. a denial before a hedge of knowledge or manner
    ("persistent-tape", "separate-gradients-impossible", "It is not, to my knowledge, possible to compute the gradient of each loss from one single forward pass."),
    # 3. a denial of possibility after the statement
    ("persistent-tape", "separate-gradients-impossible", "Extracting each loss's gradient out of a single forward pass is, of course, not possible."),
    ("persistent-tape", "separate-gradients-impossible", "Computing separate gradients from one forward pass isn't possible."),
    # 6. a one-role claim read across a comma-bounded phrase
    ("gradient-vs-apply", "apply-needs-loss", "apply_gradients picks the step size by itself: the optimizer does, on every call, a line search along the gradient."),
    ("gradient-vs-apply", "apply-needs-loss", "The optimizer is basically, under the hood, a line search along the gradient."),
]  # fmt: skip

CORRECT = [
    # 1. the second denial is the second clause's own: it no longer cancels the first
    ("no-zero-grad", "Gradients don't pile up in TensorFlow and your optimizer never needs zero_grad."),
    # 4. a statement about MLX
    ("training-flag", "In MLX the model is in training mode by default, but Keras layers default to inference unless you pass training=True."),
    # guards: named nothing at the start, kept
    ("persistent-tape", "With persistent=True it is, of course, possible to get separate gradients from one forward pass."),
    ("persistent-tape", "Calling gradient twice on a default tape is not possible; set persistent=True."),
    ("training-flag", "Compared with MLX, where a module trains by default, Keras needs training=True for dropout."),
    # 5. a claim taken back by "no, hmm" / "no, um"
    ("gradient-vs-apply", "tape.gradient updates the weights as well, or does it? No, hmm, it only hands back the gradients; apply_gradients changes the weights."),
    ("gradient-vs-apply", "tape.gradient changes the weights too. No, um, it just returns the gradients, and apply_gradients does the update."),
    # 6. the excluded role still keeps a sentence out
    ("gradient-vs-apply", "Unlike scipy's minimize, the optimizer does, on every call, no line search at all: one step of its rule."),
]  # fmt: skip

test_grade_freetext_round34_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round34_tell = names_the_tell(WRONG, tells=tells_by_rules)


def test_a_denial_reaches_past_a_hedge_aside() -> None:
    text = (
        "tape.gradient does not, as far as I know, update the weights; apply_gradients does that."
    )
    assert "gradient-no-update" in concepts_by_rules("gradient-vs-apply", text)
    assert tells_by_rules("gradient-vs-apply", text) == []


def test_a_like_mlx_comparison_is_still_about_tensorflow() -> None:
    tells = tells_by_rules(
        "no-zero-grad", "Like MLX, TensorFlow needs you to call zero_grad every step."
    )
    assert "needs-zero-grad" in tells


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        ("It is not, as far as I am aware, possible to do that", 1),
        ("The tape is, of course, not persistent", 1),
        ("It is not, in my experience, a problem", 1),
        # guards: an opinion hedge and any other aside still cut
        ("It is not, I think, possible to do that", 3),
        ("It is not, sadly, possible to do that", 3),
        ("the loss, the logits, the labels", 3),
    ],
)
def test_a_hedge_aside_cuts_no_clause(sentence: str, clauses: int) -> None:
    masked = mask(sentence)
    assert len(masked) == len(sentence)
    assert len(TERMINATOR.findall(masked)) + 1 == clauses


@pytest.mark.parametrize(
    ("after", "denied"),
    [
        (" is not possible.", True),
        (" isn't possible", True),
        (" is impossible", True),
        (" is not really possible", True),
        # guards: possibility affirmed, or something else denied
        (" is possible with a persistent tape", False),
        (" is not persistent", False),
    ],
)
def test_a_postposed_denial_of_possibility(after: str, denied: bool) -> None:
    text = mask("getting both gradients from one pass" + after)
    assert judged_false(text, len("getting both gradients from one pass")) is denied


@pytest.mark.parametrize(
    ("sentences", "kept"),
    [
        (["X updates them.", "No, hmm, it returns them."], ["", "it returns them."]),
        (["X updates them.", "No, um, it returns them."], ["", "it returns them."]),
        # an answer's first "no, um" takes back nothing before it; guards: "no" as a determiner
        (["No, um, you never need it."], ["you never need it."]),
        (
            ["X updates them.", "No umbrella is needed."],
            ["X updates them.", "No umbrella is needed."],
        ),
        (["X updates them.", "No error is raised."], ["X updates them.", "No error is raised."]),
    ],
)
def test_no_then_a_hesitation_takes_the_claim_back(sentences: list[str], kept: list[str]) -> None:
    assert withdraw(sentences) == kept


HOSTILE = {
    "hedge asides": ("it is not, as far as i know, possible, of course, " * 200)[:10_000],
    "unpunctuated hedges": ("it is not as far as i am aware possible to obtain " * 200)[:10_000],
    "and your": ("the flag does not matter and your loss stays flat " * 210)[:10_000],
    "postposed denials": (
        "computing separate gradients from one forward pass isn't possible " * 150
    )[:10_000],
    "no hmm": ("the tape updates them. no, hmm, it returns them. " * 200)[:10_000],
    "one-role claims": ("the optimizer does, on every call, a line search, " * 200)[:10_000],
    "mlx mentions": ("in mlx the model is in training mode by default unlike mlx " * 170)[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for question_id in ("training-flag", "persistent-tape", "no-zero-grad", "gradient-vs-apply"):
        assert_grades_in_linear_time(question_id, HOSTILE[name])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_mask_and_clause_ends_are_linear(name: str) -> None:
    assert_linear(lambda text: TERMINATOR.findall(mask(text)), HOSTILE[name], what=name)
