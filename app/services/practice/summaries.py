"""Read models for sessions and attempts: what the pages render and the JSON API returns.

One set of pydantic views serves both, so the API and the pages can never disagree about
what a learner answered, what the grader said, or how a session went.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.grading.choice import solution_of
from app.models.progress import Attempt, QuizSession
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.packs.public import QuestionDetail
from app.packs.schema import ChoiceQuestionBase, Ordering, PredictOutput
from app.schemas import FeedbackItem
from app.services import questions
from app.services.practice.answer_text import answer_items, answer_text
from app.services.practice.sessions import current_question, get_session, hints_shown
from app.services.progress import misconceptions, reviews


class ChoiceReview(BaseModel):
    """One option of a choice question as the feedback page shows it."""

    id: str
    text: str
    correct: bool
    picked: bool
    why: str


class AttemptView(BaseModel):
    id: int
    session_id: int | None
    question_id: str
    question_title: str
    question_type: str
    topic: str
    answer: Any
    answer_text: str
    answer_items: list[str]
    verdict: str
    score: float
    feedback: list[FeedbackItem]
    misconceptions: list[str]
    misconception_labels: list[str]
    errors: list[str] = []  # tags that say the answer failed (syntax, exception, wrong numbers)
    prompt: str = ""
    code: str = ""  # the snippet of a predict-output question
    choices: list[ChoiceReview] = []
    solution: Any = None
    solution_items: list[str] = []  # the right order of an ordering question, in words
    explanation: str
    section: str
    hints: list[str]
    hints_used: int
    elapsed_ms: int
    question_version: str
    created_at: datetime


class SessionView(BaseModel):
    id: int
    mode: str
    pack: str | None
    topic: str | None
    type: str | None
    total: int
    position: int
    finished: bool
    current: QuestionDetail | None
    hints_shown: list[str]


class Count(BaseModel):
    key: str
    title: str
    count: int
    score: float = 0.0


class SummaryView(BaseModel):
    session: SessionView
    attempts: list[AttemptView]
    correct: int
    score: float
    percent: int
    topics: list[Count]
    misconceptions: list[Count]
    reviews_due: int


def session_view(catalog: Catalog, quiz: QuizSession) -> SessionView:
    item = current_question(catalog, quiz)
    assert quiz.id is not None
    return SessionView(
        id=quiz.id,
        mode=quiz.mode,
        pack=quiz.pack_id,
        topic=quiz.topic,
        type=quiz.qtype,
        total=len(quiz.question_ids),
        position=quiz.position,
        finished=item is None,
        current=None if item is None else questions.get_question(catalog, item.question.id),
        hints_shown=hints_shown(catalog, quiz),
    )


def _choices(item: LoadedQuestion | None, answer: object) -> list[ChoiceReview]:
    q = item.question if item else None
    if not isinstance(q, ChoiceQuestionBase):
        return []
    picked = set(answer) if isinstance(answer, list) else {answer}
    return [
        ChoiceReview(id=c.id, text=c.text, correct=c.correct, picked=c.id in picked, why=c.why)
        for c in q.choices
    ]


def _question_parts(item: LoadedQuestion | None, answer: object) -> dict[str, Any]:
    """The question itself, the right answer and each option's verdict, for the feedback."""
    if item is None:
        return {}
    q = item.question
    order = [i.text for i in q.items] if isinstance(q, Ordering) else []
    return {
        "prompt": q.prompt,
        "code": q.code if isinstance(q, PredictOutput) else "",
        "choices": _choices(item, answer),
        "solution": solution_of(q),
        "solution_items": order,
    }


def attempt_view(catalog: Catalog, attempt: Attempt) -> AttemptView:
    item = catalog.questions.get(attempt.question_id)
    assert attempt.id is not None
    beliefs, errors = misconceptions.tells_and_errors(catalog, list(attempt.misconceptions or []))
    feedback = [
        FeedbackItem(kind=f["kind"], message=misconceptions.without_scenario_ids(f["message"]))
        for f in attempt.feedback or []
    ]
    return AttemptView(
        id=attempt.id,
        session_id=attempt.quiz_session_id,
        question_id=attempt.question_id,
        question_title=item.question.title if item else attempt.question_id,
        question_type=attempt.qtype,
        topic=attempt.topic,
        answer=attempt.answer,
        answer_text=answer_text(item, attempt.answer),
        answer_items=answer_items(item, attempt.answer),
        verdict=attempt.verdict,
        score=attempt.score,
        feedback=feedback,
        misconceptions=beliefs,
        misconception_labels=[misconceptions.label(catalog, t) for t in beliefs],
        errors=errors,
        **_question_parts(item, attempt.answer),
        explanation=item.question.explanation if item else "",
        section=questions.section_title(catalog, item) if item else "",
        hints=list(item.question.hints) if item else [],
        hints_used=attempt.hints_used,
        elapsed_ms=attempt.elapsed_ms,
        question_version=attempt.question_version,
        created_at=attempt.created_at,
    )


def topic_title(catalog: Catalog, topic_id: str) -> str:
    for pack in catalog.packs.values():
        for topic in pack.meta.topics:
            if topic.id == topic_id:
                return topic.title
    return topic_id.replace("-", " ").capitalize()


def session_attempts(session: Session, *, quiz: QuizSession) -> list[Attempt]:
    query = select(Attempt).where(
        Attempt.quiz_session_id == quiz.id, Attempt.user_id == quiz.user_id
    )
    return list(session.exec(query.order_by(col(Attempt.id))).all())


def summarize_session(
    session: Session, catalog: Catalog, *, user: User, session_id: int
) -> SummaryView:
    quiz = get_session(session, user=user, session_id=session_id)
    firsts: dict[str, Attempt] = {}  # a question tried again still scores its first answer
    for found in session_attempts(session, quiz=quiz):
        firsts.setdefault(found.question_id, found)
    attempts = [attempt_view(catalog, a) for a in firsts.values()]
    topics: dict[str, Count] = {}
    for a in attempts:
        entry = topics.setdefault(
            a.topic, Count(key=a.topic, title=topic_title(catalog, a.topic), count=0)
        )
        entry.count += 1
        entry.score += a.score
    seen = Counter(tag for a in attempts for tag in a.misconceptions)  # errors already apart
    score = sum(a.score for a in attempts)
    assert user.id is not None
    return SummaryView(
        session=session_view(catalog, quiz),
        attempts=attempts,
        correct=sum(a.verdict == "correct" for a in attempts),
        score=round(score, 2),
        percent=round(100 * score / len(attempts)) if attempts else 0,
        topics=list(topics.values()),
        misconceptions=[
            Count(key=t, title=misconceptions.label(catalog, t), count=n)
            for t, n in seen.most_common()
        ],
        reviews_due=reviews.due_count(session, user_id=user.id, served=catalog.questions),
    )
