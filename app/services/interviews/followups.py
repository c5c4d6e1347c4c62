"""Which answers a follow-up may rest on when the next question is chosen, and how the
choice says so.

An interviewer's follow-up rests on how the last answer went. A code answer is graded in
the background (drain.py) and its request waits only `busy_wait_seconds` for the grade;
under a class's load the grade often comes later, and until round 17 the next question was
then chosen as if the answer had no result (no harder step after a passing one, no probe
after a failing one), silently. Now an answer is *weighed* once, on its settled result: a
choice made while the last answer is still being graded says so in its reason, and that
answer is weighed at the next choice after its grade is in (its follow-up comes one
question later, saying why).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.models.interviews import InterviewAnswer
from app.packs.catalog import Catalog
from app.services.interviews import answers, plans

UNSETTLED = ("open", "pending", "grading", "unanswered")


@dataclass(frozen=True)
class Basis:
    """An answer to weigh now, its outcome, and what a follow-up on it says first."""

    row: InterviewAnswer
    outcome: plans.Outcome
    preface: str


def weighable(rows: list[InterviewAnswer], catalog: Catalog) -> Iterator[Basis]:
    """Settled answers not weighed yet, the latest first: the last answer, then any earlier
    one graded after the question that followed it was chosen."""
    for row in reversed(rows):
        if row.weighed or row.status in UNSETTLED:
            continue
        outcome = answers.outcome_of(row, catalog)
        if outcome is None:
            continue
        late = row is not rows[-1]
        preface = (
            f"Question {row.position + 1} was graded after the next question was chosen; "
            if late
            else ""
        )
        yield Basis(row, outcome, preface)


def awaited_note(rows: list[InterviewAnswer]) -> str:
    """What a choice made while the last answer is still being graded says first ("" when
    it is not)."""
    last = rows[-1]
    if last.status not in ("pending", "grading"):
        return ""
    return (
        f"Chosen while question {last.position + 1} was still being graded, so it does not "
        "rest on that answer (a follow-up on it may come once it is graded). "
    )
