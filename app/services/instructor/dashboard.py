"""The home page in one call: packs and topics with mastery, reviews due, sessions to resume.

GET / is the page every visit starts on, so it is read like the question page
(question_pages.py): one thread hop that checks the cookie's account and reads the learner's
numbers on one connection, with what depends only on the catalog (the pack menu, topic
titles, which questions make a topic) built once per catalog. Only the learner's own rows
are read per request; nothing of one learner is kept for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import class_mapper

from app.db import clean_text
from app.models.progress import Attempt, QuizSession, ReviewState
from app.models.users import User, utcnow
from app.packs.catalog import Catalog
from app.services import browse
from app.services.catalog_views import per_catalog
from app.services.practice.question_pages import model_from_row
from app.services.progress import standing
from app.services.progress.reviews import LEARN_AHEAD

RECENT = 5  # sessions listed to resume
_USER = User.__table__  # type: ignore[attr-defined]
_QUIZ = QuizSession.__table__  # type: ignore[attr-defined]
_REVIEW = ReviewState.__table__  # type: ignore[attr-defined]
_ATTEMPT = Attempt.__table__  # type: ignore[attr-defined]
_USER_NAMES = tuple(class_mapper(User).get_property_by_column(c).key for c in _USER.c)
_DUE_SOON = (
    select(func.count())
    .where(
        _REVIEW.c.user_id == _USER.c.id,
        _REVIEW.c.due <= bindparam("soon", type_=_REVIEW.c.due.type),
    )
    .scalar_subquery()
)
_NEXT_DUE = select(func.min(_REVIEW.c.due)).where(_REVIEW.c.user_id == _USER.c.id).scalar_subquery()
# The account and its review counts in one row; then the learner's sessions and attempts.
_READ_USER = select(*_USER.c, _DUE_SOON.label("reviews_due"), _NEXT_DUE.label("next_review")).where(
    _USER.c.id == bindparam("user_id")
)
_READ_RECENT = (
    select(
        _QUIZ.c.id,
        _QUIZ.c.mode,
        _QUIZ.c.topic,
        _QUIZ.c.qtype,
        _QUIZ.c.question_ids,
        _QUIZ.c.position,
        _QUIZ.c.finished_at,
    )
    .where(_QUIZ.c.user_id == bindparam("user_id"))
    .order_by(_QUIZ.c.id.desc())
    .limit(RECENT)
)
_READ_ATTEMPTS = (
    select(_ATTEMPT.c.question_id, _ATTEMPT.c.score, _ATTEMPT.c.verdict)
    .where(_ATTEMPT.c.user_id == bindparam("user_id"))
    .order_by(_ATTEMPT.c.created_at, _ATTEMPT.c.id)
)


class OpenSession(BaseModel):
    id: int
    mode: str
    position: int
    total: int
    finished: bool
    label: str


class Dashboard(BaseModel):
    packs: list[browse.PackMenu]
    progress: standing.Standing
    recent: list[OpenSession]


menu = per_catalog(browse.menu)


@per_catalog
def _topic_titles(catalog: Catalog) -> dict[str, str]:
    return {t.id: t.title for p in catalog.packs.values() for t in p.meta.topics}


def _label(catalog: Catalog, quiz: Any) -> str:
    topic, qtype = quiz.topic, quiz.qtype
    if quiz.mode == "review":
        return "Review session"
    if len(quiz.question_ids) == 1 and quiz.question_ids[0] in catalog.questions:
        return catalog.questions[quiz.question_ids[0]].question.title
    parts = [_topic_titles(catalog).get(topic, topic) if topic else "All topics"]
    if qtype:
        parts.append(qtype.replace("-", " "))
    return str(clean_text(" · ".join(parts)))


def _recent(catalog: Catalog, rows: Sequence[Any]) -> list[OpenSession]:
    return [
        OpenSession(
            id=q.id,
            mode=q.mode,
            position=q.position,
            total=len(q.question_ids),
            finished=q.finished_at is not None,
            label=_label(catalog, q),
        )
        for q in rows
    ]


def visitor_dashboard(catalog: Catalog) -> Dashboard:
    """A visitor without a row: nothing of theirs to read."""
    return Dashboard(packs=menu(catalog), progress=standing.no_standing(catalog), recent=[])


def load(
    conn: Connection, catalog: Catalog, *, user_id: int, epoch: int
) -> tuple[User | None, Dashboard]:
    """GET /: the cookie's account (None unless it exists with the cookie's auth epoch) and
    its dashboard, in three queries on one connection."""
    row = conn.execute(_READ_USER, {"user_id": user_id, "soon": utcnow() + LEARN_AHEAD}).first()
    if row is None or row.auth_epoch != epoch:
        conn.rollback()
        return None, visitor_dashboard(catalog)
    user = model_from_row(User, _USER_NAMES, tuple(row[: len(_USER_NAMES)]))
    recent = conn.execute(_READ_RECENT, {"user_id": user_id}).all()
    attempts = conn.execute(_READ_ATTEMPTS, {"user_id": user_id}).all()
    conn.rollback()  # the read is over: hold no snapshot while the page is rendered
    progress = standing.standing_from(
        catalog, attempts, reviews_due=row.reviews_due, next_review=row.next_review
    )
    return user, Dashboard(packs=menu(catalog), progress=progress, recent=_recent(catalog, recent))
