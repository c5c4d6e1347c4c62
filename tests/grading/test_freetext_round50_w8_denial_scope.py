"""Round 50 of issue 14 (engineer W8): "none of" denies its own clause only where a cut a new
statement follows ends it (docs/freetext-rounds.md "Round 50: denial scope at clause cuts and the
false tells left (engineer W8)").

Round 49 made "none of" a clause-scope cue ("none of the gradients are held in the tape"); as one
it denied round 14's held statement "none of the tapes may be released before the update step, so
make them persistent and keep them around", whose belief follows the clause cut (", so"): the
claim's pronoun object ("them") found a cue in the clause before and took nothing from it, and
the denial in the lead-in reached across the cut. The lead took the cue out. Now "none of" is a
cue again, and a cut a new belief follows (", so", "; ", ", then", "and then") stops its scope.
The noun must be taken up inside the match by a plural pronoun ("them", "they"): a match that
stops before one keeps the denial. Statements written for this file, in words of their own; read
by the rules alone."""

from __future__ import annotations

import pytest

from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import CUE, denial_stops_at_cut, mask
from tests.grading.core_questions import tells_by_rules
from tests.grading.linear_time import assert_linear

GA, NZG, GVA = "gradient-accumulation", "no-zero-grad", "gradient-vs-apply"
KEPT_TAPES, HOLDS = "single-tape-over-micro-batches", "tape-holds-gradients"


@pytest.mark.parametrize(
    "text",
    [
        # round 14's held statement (tests/grading/test_freetext_round14_content.py)
        "For accumulation none of the tapes may be released before the update step, so make "
        "them persistent and keep them around.",
        # one per cut read
        "None of the tapes can be freed, so keep them open until the optimizer step.",
        "None of the tapes may be released early; keep them all alive until the update.",
        "None of the tapes can be freed, then keep them open until the optimizer step.",
        "None of the tapes gets deleted, and then you keep them around until apply_gradients.",
    ],
)
def test_a_belief_after_the_cut_is_read_past_none_of(text: str) -> None:
    assert KEPT_TAPES in tells_by_rules(GA, text)


@pytest.mark.parametrize(
    ("question_id", "text", "tag"),
    [
        (GA, "None of the tapes are kept alive until the update.", KEPT_TAPES),
        (NZG, "None of the gradients are held in the tape.", HOLDS),
        (GVA, "None of the gradients are stored on the tape; it keeps the forward ops.", HOLDS),
        (NZG, "None of the gradients stay on the tape, so nothing needs clearing.", HOLDS),
    ],
)
def test_none_of_still_denies_its_own_clause(question_id: str, text: str, tag: str) -> None:
    assert tag not in tells_by_rules(question_id, text)


@pytest.mark.parametrize(
    ("text", "stops"),
    [
        ("none of the tapes may go, so keep them", True),
        ("none of the tapes may go; keep them", True),
        ("none of the tapes may go, then keep them", True),
        ("none of the tapes may go and then you keep them", True),
        ("none of the tapes may go, keep them", False),  # a bare comma is no cut a belief follows
        ("none of the tapes may go: keep them", False),
        ("the tapes may not go, so keep them", False),  # "not" denies its verb: as before
    ],
)
def test_which_denials_stop_at_the_cut(text: str, stops: bool) -> None:
    masked = mask(text)
    cue = next(CUE.finditer(masked))
    assert denial_stops_at_cut(masked, cue) is stops


@pytest.mark.parametrize(
    "text",
    [
        # the match stops at "the tape": no pronoun inside it takes the numpy ops up
        "None of the numpy ops are recorded, so the tape cannot track them.",
        "None of the numpy ops are recorded; the tape can track them only as TF ops.",
    ],
)
def test_a_role_in_the_denied_predicate_keeps_the_denial(text: str) -> None:
    hits = find_phrasings(normalise(text).units, ["(tape|it) & (records?|tracks?) & numpy"])
    assert [h.affirmed for h in hits] == [False]


def test_a_run_of_none_of_without_a_cut_is_read_in_linear_time() -> None:
    text = ("none of the " * 3400)[:40_000] + ", so keep them around"

    def read(text: str) -> None:
        masked = mask(text)
        cues = list(CUE.finditer(masked))
        assert all(denial_stops_at_cut(masked, cue) for cue in cues)

    assert_linear(read, text)
