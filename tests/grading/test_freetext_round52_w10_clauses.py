"""Round 52 of issue 14 (engineer W10): a claim carried over "that" as a demonstrative subject,
and round 51's three matcher findings, counted and left (docs/freetext-rounds.md "Round 52:
the matcher's clause and statement reading (engineer W10)").

"..., so that's where the gradients get cleared" states its claim of the clause before, as
"..., and this is where ..." already did (claims._PRONOUN_SUBJECT); "that" was left out of that
list because it is also a conjunction ("so that you can"). C48's three findings (a mid-clause
"therefore", a bracketed aside's commas before "and", "could" in a counterfactual) were counted
over tune and measured: none paid on the personas nobody read, so none is built; their written
statements stay here as strict xfails. Statements written for this file; read by the rules alone.
"""

from __future__ import annotations

import pytest

from app.grading.freetext.claims import split_clauses
from app.grading.freetext.phrasings import mask
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

NZG, TFS = "no-zero-grad", "tf-function-speedup"
CLEARS = "optimizer-clears-grads"


@pytest.mark.parametrize(
    "text",
    [
        "You call apply_gradients at the end of every step, so that's where the gradients get "
        "cleared.",
        "You call apply_gradients at the end of every step, and that is where the gradients get "
        "cleared.",
        "The step ends with optimizer.apply_gradients, and that means the gradients get cleared.",
    ],
)
def test_that_as_a_subject_goes_on_from_the_clause_before(text: str) -> None:
    assert CLEARS in tells_by_rules(NZG, text)


@pytest.mark.parametrize(
    "text",
    [
        # "that's why": a statement of its own (STATEMENT_CONNECTIVE), as "which is why" is
        "You call apply_gradients at the end of every step, so that's why the gradients get "
        "cleared.",
        # the conjunction, not a subject
        "You call apply_gradients at the end of every step, so that the gradients get cleared.",
        # a denial in the clause after the demonstrative
        "You call apply_gradients at the end of every step, so that's where the weights change; "
        "the gradients are never cleared, each tape returns new ones.",
        # the correct account in the same shape
        "apply_gradients updates the weights and that is all it does: every call to "
        "tape.gradient returns fresh gradients, so nothing has to be cleared.",
    ],
)
def test_that_which_is_no_subject_or_states_nothing_false_names_no_tell(text: str) -> None:
    assert CLEARS not in tells_by_rules(NZG, text)


def test_the_clause_reading_is_linear_in_the_answer() -> None:
    pumped = "apply_gradients runs, so that's where it ends, " * 110  # ~5,000 characters

    def read(pumped: str) -> None:
        split_clauses(mask(pumped))
        tells_by_rules(NZG, pumped)

    assert_linear(read, pumped)


# C48's three findings (round 51), counted over tune and left (none paid on "not read").
@pytest.mark.xfail(strict=True, reason="round 52 (W10): a mid-clause 'therefore' cuts; not built")
def test_a_therefore_inside_a_clause_cuts_nothing() -> None:
    text = "The gain is therefore largest for models with a large number of parameters."
    assert "big-models-gain-most" in tells_by_rules(TFS, text)


@pytest.mark.xfail(strict=True, reason="round 52 (W10): an aside's commas cut the join; not built")
def test_an_asides_commas_do_not_cut_the_subject_carried_over_and() -> None:
    text = (
        "apply_gradients reads those, does the optimizer update (weight minus learning rate "
        "times gradient, with Adam on top), and clears them."
    )
    assert CLEARS in tells_by_rules(NZG, text)


@pytest.mark.xfail(strict=True, reason="round 52 (W10): 'could' after a past if-clause; not built")
def test_could_in_a_counterfactual_states_nothing() -> None:
    text = "If apply_gradients cleared the gradients, you could not apply the same list twice."
    assert CLEARS not in tells_by_rules(NZG, text)
