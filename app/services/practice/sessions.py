"""Quiz sessions: pick questions, serve them one at a time, grade and record each answer.

A session is a fixed list of question ids and a cursor. Each question is answered once at
the cursor (answering one again, after it, is `retries`);
grading goes through `questions.grade` (so code runs in the sandbox) and the attempt is
stored with `progress.record_attempt` in the same transaction that moves the cursor, so a
crash can never leave an answered question unrecorded or recorded twice.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.errors import AnswerInvalid, Conflict, NotFound
from app.grading.dispatch import CodeGraderLike
from app.models.progress import Attempt, QuizSession
from app.models.users import User, utcnow
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.schemas import Hint
from app.services import questions
from app.services.progress import history as progress
from app.services.progress import reviews

MAX_COUNT = 30
ALREADY_ANSWERED = "that question was already answered; here is the current one"
SOURCES = {"practice": "quiz", "review": "review"}
MAX_THINKING = timedelta(hours=2)  # beyond this the tab was left open, not thought in


CODE_TYPES = ("code", "code-fix")


def _matching(
    catalog: Catalog,
    *,
    pack: str | None,
    topic: str | None,
    qtype: str | None,
    with_code: bool = True,
) -> list[str]:
    if pack is not None and pack not in catalog.packs:
        raise NotFound(f"no pack with id {pack[:80]!r}")
    return [
        item.question.id
        for item in catalog.questions.values()
        if (pack is None or item.pack_id == pack)
        and (topic is None or item.question.topic == topic)
        and (qtype is None or item.question.type == qtype)
        and (with_code or item.question.type not in CODE_TYPES)
    ]


def start_session(
    session: Session,
    catalog: Catalog,
    *,
    user: User,
    pack: str | None = None,
    topic: str | None = None,
    qtype: str | None = None,
    count: int = 10,
    question_ids: list[str] | None = None,
    with_code: bool = True,
) -> QuizSession:
    """A practice session over the filtered questions (or exactly `question_ids`).

    `with_code=False` (no code grader on this server) leaves code questions out of a mixed
    session, so nobody writes an answer that cannot be checked."""
    if question_ids is not None:
        for question_id in question_ids:
            questions.find_question(catalog, question_id)
        chosen = list(dict.fromkeys(question_ids))
    else:
        pool = _matching(catalog, pack=pack, topic=topic, qtype=qtype, with_code=with_code)
        if not pool and not with_code and qtype in CODE_TYPES:
            raise AnswerInvalid("code questions cannot be graded on this server; pick another type")
        if not pool:
            raise AnswerInvalid("no questions match that pack, topic and type; widen the choice")
        chosen = random.sample(pool, min(max(1, count), MAX_COUNT, len(pool)))
    return _create(
        session, user=user, mode="practice", ids=chosen, pack=pack, topic=topic, qtype=qtype
    )


def start_review(session: Session, catalog: Catalog, *, user: User, count: int = 20) -> QuizSession:
    """A session over the questions FSRS says are due (missed ones come back first)."""
    assert user.id is not None
    due = reviews.due_question_ids(
        session, user_id=user.id, limit=MAX_COUNT * 4, served=catalog.questions
    )
    ids = [q for q in due if q in catalog.questions][: max(1, min(count, MAX_COUNT))]
    if not ids:
        raise Conflict("nothing is due for review yet; practise a few questions first")
    return _create(session, user=user, mode="review", ids=ids)


def _create(
    session: Session, *, user: User, mode: str, ids: list[str], **filters: str | None
) -> QuizSession:
    assert user.id is not None
    quiz = QuizSession(
        user_id=user.id,
        mode=mode,
        pack_id=filters.get("pack"),
        topic=filters.get("topic"),
        qtype=filters.get("qtype"),
        question_ids=ids,
    )
    session.add(quiz)
    session.commit()
    session.refresh(quiz)
    return quiz


def get_session(session: Session, *, user: User, session_id: int) -> QuizSession:
    """The user's own session; someone else's is indistinguishable from a missing one."""
    quiz = session.get(QuizSession, session_id)
    if quiz is None or quiz.user_id != user.id:
        raise NotFound(f"no quiz session {session_id}")
    return quiz


def current_question(catalog: Catalog, quiz: QuizSession) -> LoadedQuestion | None:
    """The question to answer now: the first still served from the cursor on. A question
    withdrawn (or dropped by a newer pack version) since the session began is passed over,
    unanswered; `skip_unserved` moves the cursor past it for good."""
    if quiz.finished_at is not None:
        return None
    for question_id in quiz.question_ids[quiz.position :]:
        item = catalog.questions.get(question_id)
        if item is not None:
            return item
    return None


def skip_unserved(session: Session, catalog: Catalog, quiz: QuizSession) -> None:
    """Move the cursor past questions no longer served (one conditional UPDATE, as answers do)."""
    ids, position = quiz.question_ids, quiz.position
    while (
        quiz.finished_at is None and position < len(ids) and ids[position] not in catalog.questions
    ):
        position += 1
    if position == quiz.position:
        return
    values: dict[str, object] = {"position": position, "hints_shown": 0, "shown_at": None}
    if position >= len(ids):
        values["finished_at"] = utcnow()
    session.execute(
        update(QuizSession)
        .where(col(QuizSession.id) == quiz.id, col(QuizSession.position) == quiz.position)
        .values(**values)
    )
    session.commit()
    session.refresh(quiz)


def show_current(
    session: Session, catalog: Catalog, *, user: User, session_id: int
) -> tuple[QuizSession, LoadedQuestion | None]:
    """The session and its current question, starting the answer clock on first display."""
    quiz = get_session(session, user=user, session_id=session_id)
    skip_unserved(session, catalog, quiz)
    item = current_question(catalog, quiz)
    if item is not None and quiz.shown_at is None:
        quiz.shown_at = utcnow()
        session.add(quiz)
        session.commit()
        session.refresh(quiz)
    return quiz, item


def hints_shown(catalog: Catalog, quiz: QuizSession) -> list[str]:
    item = current_question(catalog, quiz)
    return [] if item is None else list(item.question.hints[: quiz.hints_shown])


def reveal_hint(session: Session, catalog: Catalog, *, user: User, session_id: int) -> Hint:
    """Reveal the next hint of the current question; it counts against a first-try Good."""
    quiz = get_session(session, user=user, session_id=session_id)
    item = current_question(catalog, quiz)
    if item is None:
        raise Conflict("this session is finished; there is no question to hint")
    hints = item.question.hints
    index = min(quiz.hints_shown, len(hints) - 1)
    quiz.hints_shown = min(quiz.hints_shown + 1, len(hints))
    session.add(quiz)
    session.commit()
    return Hint(question_id=item.question.id, index=index, count=len(hints), text=hints[index])


def elapsed_ms(shown_at: datetime | None, now: datetime) -> int:
    if shown_at is None:
        return 0
    return int(min(now - shown_at, MAX_THINKING).total_seconds() * 1000)


async def answer_current(
    session: Session,
    catalog: Catalog,
    *,
    user: User,
    session_id: int,
    answer: object,
    code_grader: CodeGraderLike | None,
    question_id: str | None = None,
) -> Attempt:
    """Grade the answer to the current question, record it and move on.

    Grader errors (501, 503, 422) propagate before anything is stored, so the learner can
    simply submit again. `question_id`, when given, must be the current question: a double
    submit or a stale tab must not answer the next question with this answer.
    """
    quiz = get_session(session, user=user, session_id=session_id)
    skip_unserved(session, catalog, quiz)
    item = current_question(catalog, quiz)
    if item is None:
        raise Conflict("this session is finished; start a new one")
    if question_id is not None and question_id != item.question.id:
        raise _already_answered(catalog, quiz)
    position, hints_used, total = quiz.position, quiz.hints_shown, len(quiz.question_ids)
    elapsed, source = elapsed_ms(quiz.shown_at, utcnow()), SOURCES[quiz.mode]
    session.rollback()  # hold no transaction open while the sandbox grades (seconds)
    response = await questions.grade(catalog, item.question.id, answer, code_grader=code_grader)
    if not _claim(session, session_id=session_id, position=position, total=total):
        session.rollback()
        quiz = get_session(session, user=user, session_id=session_id)
        raise _already_answered(catalog, quiz)  # a concurrent submit of the same question won
    attempt = progress.record_attempt(
        session,
        user=user,
        question=item,
        response=response,
        answer=answer,
        elapsed_ms=elapsed,
        hints_used=hints_used,
        source=source,
        quiz_session_id=session_id,
        commit=False,
    )
    session.commit()
    session.refresh(attempt)
    return attempt


def _already_answered(catalog: Catalog, quiz: QuizSession) -> Conflict:
    """409 whose details say where the session is now (`here is the current one`)."""
    item = current_question(catalog, quiz)
    current = {
        "session_id": quiz.id,
        "position": quiz.position,
        "total": len(quiz.question_ids),
        "question_id": item.question.id if item is not None else None,
        "finished": item is None,
    }
    return Conflict(ALREADY_ANSWERED, details=[current])


def _claim(session: Session, *, session_id: int, position: int, total: int) -> bool:
    """Move the cursor past `position` if it is still there: one conditional UPDATE, so of
    two submits racing for one question exactly one is recorded."""
    values: dict[str, object] = {"position": position + 1, "hints_shown": 0, "shown_at": None}
    if position + 1 >= total:
        values["finished_at"] = utcnow()
    claim = (
        update(QuizSession)
        .where(col(QuizSession.id) == session_id, col(QuizSession.position) == position)
        .values(**values)
    )
    return session.execute(claim).rowcount == 1  # type: ignore[attr-defined]


def get_attempt(session: Session, *, user: User, session_id: int, attempt_id: int) -> Attempt:
    attempt = session.get(Attempt, attempt_id)
    if attempt is None or attempt.user_id != user.id or attempt.quiz_session_id != session_id:
        raise NotFound(f"no attempt {attempt_id} in session {session_id}")
    return attempt


def recent_sessions(session: Session, *, user: User, limit: int = 5) -> list[QuizSession]:
    query = (
        select(QuizSession)
        .where(QuizSession.user_id == user.id)
        .order_by(col(QuizSession.id).desc())
        .limit(limit)
    )
    return list(session.exec(query).all())


def skip_current(session: Session, catalog: Catalog, *, user: User, session_id: int) -> QuizSession:
    """Move past the current question without an attempt (e.g. no code grader here)."""
    quiz = get_session(session, user=user, session_id=session_id)
    if current_question(catalog, quiz) is None:
        raise Conflict("this session is finished")
    _claim(session, session_id=session_id, position=quiz.position, total=len(quiz.question_ids))
    session.commit()
    session.refresh(quiz)
    return quiz
