"""The cohort dashboard and its CSV export, computed from the members' attempts.

Kept apart from cohorts.py (membership) because this is pure aggregation over rows the
progress service wrote. The CSV is opened in spreadsheets, where a cell starting with
= + - @ (or a tab / carriage return) is run as a formula: such cells are prefixed with `'`.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel
from sqlmodel import Session

from app.errors import NotFound
from app.models.progress import Attempt
from app.models.publishing import Cohort
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.instructor.cohorts import (
    TOP,
    CohortDashboard,
    LearnerStats,
    QuestionStats,
    cohort_attempts,
    describe_answer,
    learner_name,
    members_of,
)
from app.services.progress import misconceptions

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_COLUMNS = (
    "learner",
    "email",
    "question_id",
    "question_version",
    "verdict",
    "score",
    "misconceptions",
    "answer",
    "hints_used",
    "attempted_at",
)


def _question_stats(catalog: Catalog, question_id: str, attempts: list[Attempt]) -> QuestionStats:
    item = catalog.questions.get(question_id)
    wrong = Counter(
        describe_answer(catalog, question_id, a.answer) for a in attempts if a.verdict != "correct"
    )
    tells = Counter(tag for a in attempts for tag in misconceptions.split(a.misconceptions)[0])
    correct = sum(a.verdict == "correct" for a in attempts)
    return QuestionStats(
        question_id=question_id,
        title=item.question.title if item else question_id,
        type=item.question.type if item else "",
        attempts=len(attempts),
        learners=len({a.user_id for a in attempts}),
        success_rate=round(correct / len(attempts), 3) if attempts else None,
        wrong_answers=wrong.most_common(TOP),
        misconceptions=tells.most_common(TOP),
    )


def _learner_stats(user: User, joined_at: datetime, attempts: list[Attempt]) -> LearnerStats:
    assert user.id is not None
    return LearnerStats(
        user_id=user.id,
        name=learner_name(user),
        joined_at=joined_at,
        attempts=len(attempts),
        correct=sum(a.verdict == "correct" for a in attempts),
        mean_score=round(sum(a.score for a in attempts) / len(attempts), 3) if attempts else None,
        last_attempt=attempts[-1].created_at if attempts else None,
        misconceptions=Counter(
            t for a in attempts for t in misconceptions.split(a.misconceptions)[0]
        ).most_common(TOP),
    )


def dashboard(session: Session, *, cohort: Cohort, catalog: Catalog) -> CohortDashboard:
    """Per question of the pack (in pack order) and per member (in joining order)."""
    rows = cohort_attempts(session, cohort)
    by_question: dict[str, list[Attempt]] = defaultdict(list)
    by_user: dict[int, list[Attempt]] = defaultdict(list)
    for attempt, _user in rows:
        by_question[attempt.question_id].append(attempt)
        by_user[attempt.user_id].append(attempt)
    pack = catalog.packs.get(cohort.pack_id)
    order = [q.question.id for q in pack.questions] if pack else []
    order += sorted(set(by_question) - set(order))  # questions dropped by a newer version
    assert cohort.id is not None
    return CohortDashboard(
        cohort_id=cohort.id,
        name=cohort.name,
        pack_id=cohort.pack_id,
        join_code=cohort.join_code,
        questions=[_question_stats(catalog, q, by_question.get(q, [])) for q in order],
        learners=[
            _learner_stats(user, member.joined_at, by_user.get(user.id or 0, []))
            for member, user in members_of(session, cohort)
        ],
        labels=_labels(catalog, (a for a, _ in rows)),
    )


def _labels(catalog: Catalog, attempts: Iterable[Attempt]) -> dict[str, str]:
    tags = {t for a in attempts for t in a.misconceptions}
    return {t: misconceptions.label(catalog, t) for t in sorted(tags)}


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def export_csv(session: Session, *, cohort: Cohort, catalog: Catalog) -> str:
    """One row per attempt, every cell defused against spreadsheet formula injection."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for attempt, user in cohort_attempts(session, cohort):
        writer.writerow(
            safe_cell(value)
            for value in (
                learner_name(user),
                user.email or "(guest: no email)",
                attempt.question_id,
                attempt.question_version,
                attempt.verdict,
                f"{attempt.score:.3f}",
                " ".join(attempt.misconceptions),
                describe_answer(catalog, attempt.question_id, attempt.answer),
                attempt.hints_used,
                attempt.created_at.isoformat(),
            )
        )
    return buffer.getvalue()


class LearnerAttempt(BaseModel):
    question_id: str
    title: str
    question_version: str
    verdict: str
    score: float
    misconceptions: list[str]
    answer: str
    created_at: datetime


class LearnerReport(BaseModel):
    cohort_id: int
    cohort_name: str
    learner: LearnerStats
    attempts: list[LearnerAttempt]
    labels: dict[str, str] = {}  # each misconception tag's one name


def learner_report(
    session: Session, *, cohort: Cohort, catalog: Catalog, user_id: int
) -> LearnerReport:
    """One member's attempts in the cohort, newest first (404 for anyone not a member)."""
    member = next(((m, u) for m, u in members_of(session, cohort) if u.id == user_id), None)
    if member is None:
        raise NotFound(f"learner {user_id} is not in this cohort")
    mine = [a for a, u in cohort_attempts(session, cohort) if u.id == user_id]
    assert cohort.id is not None
    return LearnerReport(
        cohort_id=cohort.id,
        cohort_name=cohort.name,
        learner=_learner_stats(member[1], member[0].joined_at, mine),
        attempts=[_learner_attempt(catalog, a) for a in reversed(mine)],
        labels=_labels(catalog, mine),
    )


def _learner_attempt(catalog: Catalog, attempt: Attempt) -> LearnerAttempt:
    item = catalog.questions.get(attempt.question_id)
    return LearnerAttempt(
        question_id=attempt.question_id,
        title=item.question.title if item else attempt.question_id,
        question_version=attempt.question_version,
        verdict=attempt.verdict,
        score=attempt.score,
        misconceptions=list(attempt.misconceptions),
        answer=describe_answer(catalog, attempt.question_id, attempt.answer),
        created_at=attempt.created_at,
    )
