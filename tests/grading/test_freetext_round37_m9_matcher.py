"""Round 37 of issue 14 (engineer M9): matcher causes left by round 36 (docs/freetext-rounds.md
"Round 37: matcher causes left by round 36 (engineer M9)").

1. Chat abbreviations of "because" ("bc", "b/c", "cuz", "coz", "bcz", "'cause") and of
   "without" ("w/o") are read as the words (normalise._SPELLINGS): "bc" parts clauses as
   "because" does, "w/o X" denies X as "without X" does. Names in code stay as written.
2. A lead-in before code ("Use one tape around all four micro-batches:") was cut as padding:
   none of its seven words counted as glue. The other prepositions ("around", "throughout",
   ...) and the quantifying determiners ("all", "each", "every", ...) are glue
   (signals._GLUE); a bag of terms is still cut.
3. "That's why ..." / ", which is why ...": the demonstrative is the statement before, and
   the clause after "why" has its own subject, so a claim takes no role across it
   (subjects.demonstrative_subject, claims._PRONOUN_SUBJECT).

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import clean
from app.grading.freetext.signals import without_padding
from app.grading.freetext.subjects import demonstrative_subject
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("no reset bc the tape is new", "no reset because the tape is new"),
        ("No reset b/c of the tape", "No reset because of the tape"),
        (
            "fine cuz it's fresh, coz yes, bcz so, 'cause why",
            "fine because it's fresh, because yes, because so, because why",
        ),
        ("W/o zero_grad they pile up", "without zero_grad they pile up"),
        # names in code, paths and calls stay
        ("bc = tf.constant(1.0)", "bc = tf.constant(1.0)"),
        ("print(bc) and f(a, bc)", "print(bc) and f(a, bc)"),
        ("x = a/b/c + bc.sum()", "x = a/b/c + bc.sum()"),
        ("y = tf.cos(x)", "y = tf.cos(x)"),
    ],
)
def test_chat_abbreviations_are_read_as_the_words(written: str, read: str) -> None:
    assert clean(written)[0] == read


@pytest.mark.parametrize("because", ["bc", "b/c", "cuz", "coz"])
def test_an_abbreviated_because_parts_the_denial_from_the_reason(because: str) -> None:
    # the denial of "don't need zero_grad" no longer reaches over the reason after "bc"
    text = f"You don't need zero_grad {because} the tape hands back fresh gradients on every call."
    assert "fresh-gradients" in concepts_by_rules("no-zero-grad", text)


@pytest.mark.parametrize("without", ["w/o", "W/o"])
def test_an_abbreviated_without_denies_its_object(without: str) -> None:
    text = f"{without} persistent=True the second gradient call raises an error."
    assert "persistent-true" not in concepts_by_rules("persistent-tape", text)


LEAD_IN = "Use one tape around all four micro-batches:\n```python\nwith tf.GradientTape() as tape:\n    for x, y in micro_batches:\n        loss += loss_fn(y, model(x))\n```"

WRONG = [
    ("gradient-accumulation", "single-tape-over-micro-batches", LEAD_IN),
    ("gradient-accumulation", "single-tape-over-micro-batches", "Keep one tape around all four micro-batches."),
]  # fmt: skip

CORRECT = [
    # 3. "always" is the second sentence's, "runs" the first's: no claim takes both
    ("training-flag", "Without it the model runs in inference mode. That's why you always see it passed in custom loops."),
    ("training-flag", "Without the flag the layers run in inference mode. That is why people always set it in custom loops."),
]  # fmt: skip

test_grade_freetext_round37_m9_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round37_m9_tell = names_the_tell(WRONG, tells=tells_by_rules)


@pytest.mark.parametrize(
    "sentence",
    [
        "Use one tape around all four micro-batches",
        "Keep one tape open throughout all four micro-batches",
        "Each micro-batch gets its own tape around every forward pass",
    ],
)
def test_a_statement_with_prepositions_and_determiners_is_no_padding(sentence: str) -> None:
    assert without_padding(sentence) == sentence


def test_a_bag_of_terms_with_glue_words_in_it_is_still_padding() -> None:
    bag = "It records ops: tape gradient all persistent variable loss around optimizer watch record apply chain"
    assert without_padding(bag) == "It records ops:"


@pytest.mark.parametrize(
    ("sentence", "subject"),
    [
        ("That's why you always pass it.", False),
        ("This is because the tape is gone.", False),
        ("That was how it worked.", False),
        ("That gives you the same gradient.", True),
        ("That's TF's version of zero_grad.", True),
    ],
)
def test_a_statement_connective_is_no_demonstrative_subject(sentence: str, subject: bool) -> None:
    assert demonstrative_subject(sentence) is subject


HOSTILE = {
    "abbreviations": ("bc w/o b/c cuz the tape, bc of it w/o zero_grad " * 220)[:10_000],
    "connectives": ("That's why it always runs. which is why it always runs, " * 180)[:10_000],
    "glue": ("one tape around all four micro-batches each every " * 200)[:10_000],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for qid in ("no-zero-grad", "training-flag", "gradient-accumulation"):
        assert_grades_in_linear_time(qid, HOSTILE[name])
