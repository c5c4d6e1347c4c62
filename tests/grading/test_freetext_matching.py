"""Units of the free-text grader: normalising answers, negation scope and answer shape."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.lemmas import is_base_verb
from app.grading.freetext.matching import find_hits
from app.grading.freetext.normalise import MAX_CHARS, Unit, clean, normalise, split_units
from app.grading.freetext.signals import is_keyword_list

UPDATES = r"tape\.gradient ~ (updates?|changes?) ~ (weights|variables)"

POLARITY = [
    ("tape.gradient updates the weights.", True),
    ("tape.gradient does not update the weights.", False),
    ("tape.gradient doesn't update the weights.", False),
    ("tape.gradient never changes the variables.", False),
    ("tape.gradient dont update the weights.", False),
    ("It is not true that tape.gradient updates the weights.", False),
    ("It is not true that tape.gradient doesn't update the weights.", True),
    ("The optimizer, rather than tape.gradient, changes the variables.", False),
    ("apply_gradients, instead of tape.gradient, updates the weights.", False),
    ("It's a common misconception that tape.gradient updates the weights.", False),
    ("Beginners often think tape.gradient updates the weights.", False),
    ("Not only does tape.gradient update the weights, it also logs.", True),
    ("I'm not sure, but tape.gradient updates the weights.", True),
    ("Don't worry - tape.gradient updates the weights.", True),
    ("Without it, tape.gradient updates the weights.", True),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "affirmed"), POLARITY)
def test_find_hits_judges_polarity_within_the_clause(sentence: str, affirmed: bool) -> None:
    hits = find_hits(tuple(split_units(sentence)), [UPDATES])
    assert [h.affirmed for h in hits] == [affirmed]


def test_find_hits_keeps_a_phrasing_inside_one_statement() -> None:
    units = tuple(
        split_units("tape.gradient computes gradients, apply_gradients updates the variables.")
    )
    assert find_hits(units, [UPDATES]) == []


@pytest.mark.parametrize(
    ("sentence", "foreign"),
    [
        ("In PyTorch you call zero_grad every step.", True),
        ("Unlike PyTorch, TensorFlow needs you to call zero_grad.", False),
        ("Just like PyTorch, you call zero_grad every step.", False),
        ("You call zero_grad every step.", False),
    ],
)
def test_find_hits_attributes_statements_about_another_framework(
    sentence: str, foreign: bool
) -> None:
    hits = find_hits(tuple(split_units(sentence)), ["call ~ zero_grad"])
    assert [h.foreign for h in hits] == [foreign]


def test_find_hits_treats_code_as_affirmed() -> None:
    units = (Unit("if not done:\n    optimizer.zero_grad()", is_code=True),)
    assert [h.affirmed for h in find_hits(units, [r"zero_grad\(\)"])] == [True]


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("<p>The <b>loss</b> &amp; the tape</p>", "The loss & the tape"),
        ("x &lt; y", "x < y"),
        ("keep <script>alert(1)</script>this", "keep this"),
        ("\u201cquoted\u201d it\u2019s", '"quoted" it\'s'),
        ("zero grad and zero-grad", "zero_grad and zero_grad"),
        ("ze\u200bro\u00ad_grad", "zero_grad"),
        ("trainable variables and apply gradients", "trainable_variables and apply_gradients"),
        (
            "the optimiser, a persistant tape, varaibles",
            "the optimizer, a persistent tape, variables",
        ),
        (
            "tf.Variable and model.variables stay as written",
            "tf.Variable and model.variables stay as written",
        ),
    ],
)
def test_clean_normalises_markup_quotes_and_spellings(raw: str, text: str) -> None:
    cleaned, _ = clean(raw)
    assert " ".join(cleaned.split()) == text


def test_clean_cuts_answers_longer_than_the_cap() -> None:
    cleaned, truncated = clean("word " * 2_000)
    assert truncated and len(cleaned) <= MAX_CHARS


def test_split_units_separates_code_from_prose() -> None:
    text = "Like this:\n```\nwith tf.GradientTape() as tape:\n    loss = f(x)\n```\nThen call gradient."
    assert [(u.is_code, u.text.splitlines()[0]) for u in split_units(text)] == [
        (False, "Like this:"),
        (True, "with tf.GradientTape() as tape:"),
        (False, "Then call gradient."),
    ]


def test_split_units_joins_hard_wrapped_prose() -> None:
    units = split_units("The tape records ops\nwhile it is open. Then\nit stops.")
    assert [u.text for u in units] == ["The tape records ops while it is open.", "Then it stops."]


def test_split_units_reads_prose_with_an_equals_sign_as_prose() -> None:
    units = split_units("persistent=True, then del the tape after both gradient calls, GAN step")
    assert [u.is_code for u in units] == [False]


def test_split_units_cuts_run_on_sentences() -> None:
    assert all(len(u.text) <= 500 for u in split_units("loss " * 900))


@pytest.mark.parametrize(
    ("answer", "is_list"),
    [
        ("GradientTape, loss, outside, with block, recorded, None, inside", True),
        (
            "GradientTape loss outside with block None trainable_variables recorded inside fix move",
            True,
        ),
        ("Loss outside tape ctx. Nothing recorded -> None. Indent it.", False),
        ("tape; persistent; RuntimeError; delete; GAN; two losses; memory", True),
        ("The loss is computed after the block, so the tape never recorded it.", False),
        ("loss must inside tape, otherwise gradient is None because not recorded", False),
        ("Use persistent=True.", False),
        ("With nested tapes, one GradientTape inside another.", False),
    ],
)
def test_is_keyword_list_detects_bags_of_terms(answer: str, is_list: bool) -> None:
    assert is_keyword_list(normalise(answer)) is is_list


@pytest.mark.parametrize(
    ("sentence", "pattern"),
    [
        ("The tape frees its buffers.", r"tape ~ free ~ buffer\b"),
        ("It recomputes the loss.", r"\bcompute ~ loss"),
        ("It is useful for GANs and two losses.", r"\bGAN\b"),
        ("The optimizer zeroes the accumulators.", r"zero ~ accumulator\b"),
        ("Dropout was disabled.", r"dropout ~ disable\b"),
    ],
)
def test_find_hits_reads_inflections_through_lemmas(sentence: str, pattern: str) -> None:
    hits = find_hits(tuple(normalise(sentence).units), [pattern])
    assert [h.affirmed for h in hits] == [True]


@pytest.mark.parametrize(
    "sentence",
    [
        "The tape is freed after the first call.",
        "The tape is freeing its buffers.",
        "It gets cleared.",
    ],
)
def test_lemma_twin_keeps_a_participle_that_would_read_as_an_adjective(sentence: str) -> None:
    # "is freed" is not "is free" (costs nothing); "is cleared" is not "is clear".
    patterns = [r"\b(is|gets) (free|clear)\b"]
    assert find_hits(tuple(normalise(sentence).units), patterns) == []


def test_lemma_twin_still_reads_other_participles_after_be() -> None:
    hits = find_hits(tuple(normalise("The step is compiled with XLA.").units), [r"is compile\b"])
    assert [h.affirmed for h in hits] == [True]


@pytest.mark.parametrize(
    ("word", "base"),
    [
        ("pass", True),
        ("set", True),
        ("passes", False),  # inflected: no instruction ("passes X and the ...")
        ("passed", False),
        ("do", False),  # kept as written: auxiliaries, negations, pronouns, conjunctions
        ("need", False),
        ("then", False),
        ("because", False),  # no verb
    ],
)
def test_is_base_verb_reads_a_verbs_dictionary_form_only(word: str, base: bool) -> None:
    # claims reads "Pass X and the None gradients are fixed" as an instruction with it
    # (round 12); the word list and the lemma dictionary are lemmas.py's (round 20).
    assert is_base_verb(word) is base


@pytest.mark.parametrize(
    ("answer", "affirmed"),
    [
        ("tape.gradient does not update the weights; it only returns gradients.", True),
        ("The loss... it returns gradients after all.", True),
        ("It never updates anything, e.g. it returns gradients only.", True),
    ],
)
def test_find_hits_keeps_the_subject_across_semicolons_and_ellipses(
    answer: str, affirmed: bool
) -> None:
    hits = find_hits(
        tuple(normalise(answer).units), [r"(it|tape\.gradient) ~ returns? ~ gradients"]
    )
    assert hits and hits[0].affirmed is affirmed


@pytest.mark.parametrize(
    "sentence",
    [
        "Applying after each micro-batch is not the same thing.",
        "Applying after each micro-batch is wrong.",
        "Applying after each micro-batch isn't equivalent.",
        "Applying after each micro-batch is unnecessary.",
        "Applying after each micro-batch won't help.",
    ],
)
def test_find_hits_reads_a_statement_judged_false_as_denied(sentence: str) -> None:
    hits = find_hits(tuple(normalise(sentence).units), [r"apply\w* after each micro-batch"])
    assert [h.affirmed for h in hits] == [False]


@pytest.mark.parametrize(
    ("sentence", "foreign"),
    [
        ("You don't need zero_grad in TensorFlow, that's a PyTorch thing.", False),
        ("Tell them they don't need zero_grad, unlike in PyTorch.", False),
        ("torch.compile compiles the step into a graph.", True),
        ("PyTorch needs zero_grad; TensorFlow does not.", True),
        ("It keeps calling zero_grad, kind of like retain_graph in PyTorch.", False),
    ],
)
def test_find_hits_attributes_by_the_nearest_framework(sentence: str, foreign: bool) -> None:
    hits = find_hits(tuple(normalise(sentence).units), [r"(zero_grad|compiles? ~ graph)"])
    assert hits and hits[0].foreign is foreign


@pytest.mark.parametrize(
    ("text", "affirmed"),
    [
        # A sentence labelled as a myth states the myth, not the candidate's claim.
        ("Myth: tape.gradient updates the weights. Reality: apply_gradients does.", False),
        ("A common misconception - tape.gradient updates the weights.", False),
        ("Myth #2: tape.gradient updates the weights.", False),
        # A verdict right after the claim, in its sentence or as the next one.
        ("tape.gradient updates the weights - false.", False),
        ('"tape.gradient updates the weights" - wrong.', False),
        ("tape.gradient updates the weights - that's a myth.", False),
        ("tape.gradient updates the weights? No.", False),
        ("tape.gradient updates the weights. That's a myth.", False),
        # Hedged expectations and reported claims, and an elliptical denial.
        ("You might think tape.gradient updates the weights, but it only returns them.", False),
        ("You'd expect that tape.gradient updates the weights, but it doesn't.", False),
        ("Some people claim tape.gradient updates the weights.", False),
        # Correct variants: the same words stated by the candidate stay affirmed.
        ("Mistake: tape.gradient updates the weights.", True),
        ("tape.gradient updates the weights. No surprise there.", True),
        ("tape.gradient updates the weights - I checked it in the debugger.", True),
        ("tape.gradient updates the weights, but it is slow.", True),
        ("People say tape.gradient updates the weights.", True),
        ("tape.gradient updates the weights. That's how it works.", True),
    ],
)
def test_find_hits_reads_claims_reported_or_judged_as_myths(text: str, affirmed: bool) -> None:
    hits = find_hits(tuple(split_units(text)), [UPDATES])
    assert [h.affirmed for h in hits] == [affirmed]


@pytest.mark.parametrize(
    ("sentence", "foreign"),
    [
        ("In JAX you just call jax.grad and zero_grad is never needed.", True),
        ("With optax you call zero_grad on nothing.", True),
        ("Unlike JAX, in TensorFlow you call zero_grad.", False),
    ],
)
def test_find_hits_attributes_statements_about_jax_to_jax(sentence: str, foreign: bool) -> None:
    hits = find_hits(tuple(split_units(sentence)), ["call ~ zero_grad"])
    assert [h.foreign for h in hits] == [foreign]


def test_find_hits_reads_and_neither_as_a_new_denied_statement() -> None:
    sentence = (
        "apply_gradients changes the weights and neither does tape.gradient update the weights."
    )
    assert [h.affirmed for h in find_hits(tuple(split_units(sentence)), [UPDATES])] == [False]


@pytest.mark.parametrize(
    ("sentence", "pattern", "affirmed"),
    [
        # Counterfactual if-clause (past tense + would): the claim is denied.
        (
            "If tape.gradient updated the weights, you wouldn't need an optimizer.",
            r"tape\.gradient ~ (updat|chang)\w* ~ (weights|variables)",
            False,
        ),
        (
            "If tape.gradient changed the variables, you'd never call apply_gradients.",
            r"tape\.gradient ~ (updat|chang)\w* ~ (weights|variables)",
            False,
        ),
        (
            "If tape.gradient didn't update the weights, nothing would train.",
            r"tape\.gradient ~ (updat|chang)\w* ~ (weights|variables)",
            True,
        ),
        # Open conditions are not counterfactual: a passive or a present tense stays affirmed.
        (
            "If the loss is computed outside the tape, you'd get None.",
            r"loss ~ computed ~ outside ~ tape",
            True,
        ),
        (
            "If tape.gradient updates the weights, you would see them change.",
            r"tape\.gradient ~ (updat|chang)\w* ~ (weights|variables)",
            True,
        ),
        # A denied action in an open if-clause with a consequence says the action is needed.
        (
            "If you don't reset the accumulators, the gradients add up.",
            r"reset\w* ~ (accumulators|totals)",
            True,
        ),
        (
            "If you didn't reset the accumulators, they would keep growing.",
            r"reset\w* ~ (accumulators|totals)",
            True,
        ),
        ("If you don't call zero_grad, the gradients pile up.", r"call ~ zero_grad", True),
        # Without an if-clause, or without a consequence, the denial stands.
        ("You don't reset the accumulators.", r"reset\w* ~ (accumulators|totals)", False),
        ("If you don't call zero_grad.", r"call ~ zero_grad", False),
    ],
)
def test_find_hits_reads_conditionals(sentence: str, pattern: str, affirmed: bool) -> None:
    hits = find_hits(tuple(split_units(sentence)), [pattern])
    assert [h.affirmed for h in hits] == [affirmed]


PERSISTENT_DEFAULT = r"(tapes?|it) ~ (are|is) ~ persistent ~ (default|normally)"
HOLDS_RECORDING = r"(default|normally) ~ (tapes?|it) ~ (keeps?|holds?) ~ (recording|ops?)"


@pytest.mark.parametrize(
    ("sentence", "pattern", "affirmed"),
    [
        # A "non-" prefix denies the word it is attached to, unless the phrasing asks for it.
        ("The tape is non-persistent by default.", PERSISTENT_DEFAULT, [False]),
        ("The tape is nonpersistent by default.", PERSISTENT_DEFAULT, []),
        ("The tape is persistent by default.", PERSISTENT_DEFAULT, [True]),
        ("A tape is non-persistent by default.", r"non-?persistent", [True]),
        ("The tape gives None, so it is persistent by default.", PERSISTENT_DEFAULT, [True]),
        # After a colon, a subordinate clause with its own subject starts a new statement.
        (
            "A default tape is single-use: once you call gradient it releases the ops it held.",
            HOLDS_RECORDING,
            [],
        ),
        ("By default the tape holds the recording.", HOLDS_RECORDING, [True]),
    ],
)
def test_find_hits_reads_prefixes_and_subordinate_subjects(
    sentence: str, pattern: str, affirmed: list[bool]
) -> None:
    hits = find_hits(tuple(split_units(sentence)), [pattern])
    assert [h.affirmed for h in hits] == affirmed
