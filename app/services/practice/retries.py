"""Answering a question of a session again: *Try again* after a verdict, or a changed answer
sent from a page whose question the session already recorded (the learner went Back).

Either is a new attempt in the same session at the same question, and the session's cursor
does not move, so the learner carries on where they were. (Until round 10 each was a new
one-question session, and a learner at Q2 of 3 who tried Q1 again could not get back.)
"""

from __future__ import annotations

from sqlmodel import Session, col, select

from app.grading.dispatch import CodeGraderLike
from app.models.progress import Attempt
from app.models.users import User, utcnow
from app.packs.catalog import Catalog
from app.services import questions
from app.services.practice.sessions import SOURCES, elapsed_ms, get_attempt, get_session
from app.services.practice.summaries import SessionView, session_view
from app.services.progress import history as progress


def retry_view(
    session: Session, catalog: Catalog, *, user: User, session_id: int, attempt_id: int
) -> SessionView:
    """The session showing the question of `attempt_id` again, at its own place (its hints
    are not shown again: they were counted on the first attempt)."""
    attempt = get_attempt(session, user=user, session_id=session_id, attempt_id=attempt_id)
    quiz = get_session(session, user=user, session_id=session_id)
    view = session_view(catalog, quiz)
    again = questions.get_question(catalog, attempt.question_id)
    position = quiz.question_ids.index(attempt.question_id)
    return view.model_copy(update={"current": again, "position": position, "hints_shown": []})


async def answer_again(
    session: Session,
    catalog: Catalog,
    *,
    user: User,
    session_id: int,
    question_id: str,
    answer: object,
    code_grader: CodeGraderLike | None,
    again: bool = False,
) -> Attempt | None:
    """Grade and record another answer to a question this session already recorded. None
    when there is nothing to record: the question is not one this session answered, or the
    answer repeats the recorded one from a stale page (a double submit) and `again` (the
    learner chose *Try again*) is not set."""
    quiz = get_session(session, user=user, session_id=session_id)
    query = select(Attempt).where(
        Attempt.quiz_session_id == session_id, Attempt.question_id == question_id
    )
    previous = session.exec(query.order_by(col(Attempt.id).desc())).first()
    if previous is None or question_id not in quiz.question_ids:
        return None
    if previous.answer == answer and not again:
        return None
    item = questions.find_question(catalog, question_id)
    elapsed = elapsed_ms(previous.created_at, utcnow())  # since its last verdict
    session.rollback()  # hold no transaction open while the sandbox grades (seconds)
    response = await questions.grade(catalog, question_id, answer, code_grader=code_grader)
    return progress.record_attempt(
        session, user=user, question=item, response=response, answer=answer,
        elapsed_ms=elapsed, hints_used=0, source=SOURCES[quiz.mode], quiz_session_id=session_id,
    )  # fmt: skip
