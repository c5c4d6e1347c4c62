"""A learner's standing for the home page: totals, reviews due and mastery per topic.

The home page shows the numbers of the progress page without its timelines (mastery by day,
misconceptions over time), so it does not load whole attempts (answers, feedback, grading
details) to draw them: its read (instructor/dashboard.py) takes the three columns the
numbers need. Mastery is computed as on the progress page (mastery.py): the mean of the
latest score on every question of the topic, an unanswered question counting 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel
from sqlmodel import col

from app.models.progress import Attempt
from app.packs.catalog import Catalog
from app.services.catalog_views import per_catalog


class TopicStanding(BaseModel):
    id: str
    title: str
    pack: str
    questions: int
    answered: int
    mastery: float


class Standing(BaseModel):
    attempts: int
    correct: int
    questions_seen: int
    reviews_due: int
    next_review: datetime | None
    topics: list[TopicStanding]


@per_catalog
def _topics(catalog: Catalog) -> tuple[tuple[str, str, str, frozenset[str]], ...]:
    """(topic id, title, pack id, question ids) of every topic with questions: the same for
    every learner of one catalog, so worked out once, not on every home page."""
    out = []
    for pack in catalog.packs.values():
        for topic in pack.meta.topics:
            ids = frozenset(i.question.id for i in pack.questions if i.question.topic == topic.id)
            if ids:
                out.append((topic.id, topic.title, pack.meta.id, ids))
    return tuple(out)


def topic_standings(catalog: Catalog, latest: dict[str, float]) -> list[TopicStanding]:
    """Per topic from the latest score of each answered question."""
    out = []
    for topic_id, title, pack_id, ids in _topics(catalog):
        scores = [latest[q] for q in ids if q in latest]
        out.append(
            TopicStanding(
                id=topic_id,
                title=title,
                pack=pack_id,
                questions=len(ids),
                answered=len(scores),
                mastery=round(sum(scores) / len(ids), 3),
            )
        )
    return out


ATTEMPT_COLUMNS = (Attempt.question_id, Attempt.score, Attempt.verdict)
ATTEMPT_ORDER = (col(Attempt.created_at), col(Attempt.id))


def standing_from(
    catalog: Catalog,
    attempts: Sequence[tuple[str, float, str]],
    *,
    reviews_due: int,
    next_review: datetime | None,
) -> Standing:
    """From the learner's (question id, score, verdict) of ATTEMPT_COLUMNS, in ATTEMPT_ORDER."""
    latest = {question_id: score for question_id, score, _ in attempts}  # the last one wins
    return Standing(
        attempts=len(attempts),
        correct=sum(verdict == "correct" for _, _, verdict in attempts),
        questions_seen=len(latest),
        reviews_due=reviews_due,
        next_review=next_review,
        topics=topic_standings(catalog, latest),
    )


def no_standing(catalog: Catalog) -> Standing:
    """A visitor's: no row, so nothing to read."""
    return standing_from(catalog, [], reviews_due=0, next_review=None)
