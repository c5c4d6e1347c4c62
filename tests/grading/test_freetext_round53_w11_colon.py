"""Round 53 of issue 14 (engineer W11): a bare noun phrase after a colon completes the clause
before it (docs/freetext-rounds.md "Round 53: matcher causes left by round 52 (engineer W11)").

"The kind of model where the gain is biggest: large transformers" states one belief over the
colon; each clause alone carries only some of the claim's roles, so it went unnamed
(claims._elaborates). The phrase after the colon must hold no verb of its own, the clause
before must hold one, and the colon must be followed by a space (a log line's
"WARNING:tensorflow:" or "kernel:0" cuts nothing here). Statements written for this file; read
by the rules alone.
"""

from __future__ import annotations

import pytest

from app.grading.freetext.claims import split_clauses
from app.grading.freetext.phrasings import mask
from app.grading.freetext.subjects import holds_verb
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

TFS, NZG, NUMPY = "tf-function-speedup", "no-zero-grad", "numpy-inside-tape"


@pytest.mark.parametrize(
    ("question", "tag", "text"),
    [
        (
            TFS,
            "big-models-gain-most",
            "Where the speed-up is largest: models with lots of parameters.",
        ),
        (
            TFS,
            "big-models-gain-most",
            "The kind of model where the gain is biggest: large transformers.",
        ),
        (
            NZG,
            "needs-zero-grad",
            "What you must reset at the beginning of each step: the optimizer's slots.",
        ),
    ],
)
def test_a_noun_phrase_after_a_colon_completes_the_claim(
    question: str, tag: str, text: str
) -> None:
    assert tag in tells_by_rules(question, text)


@pytest.mark.parametrize(
    ("question", "tag", "text"),
    [
        # the correct account in the same shape
        (
            TFS,
            "big-models-gain-most",
            "The gain is biggest for one kind of model: small ones made of many tiny ops.",
        ),
        (
            NZG,
            "needs-zero-grad",
            "What you must reset at the beginning of each step: nothing, each tape.gradient call "
            "returns fresh gradients.",
        ),
        # no space after the colon: a log line, not an elaboration
        (
            NUMPY,
            "numpy-gives-zero-gradients",
            "You then see WARNING:tensorflow:Gradients do not exist for variables "
            "['dense/kernel:0'] in the log.",
        ),
    ],
)
def test_no_tell_where_the_colon_joins_nothing_false(question: str, tag: str, text: str) -> None:
    assert tag not in tells_by_rules(question, text)


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("the model with the most parameters", False),
        ("the optimizer's slots", False),  # a possessive, not "is"
        ("tape.reset()", False),
        ("it's the model", True),
        ("the gradients don't change", True),
        ("the gain is largest", True),
    ],
)
def test_holds_verb_reads_only_words_that_are_verbs(text: str, verb: bool) -> None:
    assert holds_verb(text, 0, len(text)) is verb


def test_the_colon_reading_is_linear_in_the_answer() -> None:
    pumped = "where the gain is largest: the large models with many parameters " * 80

    def read(pumped: str) -> None:
        split_clauses(mask(pumped))
        tells_by_rules(TFS, pumped)

    assert_linear(read, pumped)
