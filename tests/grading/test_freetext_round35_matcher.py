"""Round 35 of issue 14 (engineer M7): matcher causes left by round 34 (docs/freetext-rounds.md
"Round 35: matcher causes left by round 34 (engineer M7)").

1. A claim's excluded role (`!(...)`) starts at a word's start, as a role does: "!(nest)" is not
   in "honest", "!(inner)" not in "beginner", "!(if)" not in "differentiate". Its end stays open
   (rubric authors write stems: "!(small)" keeps out "smaller").
2. A match after "even if" in its clause, or the object of a wish ("if you want X, ...",
   "Want X?"), is supposed, not claimed: it names no tell (hypotheses.py).
3. A claim put as a question to oneself ("X, right?", "X, I think?") is taken back by the "no"
   that answers it: bare at the start of the next sentence, or after words that go on with the
   question ("Like, when you ... no, actually ...").
4. A reset's denied purpose read where the clause before "so" names the reset by a pronoun
   ("TF has tape.reset(): run it every step so ...").

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.hypotheses import supposed
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import mask
from app.grading.freetext.retraction import withdraw
from tests.grading.core_questions import (
    assert_grades_in_linear_time,
    concepts_by_rules,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell
from tests.grading.linear_time import assert_linear

WRONG = [
    # 1. the excluded "nest" / "inner" no longer found inside "honest" / "beginner"
    ("higher-order-derivatives", "tape-first-order-only", "To be honest, the tape only does first-order derivatives."),
    ("higher-order-derivatives", "tape-first-order-only", "As a beginner I learned that a tape only gives first-order gradients."),
    # 2. guards: the claim is the main clause's, or the advice after the wish
    ("no-zero-grad", "tape-accumulates", "Even if you call apply_gradients, the gradients still accumulate across steps."),
    ("no-zero-grad", "needs-zero-grad", "If you want fresh gradients you have to call zero_grad every step."),
    # 3. guards: a question answered "No." then the claim asserted; a claim after a plain "No,"
    ("gradient-vs-apply", "gradient-updates-weights", "Does tape.gradient change the weights? No. tape.gradient changes the weights and apply_gradients too."),
    ("gradient-vs-apply", "gradient-updates-weights", "No, tape.gradient changes the weights itself, apply_gradients only logs the step."),
]  # fmt: skip

CORRECT = [
    # guards: "nest" as a word still keeps the sentence out; a denial in the main clause
    ("no-zero-grad", "Even if one tape were reused for several steps, nothing would pile up: each gradient call gives new tensors."),
    ("higher-order-derivatives", "For higher orders you nest tapes, since one tape only gives first-order gradients."),
    # 2. a supposition after "even if"
    ("no-zero-grad", "Even if the tape is held across iterations, the gradients don't add up."),
    ("no-zero-grad", "Even if the same tape is kept across steps, gradients do not pile up."),
    # 2. the object of a wish
    ("no-zero-grad", "If you want gradients accumulated across steps, keep your own accumulators."),
    ("no-zero-grad", "Want gradients accumulated across steps? Keep your own accumulators."),
    # 3. a question to oneself answered "no"
    ("gradient-vs-apply", "So tape.gradient changes the weights too? No, it only returns the gradients and apply_gradients changes the weights."),
    ("gradient-vs-apply", "tape.gradient changes the weights too, right? No, it only returns the gradients; apply_gradients changes the weights."),
    ("gradient-vs-apply", "tape.gradient also changes the weights, I think? Like, when you call it... no, actually it only returns the gradients, apply_gradients does the change."),
    ("gradient-vs-apply", "tape.gradient changes the weights as well, doesn't it? Well, when you call it... hmm, no, it only returns the gradients; apply_gradients does the change."),
    ("gradient-vs-apply", "So tape.gradient changes the weights too? Or not... no, it only returns the gradients and apply_gradients changes the weights."),
]  # fmt: skip

test_grade_freetext_round35_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
test_grade_freetext_names_a_round35_tell = names_the_tell(WRONG, tells=tells_by_rules)


@pytest.mark.parametrize(
    ("text", "claim", "read"),
    [
        ("The tape records every op you differentiate.", "(tape) & (records?) & !(if)", True),
        (
            "You adjust the rate and the tape records the ops.",
            "(tape) & (records?) & !(just)",
            True,
        ),
        ("If you differentiate, the tape records the ops.", "(tape) & (records?) & !(if)", False),
        ("The tape just records the ops.", "(tape) & (records?) & !(just)", False),
        ("The tape records the ops on smaller models.", "(tape) & (records?) & !(small)", False),
        ("It records p.grad and the tape records ops.", "(tape) & (records?) & !(\\.grad)", False),
    ],
)
def test_an_excluded_role_starts_at_a_word_start(text: str, claim: str, read: bool) -> None:
    assert bool(find_phrasings(normalise(text).units, [claim])) is read


@pytest.mark.parametrize(
    ("sentence", "word", "is_supposed"),
    [
        ("even if the tape is kept across steps, the sums stay", "tape", True),
        ("even if the tape is kept across steps, the sums stay", "sums", False),
        ("nothing piles up even if the tape is kept", "tape", True),
        ("if you want the gradients summed, keep accumulators", "gradients", True),
        ("if you want fresh gradients you must call zero_grad", "must", False),
        ("i want to stress that the gradients are summed", "gradients", False),
        ("even though the tape is kept, the sums stay", "tape", False),
    ],
)
def test_supposed(sentence: str, word: str, is_supposed: bool) -> None:
    masked = mask(sentence)
    start = masked.index(word)
    assert supposed(masked, start, start + len(word)) is is_supposed


@pytest.mark.parametrize(
    ("sentences", "kept"),
    [
        (["X is Y, right?", "No, it is Z."], ["", "it is Z."]),
        (["X is Y, I think?", "Like, when you call it... no, actually it is Z."], ["", "it is Z."]),
        (["X is Y?", "Or not... no, it is Z."], ["", "it is Z."]),
        # no question before: "no" answers the prompt and is kept
        (["X is Y.", "No, it is Z."], ["X is Y.", "No, it is Z."]),
        # "X? No." alone is a verdict on X (polarity.judged_false), not a retraction
        (["X is Y?", "No."], ["X is Y?", "No."]),
        # a determiner "no" after a question withdraws nothing
        (["Is X Y?", "No gradient flows there."], ["Is X Y?", "No gradient flows there."]),
    ],
)
def test_a_question_to_oneself_answered_no(sentences: list[str], kept: list[str]) -> None:
    assert withdraw(sentences) == kept


def test_a_reset_named_by_a_pronoun_has_a_purpose() -> None:
    text = (
        "TensorFlow has tape.reset(): run it every step so gradients don't accumulate across steps."
    )
    assert "fresh-gradients" not in concepts_by_rules("no-zero-grad", text)
    assert "fresh-gradients" in concepts_by_rules(
        "no-zero-grad",
        "Use a new tape, and do it every step so gradients don't accumulate across steps.",
    )


HOSTILE = {
    "even if": ("even if the tape is kept across steps the gradients pile up " * 160)[:10_000],
    "wishes": ("if you want the gradients summed you want them to accumulate " * 160)[:10_000],
    "questions": ("the tape keeps the gradients, right? no, it returns them. " * 170)[:10_000],
    "unpunctuated questions": ("the tape keeps them right or not no it returns them " * 190)[
        :10_000
    ],
    "pronoun resets": ("reset the tape and call it so the gradients do not pile up " * 170)[
        :10_000
    ],
    "excluded stems": ("to be honest as a beginner the tape only gives first order " * 170)[
        :10_000
    ],
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_new_shapes_grade_in_linear_time(name: str) -> None:
    for qid in ("no-zero-grad", "gradient-vs-apply", "higher-order-derivatives"):
        assert_grades_in_linear_time(qid, HOSTILE[name])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_withdraw_and_supposed_are_linear(name: str) -> None:
    def read(text: str) -> None:
        withdraw([s + "?" for s in text.split("?")])
        masked = mask(text)
        for start in range(0, len(masked), 50):
            supposed(masked, start, min(len(masked), start + 40))

    assert_linear(read, HOSTILE[name], what=name)
