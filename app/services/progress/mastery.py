"""A learner's progress: mastery per topic and misconceptions, each over time.

Mastery of a topic is the mean of the latest score on every question of the topic (an
unanswered question counts 0), so it rises by learning new questions and by fixing missed
ones, and falls when a question is answered worse than before. Both timelines are rebuilt
from the attempt history, which stays the single source of truth.
"""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.models.progress import Attempt
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.progress import misconceptions, reviews
from app.services.progress.standing import TopicStanding

MAX_POINTS = 14


class Point(BaseModel):
    day: date
    value: float


class TopicMastery(TopicStanding):  # the home page's numbers, and mastery by day
    history: list[Point]


class MisconceptionTrend(BaseModel):
    tag: str
    label: str
    count: int
    first_seen: datetime
    last_seen: datetime
    resolved: bool  # every question that showed it was since answered without it
    history: list[Point]


class ProgressView(BaseModel):
    attempts: int
    correct: int
    questions_seen: int
    reviews_due: int
    next_review: datetime | None
    topics: list[TopicMastery]
    misconceptions: list[MisconceptionTrend]


def _history(session: Session, user_id: int) -> list[Attempt]:
    query = select(Attempt).where(Attempt.user_id == user_id).order_by(col(Attempt.created_at))
    return list(session.exec(query).all())


def _topic_series(attempts: list[Attempt], question_ids: set[str]) -> list[Point]:
    latest: dict[str, float] = {}
    points: dict[date, float] = {}
    for a in attempts:
        if a.question_id in question_ids:
            latest[a.question_id] = a.score
            points[a.created_at.date()] = round(sum(latest.values()) / len(question_ids), 3)
    return [Point(day=d, value=v) for d, v in list(points.items())[-MAX_POINTS:]]


def topic_mastery(catalog: Catalog, attempts: list[Attempt]) -> list[TopicMastery]:
    out = []
    for pack in catalog.packs.values():
        for topic in pack.meta.topics:
            ids = {i.question.id for i in pack.questions if i.question.topic == topic.id}
            if not ids:
                continue
            series = _topic_series(attempts, ids)
            answered = {a.question_id for a in attempts if a.question_id in ids}
            out.append(
                TopicMastery(
                    id=topic.id,
                    title=topic.title,
                    pack=pack.meta.id,
                    questions=len(ids),
                    answered=len(answered),
                    mastery=series[-1].value if series else 0.0,
                    history=series,
                )
            )
    return out


def misconception_trends(catalog: Catalog, attempts: list[Attempt]) -> list[MisconceptionTrend]:
    latest_tags = {a.question_id: set(a.misconceptions or []) for a in attempts}
    seen: dict[str, list[Attempt]] = {}
    for a in attempts:
        for tag in misconceptions.split(list(a.misconceptions or []))[0]:
            seen.setdefault(tag, []).append(a)
    trends = []
    for tag, hits in seen.items():
        per_day: dict[date, float] = {}
        for a in hits:
            per_day[a.created_at.date()] = per_day.get(a.created_at.date(), 0) + 1
        trends.append(
            MisconceptionTrend(
                tag=tag,
                label=misconceptions.label(catalog, tag),
                count=len(hits),
                first_seen=hits[0].created_at,
                last_seen=hits[-1].created_at,
                resolved=all(tag not in latest_tags[a.question_id] for a in hits),
                history=[Point(day=d, value=v) for d, v in list(per_day.items())[-MAX_POINTS:]],
            )
        )
    return sorted(trends, key=lambda t: (t.resolved, -t.count))


def progress_of(session: Session, catalog: Catalog, *, user: User) -> ProgressView:
    assert user.id is not None
    attempts = _history(session, user.id)
    return ProgressView(
        attempts=len(attempts),
        correct=sum(a.verdict == "correct" for a in attempts),
        questions_seen=len({a.question_id for a in attempts}),
        reviews_due=reviews.due_count(session, user_id=user.id, served=catalog.questions),
        next_review=reviews.next_due(session, user_id=user.id, served=catalog.questions),
        topics=topic_mastery(catalog, attempts),
        misconceptions=misconception_trends(catalog, attempts),
    )
