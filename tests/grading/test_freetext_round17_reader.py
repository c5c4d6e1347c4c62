"""Round 17 (engineer R): the reader. A claim's subject stands in another clause than its
predicate: (1) a purpose clause ("make the tape persistent so you can call gradient twice")
says what the clause before it is for, so a claim may take roles from both; (2) a sentence
whose subject is a demonstrative pronoun ("That gives you the same gradient as a batch of
256") states its claim about the sentence before, read as "..., which gives ...". Rules
alone. docs/freetext-rounds.md "Round 17: reader (engineer R)" says which statements were
written before which measurement, and what was measured and dropped (their statements are
strict xfails here).
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

# (1) Purpose clauses: "so (that) you can ..." goes on with the clause before it.
PURPOSE_WRONG = [
    ("higher-order-derivatives", "persistent-gives-second-order", "Use one tape with persistent=True, so you can call gradient more than once."),
    ("higher-order-derivatives", "persistent-gives-second-order", "Make the tape persistent so that you can take the gradient a second time."),
]  # fmt: skip
PURPOSE_TRUE = [
    ("higher-order-derivatives", "Nest two tapes so you can take the gradient twice."),
    ("higher-order-derivatives", "Nest two tapes, the outer one around the inner one, so you can differentiate the first derivative again."),
    ("higher-order-derivatives", "Making the tape persistent does not mean you can take a second derivative."),
    ("higher-order-derivatives", "You don't make the tape persistent so you can differentiate twice; you nest two tapes."),
    ("persistent-tape", "Pass persistent=True so you can call gradient more than once, then del the tape."),
]  # fmt: skip


test_a_purpose_clause_takes_its_roles_from_the_clause_before = names_the_tell(
    PURPOSE_WRONG, fields="qid tag text", tells=_tells
)
test_a_purpose_clause_of_a_true_or_denied_statement_names_nothing = names_nothing(
    PURPOSE_TRUE, fields="qid text", tells=_tells
)


# (2) A sentence opening on "that" / "this" / "these" / "those" and a verb.
DEMONSTRATIVE_WRONG = [
    ("gradient-vs-apply", "gradient-updates-weights", "Call tape.gradient first. That updates the weights."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient runs backprop. This changes the weights directly."),
    ("gradient-accumulation", "summed-gradients-equal-big-batch", "Sum the four losses inside one tape. That gives you exactly the same gradient as a batch of 256."),
]  # fmt: skip
DEMONSTRATIVE_TRUE = [
    ("gradient-vs-apply", "Call apply_gradients next. That updates the weights."),
    ("gradient-vs-apply", "Call tape.gradient first. That does not update the weights."),
    ("gradient-vs-apply", "Call tape.gradient first. That only returns the gradients; apply_gradients updates the weights."),
    ("gradient-accumulation", "Sum the four gradients and divide by 4. That gives you the same gradient as a batch of 256."),
    ("gradient-accumulation", "This tape records all four micro-batches."),
    ("no-zero-grad", "Create a new tape each step. That way the gradients are fresh."),
]  # fmt: skip


test_a_demonstrative_subject_reads_the_sentence_before = names_the_tell(
    DEMONSTRATIVE_WRONG, fields="qid tag text", tells=_tells
)
test_a_demonstrative_after_a_true_statement_names_nothing = names_nothing(
    DEMONSTRATIVE_TRUE, fields="qid text", tells=_tells
)


# Measured and not shipped (each moved no answer of a persona nobody read, or lost one):
# "therefore" / "thus" / "hence" after an auxiliary as an adverb inside the clause; a hedge
# between commas ("tape.gradient, I think, ...") as no clause end; a heading line ending in
# ":" giving its subject to the bullet lines under it that open on a verb. Written before
# the measurement; these stay unnamed: strict xfails.
DROPPED_WRONG = [
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient, I think, changes the weights too."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient:\n- computes the gradients\n- updates the weights\n"),
]  # fmt: skip


# Round 22 (engineer C2's big-models phrasings) names this one without the dropped reading.
NAMED_SINCE_ROUND_22 = [
    ("tf-function-speedup", "big-models-gain-most", "The speedup is therefore largest for big models."),
    # Round 52 (engineer C50's phrasing past "therefore" / "thus"): was a strict xfail above.
    ("tf-function-speedup", "big-models-gain-most", "The benefit is thus greatest for deep networks."),
]  # fmt: skip

test_named_since_round_22 = names_the_tell(
    NAMED_SINCE_ROUND_22, fields="qid tag text", tells=_tells
)

test_a_dropped_reading_would_name_the_tell = names_the_tell(
    DROPPED_WRONG,
    fields="qid tag text",
    tells=_tells,
    xfail="measured, moved no not-read answer (round 17, dropped)",
)
