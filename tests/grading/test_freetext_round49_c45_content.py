"""Round 49 of issue 14 (engineer C45, rubric content) on five questions (persistent-tape,
higher-order-derivatives, trainable-vs-all-variables, why-none-gradients, training-flag): the
stated tags the rules alone left unnamed, counted per (question, tag, cause) and per pair with a
tag already named, over the tune personas. Kept (each names a not-read answer's stated tag, no
false tell on a correct answer, no exact answer lost): model.variables said to work too, the
same or also (pass-model-variables); a forgotten watch given as the cause of the None gradients
(must-watch-variables); and persistent-tape's first entry for the tape said to differentiate
numerically (tape-is-numerical-differentiation, why-none-gradients' phrasings copied as they
stand). Dropped (strict xfails): "either works", the result said to be the same, the watch on
the model's variables named as the fix in prose (read answers only), and the one-tape
persistence instruction read across its clause cuts (the matcher drops a match that runs into
"and then"). True statements, denials, conditions and precautions sharing the words name
nothing. Statements written for this file (docs/freetext-rounds.md "Round 49: ... (engineer
C45)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

PT = "persistent-tape"
TVA = "trainable-vs-all-variables"
WNG = "why-none-gradients"

# Beliefs in words the rubric did not read (each fails on the round's start commit, 021bbe6).
NEW_WORDS = [
    (TVA, "pass-model-variables", "Handing the optimizer model.variables works just as well in practice."),
    (TVA, "pass-model-variables", "The code runs fine with model.variables too, trainable_variables is only tidier."),
    (WNG, "must-watch-variables", "Most likely you simply forgot tape.watch, so the tape recorded nothing."),
    (WNG, "must-watch-variables", "The usual cause is forgetting tape.watch, so the tape never tracked the layers."),
    (PT, "tape-is-numerical-differentiation", "The tape computes gradients by finite differences, so the second call has nothing left to perturb."),
    (PT, "tape-is-numerical-differentiation", "Because tape.gradient is a numerical approximation, it can only be evaluated once per recording."),
]  # fmt: skip

# True statements, denials, conditions and precautions beside the new words: name nothing.
STILL_TRUE = [
    (TVA, "Passing model.variables does not work the same: the optimizer would get the BatchNorm moving statistics."),
    (TVA, "For a model without BatchNorm, model.variables works the same; with it, the moving statistics would be updated."),
    (TVA, "With model.variables the code runs too, but Keras warns about the None gradients of the moving mean."),
    (TVA, "In PyTorch, model.parameters() works the same way as trainable_variables."),
    (WNG, "If x is a constant tensor and you forgot tape.watch(x), that input gets None; the weights are watched automatically."),
    (WNG, "You did not forget tape.watch: trainable variables are watched by default."),
    (WNG, "The loss was computed after the with block closed, so nothing connects it to the weights."),
    (PT, "The tape does not use finite differences; it walks the recording backwards with the chain rule."),
    (PT, "A numerical check with finite differences is a good way to test the tape's gradients."),
]  # fmt: skip

# Dropped at the end of the round: no gain on the not-read side (read-only names), or the
# matcher's clause cuts.
DROPPED = [
    # (round 52, C51: "Either works in most models, trainable_variables is the convention." is named now by the
    # convention claim; it moved to test_freetext_round52_c51_content.py)
    (TVA, "pass-model-variables", "The result would be the same, just slower."),
    (WNG, "must-watch-variables", "Fix it with tape.watch(model.trainable_variables) at the start of the with block."),
    # (round 50, C47: "Open one tape with persistent=True, compute y inside it, and then call gradient
    # twice." is named now, through the rubric's implied_by; it moved to test_freetext_round50_c47_implied.py)
]  # fmt: skip


test_grade_freetext_names_a_round49_c45_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round49_c45_dropped_phrasings_stay_unnamed = names_the_tell(
    DROPPED,
    tells=tells_by_rules,
    xfail="phrasings dropped: read-only names, or clause cuts the matcher owns (round 49, engineer C45)",
)
test_grade_freetext_round49_c45_true_statements_name_nothing = names_nothing(
    STILL_TRUE, tells=tells_by_rules
)


NEW_PHRASINGS = {
    PT: ("tape-is-numerical-differentiation",),
    TVA: ("pass-model-variables",),
    WNG: ("must-watch-variables",),
}

PUMPED = [
    "model.variables works would work runs the same too as well also fine anyway " * 200,
    "forgot forget forgetting tape.watch watch watching missed omitted " * 250,
    "finite differences numerical numerically differentiation perturb each every variables " * 200,
]


def test_round49_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = phrasings_of_tags(NEW_PHRASINGS)
    assert any("forgot" in p for p in patterns)
    assert any("finite" in p for p in patterns)
    assert_linear_on(patterns, PUMPED)


def test_round49_keyword_salads_name_none_of_the_new_tells() -> None:
    salads = [
        (TVA, "model.variables works same too also fine anyway trainable_variables optimizer"),
        (WNG, "forgot tape.watch watch weights None gradients variables tape"),
        (PT, "finite differences numerical differentiation perturb variables tape gradient"),
    ]
    new_tags = {"pass-model-variables", "must-watch-variables", "tape-is-numerical-differentiation"}
    for qid, text in salads:
        assert not new_tags & set(tells_by_rules(qid, text)), (qid, text)
