"""Round 41 of issue 14 (engineer C29, rubric content) on six questions (persistent-tape,
training-flag, numpy-inside-tape, why-none-gradients, higher-order-derivatives,
trainable-vs-all-variables). First three true statements the rules named a tell on (round 40's
set, now tune), each a phrasing reading more than its claim: "gradient" as the modifier of a call
read as stored gradients (persistent-stores-gradients), apply_gradients' error when every gradient
is None read as an error on one None (none-gradient-crashes-apply), and "only" on the training verb
read as "only frozen layers differ" (only-frozen-layers-differ). The wrong statements beside them
still name their tag. Then beliefs in new words: the tape said to replay the forward pass
(gradient-reruns-forward, new on why-none-gradients), from_logits said to let gradients flow
(from-logits-enables-gradients, new), the tape said to watch only float32 variables
(tape-ignores-fp16-variables, new) and persistence said to let the same tape run on the first
result (persistent-gives-second-order). Statements written for this file, in words of their own
(docs/freetext-rounds.md "Round 41: ... (engineer C29)"). Read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import (
    assert_linear_on,
    phrasings_of_tags,
    phrasings_under,
    tells_by_rules,
)
from tests.grading.held_statements import names_nothing, names_the_tell

# The claims the mended phrasings are for: still named.
WRONG = [
    ("persistent-tape", "persistent-stores-gradients", "A persistent tape stores the computed gradients so the second call just reads them."),
    ("persistent-tape", "persistent-stores-gradients", "It keeps the gradient() results so the second call is cheap."),
    ("trainable-vs-all-variables", "none-gradient-crashes-apply", "apply_gradients raises a ValueError on a None gradient."),
    ("trainable-vs-all-variables", "none-gradient-crashes-apply", "The optimizer throws an exception on None."),
    ("trainable-vs-all-variables", "none-gradient-crashes-apply", "apply_gradients crashes because the moving mean gets a None gradient."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "They differ only when some layers have trainable=False."),
    ("trainable-vs-all-variables", "only-frozen-layers-differ", "It matters only when you fine-tune with frozen layers."),
]  # fmt: skip

# True statements that named a tell before this round (each fails on 67d894e's questions/).
CORRECT = [
    ("persistent-tape", "I keep the del right next to the last gradient call so nobody forgets it."),
    ("persistent-tape", "I keep the gradient call for the second loss so it runs after the first."),
    ("trainable-vs-all-variables", "apply_gradients warns and skips those, or errors if they're all None."),
    ("trainable-vs-all-variables", "apply_gradients raises an error if every gradient is None."),
    ("trainable-vs-all-variables", "When we freeze the encoder and only train the new head, trainable=False moves the encoder weights into non_trainable_variables."),
]  # fmt: skip

# Beliefs in words the rubric did not read (each fails on 67d894e's questions/).
NEW_WORDS = [
    ("why-none-gradients", "gradient-reruns-forward", "The tape replays your forward pass when you ask it for the gradient."),
    ("why-none-gradients", "from-logits-enables-gradients", "from_logits=True is what lets the gradients flow back through the loss."),
    ("why-none-gradients", "from-logits-enables-gradients", "If you forget from_logits=True the gradients come back None."),
    ("numpy-inside-tape", "from-logits-enables-gradients", "Without from_logits=True the gradients are all None."),
    ("why-none-gradients", "tape-ignores-fp16-variables", "GradientTape only watches float32 variables, so the fp16 weights get None."),
    ("trainable-vs-all-variables", "tape-ignores-fp16-variables", "Under mixed_float16 the float16 variables get None gradients."),
    ("higher-order-derivatives", "persistent-gives-second-order", "The persistent tape keeps everything recorded, so you can call gradient as many times as you want, including on the result of the first call."),
]  # fmt: skip

# True statements beside the new words and the mends: named nothing before, name nothing now.
STILL_TRUE = [
    ("why-none-gradients", "tape.gradient walks the recorded operations backwards; it does not replay the forward pass."),
    ("why-none-gradients", "from_logits=True is only about numerical stability; gradients flow either way."),
    ("why-none-gradients", "The tape only watches floating-point variables, float16 and float32 alike."),
    ("trainable-vs-all-variables", "float16 variables are watched like any other."),
    ("trainable-vs-all-variables", "The optimizer only errors out when all the gradients are None."),
    ("persistent-tape", "Keep the tape.gradient() call for the second loss, so it works."),
    ("higher-order-derivatives", "A persistent tape lets you call gradient as many times as you like, but that alone does not give a second derivative."),
    ("higher-order-derivatives", "Nest two tapes; the inner one need not be persistent."),
]  # fmt: skip


test_grade_freetext_names_a_round41_c29_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_names_a_round41_c29_tell_in_new_words = names_the_tell(
    NEW_WORDS, tells=tells_by_rules
)
test_grade_freetext_round41_c29_true_statements_name_nothing = names_nothing(
    CORRECT + STILL_TRUE, tells=tells_by_rules
)

NEW_TAGS = {
    "why-none-gradients": ("gradient-reruns-forward", "from-logits-enables-gradients", "tape-ignores-fp16-variables"),
    "numpy-inside-tape": ("from-logits-enables-gradients",),
    "trainable-vs-all-variables": ("tape-ignores-fp16-variables",),
}  # fmt: skip


def round41_phrasings() -> list[str]:
    """This round's phrasings: every list item under each `# Round 41 (engineer C29)` comment,
    and every phrasing of the misconceptions this round added."""
    mended = phrasings_under(
        "# Round 41 (engineer C29)",
        # round 52 (S2): shared entries keep their phrasings' comments in _misconceptions.yaml
        (
            "persistent-tape",
            "trainable-vs-all-variables",
            "higher-order-derivatives",
            "_misconceptions",
        ),
    )
    return list(dict.fromkeys(mended + phrasings_of_tags(NEW_TAGS)))


PUMPED = [
    "keep the gradients for so " * 400,
    "keep the gradient call so " * 400,
    "apply_gradients errors if all none " * 300,
    "apply_gradients raises on a none " * 300,
    "only train frozen when " * 450,
    "the tape replays the forward pass " * 300,
    "from_logits lets gradients flow back " * 280,
    "from_logits the gradients are none " * 280,
    "the tape only watches float32 " * 330,
    "float16 variables get none " * 380,
    "persistent lets the same tape run the result of the first call " * 160,
]


def test_round41_phrasings_stay_linear_on_pumped_text() -> None:
    patterns = round41_phrasings()
    # 11 mended or new under the comments (each comment's list item run carries on to the older
    # phrasings after it, read as well), then the new misconceptions' 11 distinct phrasings
    assert len(patterns) == 22
    assert_linear_on(patterns, PUMPED)
