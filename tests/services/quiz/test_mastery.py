"""Progress: mastery per topic and misconception trends, rebuilt from the attempts."""

from __future__ import annotations

from sqlmodel import Session

from app.models.users import User
from app.packs.catalog import Catalog
from app.services.progress import history as progress
from app.services.progress import mastery
from tests.services.quiz.conftest import new_user, response


def record(
    db: Session,
    catalog: Catalog,
    user: User,
    qid: str,
    verdict: str,
    score: float,
    tags: list[str] | None = None,
) -> None:
    graded = response(qid, verdict, score, tags)
    progress.record_attempt(
        db, user=user, question=catalog.questions[qid], response=graded,
        answer="x", elapsed_ms=1, hints_used=0, source="quiz",
    )  # fmt: skip


def test_mastery_uses_latest_score_over_all_topic_questions(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    record(db, catalog, user, "mini-single", "incorrect", 0.0)
    record(db, catalog, user, "mini-single", "correct", 1.0)
    record(db, catalog, user, "mini-multi", "partial", 0.5)
    topic = mastery.progress_of(db, catalog, user=user).topics[0]
    assert (topic.answered, topic.questions, topic.mastery) == (2, 7, round(1.5 / 7, 3))


def test_misconception_resolves_when_answered_without_it(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    record(db, catalog, user, "mini-explain", "partial", 0.4, ["must-watch"])
    still = mastery.progress_of(db, catalog, user=user).misconceptions[0].resolved
    record(db, catalog, user, "mini-explain", "correct", 1.0)
    later = mastery.progress_of(db, catalog, user=user).misconceptions[0]
    assert (still, later.resolved, later.count) == (False, True, 1)


def test_progress_is_per_user(db: Session, catalog: Catalog) -> None:
    record(db, catalog, new_user(db), "mini-single", "correct", 1.0)
    view = mastery.progress_of(db, catalog, user=new_user(db))
    assert (view.attempts, view.misconceptions, view.topics[0].answered) == (0, [], 0)
