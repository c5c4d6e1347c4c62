"""Cohorts: a join code for one pack, a roster, and what the cohort's attempts reveal.

An instructor wants to know which questions a group finds hard and which misconceptions it
holds, not every keystroke: the dashboard aggregates the members' Attempt rows per question
(attempts, success rate, the most common wrong answers, the most frequent misconceptions)
and per learner. Only attempts made after joining count, so joining a cohort never hands an
instructor a learner's earlier history. Instructors only ever see their own cohorts (404).
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.errors import AnswerInvalid, Conflict, NotFound
from app.models.progress import Attempt
from app.models.publishing import Cohort, CohortMember
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.schema import Ordering
from app.services.practice.answer_text import option_texts

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud
TOP = 3


class QuestionStats(BaseModel):
    question_id: str
    title: str
    type: str
    attempts: int
    learners: int
    success_rate: float | None  # share of attempts graded correct; None without attempts
    wrong_answers: list[tuple[str, int]]
    misconceptions: list[tuple[str, int]]


class LearnerStats(BaseModel):
    user_id: int
    name: str
    joined_at: datetime
    attempts: int
    correct: int
    mean_score: float | None
    last_attempt: datetime | None
    misconceptions: list[tuple[str, int]]


class CohortDashboard(BaseModel):
    cohort_id: int
    name: str
    pack_id: str
    join_code: str
    questions: list[QuestionStats]
    learners: list[LearnerStats]
    labels: dict[str, str] = Field(
        default_factory=dict, description="Each misconception tag's one name on every page."
    )


def new_join_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalise_code(code: str) -> str:
    raw = re.sub(r"[\s-]", "", code.upper())[:8]
    return f"{raw[:4]}-{raw[4:]}"


def create_cohort(
    session: Session, *, owner: User, name: str, pack_id: str, catalog: Catalog
) -> Cohort:
    name = name.strip()
    if not 1 <= len(name) <= 120:
        raise AnswerInvalid("give the cohort a name of 1 to 120 characters")
    if pack_id not in catalog.packs:
        raise NotFound(f"no pack with id {pack_id[:80]!r}")
    assert owner.id is not None
    cohort = Cohort(name=name, pack_id=pack_id, join_code=new_join_code(), owner_id=owner.id)
    session.add(cohort)
    session.commit()
    session.refresh(cohort)
    return cohort


def list_cohorts(session: Session, *, owner: User) -> list[tuple[Cohort, int]]:
    """The owner's cohorts, newest first, each with its member count."""
    cohorts = session.exec(
        select(Cohort).where(Cohort.owner_id == owner.id).order_by(col(Cohort.id).desc())
    ).all()
    return [(c, len(members_of(session, c))) for c in cohorts]


def get_cohort(session: Session, *, owner: User, cohort_id: int) -> Cohort:
    cohort = session.get(Cohort, cohort_id)
    if cohort is None or cohort.owner_id != owner.id:
        raise NotFound(f"no cohort {cohort_id}")
    return cohort


def join_cohort(
    session: Session, *, user: User, code: str, display_name: str | None = None
) -> Cohort:
    """Join by code; joining twice is harmless. A guest may give the name their instructor
    will see (accounts keep theirs)."""
    cohort = session.exec(select(Cohort).where(Cohort.join_code == normalise_code(code))).first()
    if cohort is None:
        raise NotFound("no cohort has that join code; check it with your instructor")
    assert cohort.id is not None and user.id is not None
    name = " ".join((display_name or "").split())[:80]
    if name and user.is_guest:
        user.display_name = name
        session.add(user)
    existing = session.exec(
        select(CohortMember).where(
            CohortMember.cohort_id == cohort.id, CohortMember.user_id == user.id
        )
    ).first()
    if existing is None:
        session.add(CohortMember(cohort_id=cohort.id, user_id=user.id))
        try:
            session.commit()
        except IntegrityError:  # the same learner joining twice at once: one row wins
            session.rollback()
            raise Conflict("you joined this cohort a moment ago (twice at once)") from None
    return cohort


def cohorts_of_learner(session: Session, *, user: User) -> list[Cohort]:
    query = (
        select(Cohort)
        .join(CohortMember, col(CohortMember.cohort_id) == col(Cohort.id))
        .where(CohortMember.user_id == user.id)
    )
    return list(session.exec(query).all())


def members_of(session: Session, cohort: Cohort) -> list[tuple[CohortMember, User]]:
    query = (
        select(CohortMember, User)
        .join(User, col(User.id) == col(CohortMember.user_id))
        .where(CohortMember.cohort_id == cohort.id)
        .order_by(col(CohortMember.joined_at))
    )
    return list(session.exec(query).all())


def learner_name(user: User) -> str:
    if not user.is_guest:
        return user.display_name
    named = user.display_name and user.display_name != "Guest"
    return f"{user.display_name} (guest)" if named else f"Guest #{user.id}"


def cohort_attempts(session: Session, cohort: Cohort) -> list[tuple[Attempt, User]]:
    """Members' attempts on the cohort's pack made since they joined, oldest first."""
    query = (
        select(Attempt, User)
        .join(CohortMember, col(CohortMember.user_id) == col(Attempt.user_id))
        .join(User, col(User.id) == col(Attempt.user_id))
        .where(
            CohortMember.cohort_id == cohort.id,
            Attempt.pack_id == cohort.pack_id,
            col(Attempt.created_at) >= col(CohortMember.joined_at),
        )
        .order_by(col(Attempt.created_at))
    )
    return list(session.exec(query).all())


def describe_answer(catalog: Catalog, question_id: str, answer: object) -> str:
    """An answer as an instructor reads it: choice texts rather than ids, text shortened."""
    item = catalog.questions.get(question_id)
    question = item.question if item else None
    labels = option_texts(question)
    if isinstance(answer, list):
        joiner = " → " if isinstance(question, Ordering) else "; "
        return joiner.join(labels.get(str(a), str(a)) for a in answer)[:200]
    if isinstance(answer, bool):
        return "true" if answer else "false"
    text = " ".join(str(answer).split())
    return labels.get(text, text if len(text) <= 120 else text[:117] + "...")


def drop_duplicate_memberships(session: Session, *, guest: User, account: User) -> None:
    """Before a guest's rows move to an account: forget the guest's memberships of cohorts
    the account already belongs to (one membership per person and cohort)."""
    mine = select(CohortMember.cohort_id).where(CohortMember.user_id == account.id)
    duplicates = session.exec(
        select(CohortMember).where(
            CohortMember.user_id == guest.id, col(CohortMember.cohort_id).in_(mine)
        )
    ).all()
    for membership in duplicates:
        session.delete(membership)
    session.flush()
