"""Round 51 of issue 14 (engineer W9): a tell stated beside a comparison of likeness with another
framework, a reason denied by "not because", and an error warned of inside a bracketed
conditional aside (docs/freetext-rounds.md "Round 51: framework attribution, "not because" and
conditional asides (engineer W9)").

Round 50's C46 left three matcher findings: "..., same problem as in PyTorch" kept a TensorFlow
belief from naming its tell (the tell's guards keep the other framework's name out of the
sentence); "Not because X" left X affirmed; and an error inside "(if you don't ..., ... raises)"
was read as the answer's own claim. Statements written for this file, in words of their own;
read by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.asides import warned_in_conditional_aside
from app.grading.freetext.grader import stated_misconceptions
from app.grading.freetext.likeness import blanked_alike, likeness_twin
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import mask
from app.grading.freetext.polarity import is_affirmed
from tests.grading.core_questions import question, tells_by_rules, verdict_and_concepts_by_rules
from tests.grading.linear_time import assert_linear

NZG, TFS, NIT = "no-zero-grad", "tf-function-speedup", "numpy-inside-tape"


def misconceptions_of(question_id: str) -> list:
    return list(question(question_id).rubric.misconceptions)


PILES_UP, SYMBOLIC, RAISES = (
    "tape-accumulates",
    "tf-function-symbolic-gradients",
    "numpy-raises-error",
)


@pytest.mark.parametrize(
    "text",
    [
        # C46's sentence (round 50): the belief with a comparison of likeness after it
        "If you reuse the tape without resetting, the old gradients add onto the new ones, "
        "same problem as in PyTorch.",
        "The tape adds the old gradients onto the new ones, just like in PyTorch.",
        "The tape accumulates gradients across steps, same as torch does.",
        "The tape adds the old gradients onto the new ones, same issue as with PyTorch.",
        "The tape adds the old gradients onto the new ones, the same problem PyTorch has.",
    ],
)
def test_a_belief_compared_alike_with_pytorch_is_said_of_tensorflow(text: str) -> None:
    assert PILES_UP in tells_by_rules(NZG, text)


@pytest.mark.parametrize(
    "text",
    [
        # about PyTorch: its own topic, as before
        "In PyTorch the old gradients add onto the new ones, so you call zero_grad every step.",
        "In PyTorch gradients accumulate across steps in .grad.",
        # a comparison of difference, or a likeness denied
        "Unlike PyTorch, the tape never adds the old gradients onto the new ones.",
        "The old gradients are not added onto the new ones; it is not like PyTorch at all.",
        # like PyTorch, where ...: the relative clause is PyTorch's
        "It is not like PyTorch, where the old gradients add onto the new ones.",
    ],
)
def test_a_sentence_about_pytorch_names_no_tensorflow_tell(text: str) -> None:
    assert PILES_UP not in tells_by_rules(NZG, text)


def test_pytorch_only_answers_earn_no_tensorflow_concept_credit() -> None:
    text = (
        "In PyTorch you call optimizer.zero_grad() because backward() accumulates into .grad, "
        "just like in JAX you would sum the grads yourself."
    )
    verdict, concepts = verdict_and_concepts_by_rules(NZG, text)
    assert verdict != "correct"
    assert concepts <= {"pytorch-contrast"}


@pytest.mark.parametrize(
    ("text", "blanked"),
    [
        ("same problem as in PyTorch", True),
        ("just like PyTorch does", True),
        ("as torch does", True),
        ("similar to torch", True),
        ("the same problem PyTorch has", True),
        ("it has the same problem, PyTorch has a fix", False),
        ("unlike PyTorch", False),
        ("faster than PyTorch", False),
        ("not like PyTorch", False),
        ("isn't the same as in PyTorch", False),
        ("in PyTorch", False),
        ("like PyTorch, where grads pile up", False),
        ("as soon as PyTorch", False),
    ],
)
def test_which_mentions_are_compared_alike(text: str, blanked: bool) -> None:
    assert ("PyTorch" not in blanked_alike(text) and "torch" not in blanked_alike(text)) is blanked
    assert len(blanked_alike(text)) == len(text)


def test_an_answer_with_no_likeness_has_no_twin() -> None:
    assert (
        likeness_twin(normalise("In PyTorch you zero the grads. The tape does not.").units) is None
    )


def test_the_tell_shows_the_sentence_as_written() -> None:
    text = "The tape adds the old gradients onto the new ones, same problem as in PyTorch."
    stated = stated_misconceptions(text, misconceptions_of(NZG))
    assert stated[PILES_UP].lower() == text.lower()  # the name restored, not blanks


@pytest.mark.parametrize(
    "text",
    [
        # C46's sentence (round 50)
        "Not because the gradients are derived analytically: the speedup is the graph running "
        "without Python.",
        "It is faster not because the gradients are derived analytically, but because Python "
        "overhead is removed.",
        "It isn't because the gradients are computed symbolically; the Python overhead goes.",
    ],
)
def test_not_because_denies_the_reason(text: str) -> None:
    assert SYMBOLIC not in tells_by_rules(TFS, text)


@pytest.mark.parametrize(
    "text",
    [
        "It is faster because the gradients are derived analytically.",
        # "not just because": X and more
        "It is faster not just because the gradients are derived analytically, but also "
        "because of the graph.",
        # the clause after "but because" is its own
        "Not because of Python, but because the gradients are derived analytically.",
    ],
)
def test_a_reason_not_denied_is_still_read(text: str) -> None:
    assert SYMBOLIC in tells_by_rules(TFS, text)


def test_not_because_reaches_its_clause_only() -> None:
    text = "not because the tape records it, the tape records it"
    masked = mask(text)
    first = text.index("the tape records")
    second = text.rindex("the tape records")
    assert not is_affirmed(masked, first, first + 16)
    assert is_affirmed(masked, second, second + 16)


@pytest.mark.parametrize(
    "text",
    [
        "Every variable before the conversion gets None from tape.gradient (if you don't check "
        "for that, the training step raises an error).",
        "The variables before it get None gradients (unless you skip them the update raises an "
        "exception).",
    ],
)
def test_an_error_warned_of_in_a_conditional_aside_is_no_tell(text: str) -> None:
    assert RAISES not in tells_by_rules(NIT, text)


@pytest.mark.parametrize(
    "text",
    [
        "Calling .numpy() inside the tape raises an error.",
        # an aside without a condition states what it says
        "Calling .numpy() inside the tape (on a symbolic tensor) raises an error.",
        "The gradient is lost (the numpy call raises an error inside the tape).",
    ],
)
def test_an_error_outside_a_conditional_aside_is_read_as_before(text: str) -> None:
    assert RAISES in tells_by_rules(NIT, text)


def test_the_readings_are_linear_in_the_answer() -> None:
    pumped = [
        "same as in PyTorch " * 2000,
        "like " * 8000 + "PyTorch",
        "not because " * 3000,
        "(if " + "error " * 6000 + ")",
        "(" * 4000 + "if error",
    ]

    def read(text: str) -> None:
        masked = mask(text)
        blanked_alike(text)
        warned_in_conditional_aside(masked, 1, min(len(masked), 40))
        is_affirmed(masked, len(masked) // 2, len(masked) // 2 + 5)

    for text in pumped:
        assert_linear(read, text, what=text[:30])


TVA = "trainable-vs-all-variables"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # round 50's false tells on correct answers (study-group-explainer, tamil-native-engineer)
        (
            "trainable_variables is the filtered list, and it's the same list on both lines so "
            "grads and vars line up in the zip.",
            "variables-are-the-same",
        ),
        (
            "If we pass them, tape.gradient gives None for them since there is no gradient path, "
            "apply_gradients will warn about it, and for frozen layers it is wasted work.",
            "pass-model-variables",
        ),
    ],
)
def test_round_50s_false_tells_on_correct_answers_are_gone(text: str, tag: str) -> None:
    assert tag not in tells_by_rules(TVA, text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        (
            "They're the same list for most models, one is just the older name.",
            "variables-are-the-same",
        ),
        ("Passing model.variables is fine; it's just wasted work.", "pass-model-variables"),
    ],
)
def test_the_beliefs_themselves_are_still_named(text: str, tag: str) -> None:
    assert tag in tells_by_rules(TVA, text)
