"""The home page's read: the same numbers as the progress page, each learner's own, and a
cookie whose account is gone or logged out everywhere reads as a visitor."""

from __future__ import annotations

from sqlmodel import Session

from app.models.users import User
from app.packs.catalog import Catalog
from app.services.instructor import dashboard
from app.services.progress import mastery
from app.services.progress.standing import Standing
from tests.services.quiz.conftest import new_user
from tests.services.quiz.test_mastery import record


def _board(db: Session, catalog: Catalog, user: User, epoch: int | None = None) -> tuple:
    engine = db.get_bind()
    with engine.connect() as conn:  # type: ignore[union-attr]
        epoch = user.auth_epoch if epoch is None else epoch
        return dashboard.load(conn, catalog, user_id=user.id or 0, epoch=epoch)


def _numbers(view: mastery.ProgressView | Standing) -> tuple:
    topics = [(t.id, t.questions, t.answered, t.mastery) for t in view.topics]
    totals = (view.attempts, view.correct, view.questions_seen, view.reviews_due)
    return totals, view.next_review, topics


def test_home_numbers_match_the_progress_page(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    record(db, catalog, user, "mini-single", "incorrect", 0.0)
    record(db, catalog, user, "mini-single", "correct", 1.0)
    record(db, catalog, user, "mini-multi", "partial", 0.5)
    found, board = _board(db, catalog, user)
    assert found is not None and found.id == user.id
    assert _numbers(board.progress) == _numbers(mastery.progress_of(db, catalog, user=user))
    assert board.progress.attempts == 3 and board.progress.reviews_due >= 1


def test_home_board_is_each_learners_own(db: Session, catalog: Catalog) -> None:
    busy, quiet = new_user(db), new_user(db)
    for _ in range(3):
        record(db, catalog, busy, "mini-single", "correct", 1.0)
    boards = [_board(db, catalog, u)[1].progress for u in (busy, quiet, busy)]
    assert [(b.attempts, b.questions_seen) for b in boards] == [(3, 1), (0, 0), (3, 1)]


def test_home_with_a_voided_cookie_reads_as_a_visitor(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    record(db, catalog, user, "mini-single", "correct", 1.0)
    found, board = _board(db, catalog, user, epoch=user.auth_epoch + 1)  # logged out elsewhere
    assert (found, board.progress.attempts, board.recent) == (None, 0, [])
    assert [t.answered for t in board.progress.topics] == [0] * len(board.progress.topics)
