"""The home page in one call: packs and topics with mastery, reviews due, sessions to resume."""

from __future__ import annotations

from pydantic import BaseModel
from sqlmodel import Session

from app.models.progress import QuizSession
from app.models.users import User
from app.packs.catalog import Catalog
from app.services import browse
from app.services.practice import sessions
from app.services.progress import mastery


class OpenSession(BaseModel):
    id: int
    mode: str
    position: int
    total: int
    finished: bool
    label: str


class Dashboard(BaseModel):
    packs: list[browse.PackMenu]
    progress: mastery.ProgressView
    recent: list[OpenSession]


def _label(catalog: Catalog, quiz: QuizSession) -> str:
    topic, qtype = quiz.topic, quiz.qtype
    if quiz.mode == "review":
        return "Review session"
    if len(quiz.question_ids) == 1 and quiz.question_ids[0] in catalog.questions:
        return catalog.questions[quiz.question_ids[0]].question.title
    titles = {t.id: t.title for p in catalog.packs.values() for t in p.meta.topics}
    parts = [titles.get(topic, topic) if topic else "All topics"]
    if qtype:
        parts.append(qtype.replace("-", " "))
    return " · ".join(parts)


def dashboard(session: Session, catalog: Catalog, *, user: User) -> Dashboard:
    recent = [
        OpenSession(
            id=q.id or 0,
            mode=q.mode,
            position=q.position,
            total=len(q.question_ids),
            finished=q.finished_at is not None,
            label=_label(catalog, q),
        )
        for q in sessions.recent_sessions(session, user=user)
    ]
    return Dashboard(
        packs=browse.menu(catalog),
        progress=mastery.progress_of(session, catalog, user=user),
        recent=recent,
    )
