"""The question page's data in one query: the visitor's account row and their quiz session.

The question page is the page a class hits hardest, so it does not pay for two ORM sessions
(identity, then quiz session: ~0.4 ms of CPU, most of the page's database cost under load,
issue 16). One Core query joins the cookie's user to the session it asks for; the account is
checked against the cookie's auth epoch on every request, so a log-out (which bumps the
epoch) or a role change takes effect at once, with no cache to invalidate. Only the first
display of a question writes (the answer clock), and only code questions read the last
submission.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import class_mapper
from sqlmodel import Session, SQLModel

from app.db import clean_text
from app.errors import NotFound
from app.models.progress import QuizSession
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.services.practice import sessions, submissions

M = TypeVar("M", bound=SQLModel)
_USER = User.__table__  # type: ignore[attr-defined]
_QUIZ = QuizSession.__table__  # type: ignore[attr-defined]
# The row: the user's columns, then the session's; each named by its model attribute.
_USER_NAMES = tuple(class_mapper(User).get_property_by_column(c).key for c in _USER.c)
_QUIZ_NAMES = tuple(class_mapper(QuizSession).get_property_by_column(c).key for c in _QUIZ.c)
_READ = (
    select(*(c.label(f"u_{c.name}") for c in _USER.c), *(c.label(f"q_{c.name}") for c in _QUIZ.c))
    .select_from(
        _USER.outerjoin(
            _QUIZ,
            and_(_QUIZ.c.id == bindparam("session_id"), _QUIZ.c.user_id == _USER.c.id),
        )
    )
    .where(_USER.c.id == bindparam("user_id"))
)


@dataclass(frozen=True)
class QuestionPage:
    """`user` is None when the cookie names no valid account (a visitor, a voided cookie);
    `quiz` is None when the session is missing or someone else's."""

    user: User | None
    quiz: QuizSession | None
    item: LoadedQuestion | None = None
    previous_answer: object = None

    def current(self, session_id: int) -> tuple[QuizSession, LoadedQuestion | None]:
        """The session and its current question; someone else's session is a 404."""
        if self.quiz is None:
            raise NotFound(f"no quiz session {session_id}")
        return self.quiz, self.item


def model_from_row(model: type[M], names: tuple[str, ...], values: tuple[Any, ...]) -> M:
    """One table's columns of the joined row as a model instance, made the way the ORM
    loads a row (instance, then its committed values) rather than through the validating
    constructor (~25 us each, ~5% of the page); text repaired as the ORM's load event does."""
    instance: M = class_mapper(model).class_manager.new_instance()
    instance.__dict__.update(zip(names, map(clean_text, values), strict=True))
    return instance


def _read(conn: Connection, *, user_id: int, epoch: int, session_id: int) -> QuestionPage:
    if not user_id:  # a visitor without a row owns no session: no query needed
        return QuestionPage(None, None)
    row = conn.execute(_READ, {"user_id": user_id, "session_id": session_id}).first()
    conn.rollback()  # the read is over: hold no snapshot while the page is built
    if row is None or row.u_auth_epoch != epoch:
        return QuestionPage(None, None)
    user = model_from_row(User, _USER_NAMES, tuple(row[: len(_USER_NAMES)]))
    found = tuple(row[len(_USER_NAMES) :])
    quiz = model_from_row(QuizSession, _QUIZ_NAMES, found) if row.q_id is not None else None
    return QuestionPage(user, quiz)


def load(
    conn: Connection, catalog: Catalog, *, user_id: int, epoch: int, session_id: int
) -> QuestionPage:
    """What GET /sessions/{id} shows: one query, plus the answer clock's write on a
    question's first display and the last submission of a code question."""
    page = _read(conn, user_id=user_id, epoch=epoch, session_id=session_id)
    if page.user is None or page.quiz is None:
        return page
    user, quiz = page.user, page.quiz
    item = sessions.current_question(catalog, quiz)
    # The rare write and the code question's read go through ORM sessions on this same
    # connection: a page never holds two of the pool's connections at once.
    moved = item is not None and item.question.id != quiz.question_ids[quiz.position]
    if item is not None and (quiz.shown_at is None or moved):  # moved: one was withdrawn
        with Session(bind=conn, expire_on_commit=False) as session:
            quiz, item = sessions.show_current(session, catalog, user=user, session_id=session_id)
    previous = None
    if item is not None and item.question.type in sessions.CODE_TYPES:
        with Session(bind=conn) as session:
            previous = submissions.latest_answer(session, user=user, question_id=item.question.id)
    return QuestionPage(user, quiz, item, previous if isinstance(previous, str) else None)
