"""Quiz sessions: choosing questions, answering in order, hints, reviews, ownership."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.errors import AnswerInvalid, Conflict, GraderUnavailable, NotFound
from app.grading.results import GradeResult
from app.models.progress import Attempt, ReviewState
from app.models.users import User, utcnow
from app.packs.catalog import Catalog
from app.services.practice import sessions
from tests.services.quiz.conftest import new_user


def answer(
    db: Session, catalog: Catalog, user: User, session_id: int, given: object, **kw: object
) -> Attempt:
    return asyncio.run(
        sessions.answer_current(
            db, catalog, user=user, session_id=session_id, answer=given, code_grader=None, **kw
        )
    )


def one_question(db: Session, catalog: Catalog, user: User, question_id: str) -> int:
    quiz = sessions.start_session(db, catalog, user=user, question_ids=[question_id])
    assert quiz.id is not None
    return quiz.id


@pytest.mark.parametrize(("qtype", "expected"), [("ordering", 1), ("code", 1), (None, 7)])
def test_start_session_filters_by_type(
    db: Session, catalog: Catalog, qtype: str | None, expected: int
) -> None:
    quiz = sessions.start_session(db, catalog, user=new_user(db), qtype=qtype, count=30)
    assert len(quiz.question_ids) == expected


def test_start_session_caps_count(db: Session, catalog: Catalog) -> None:
    quiz = sessions.start_session(db, catalog, user=new_user(db), count=3)
    assert len(set(quiz.question_ids)) == 3


def test_start_session_with_no_match_is_refused(db: Session, catalog: Catalog) -> None:
    with pytest.raises(AnswerInvalid):
        sessions.start_session(db, catalog, user=new_user(db), topic="no-such-topic")


def test_start_session_with_unknown_pack_is_not_found(db: Session, catalog: Catalog) -> None:
    with pytest.raises(NotFound):
        sessions.start_session(db, catalog, user=new_user(db), pack="nope")


def test_answer_records_attempt_and_finishes_session(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    attempt = answer(db, catalog, user, sid, "tape")
    quiz = sessions.get_session(db, user=user, session_id=sid)
    assert (attempt.verdict, attempt.question_version, quiz.finished_at is not None) == (
        "correct",
        catalog.questions["mini-single"].version,
        True,
    )


def test_answer_after_finish_is_a_conflict(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    answer(db, catalog, user, sid, "tape")
    with pytest.raises(Conflict):
        answer(db, catalog, user, sid, "tape")


def test_stale_question_id_answers_nothing(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    with pytest.raises(Conflict):
        answer(db, catalog, user, sid, "tape", question_id="mini-tf")
    assert db.exec(select(Attempt)).all() == []


def test_grader_unavailable_records_nothing_and_keeps_position(
    db: Session, catalog: Catalog
) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-code")
    with pytest.raises(GraderUnavailable):
        answer(db, catalog, user, sid, "def train_step(): pass")
    assert sessions.get_session(db, user=user, session_id=sid).position == 0
    assert db.exec(select(Attempt)).all() == []


def test_malformed_answer_records_nothing(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    with pytest.raises(AnswerInvalid):
        answer(db, catalog, user, sid, ["not", "a", "choice"])
    assert db.exec(select(Attempt)).all() == []


def test_other_users_session_is_not_found(db: Session, catalog: Catalog) -> None:
    sid = one_question(db, catalog, new_user(db), "mini-single")
    with pytest.raises(NotFound):
        sessions.get_session(db, user=new_user(db), session_id=sid)


def test_hinted_correct_answer_is_rated_hard(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    hint = sessions.reveal_hint(db, catalog, user=user, session_id=sid)
    attempt = answer(db, catalog, user, sid, "tape")
    state = db.exec(select(ReviewState)).one()
    assert (hint.index, attempt.hints_used, state.last_rating) == (0, 1, 2)


def test_hints_stop_at_the_last_one(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    for _ in range(3):
        sessions.reveal_hint(db, catalog, user=user, session_id=sid)
    assert sessions.get_session(db, user=user, session_id=sid).hints_shown == 1


def test_elapsed_time_runs_from_first_display(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-single")
    quiz, _item = sessions.show_current(db, catalog, user=user, session_id=sid)
    quiz.shown_at = utcnow() - timedelta(seconds=30)
    db.add(quiz)
    db.commit()
    assert 29_000 <= answer(db, catalog, user, sid, "tape").elapsed_ms <= 60_000


def test_review_session_offers_the_missed_question(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    answer(db, catalog, user, one_question(db, catalog, user, "mini-single"), "session")
    answer(db, catalog, user, one_question(db, catalog, user, "mini-tf"), "false")
    review = sessions.start_review(db, catalog, user=user)
    assert (review.mode, review.question_ids) == ("review", ["mini-single"])


def test_review_with_nothing_due_is_a_conflict(db: Session, catalog: Catalog) -> None:
    with pytest.raises(Conflict):
        sessions.start_review(db, catalog, user=new_user(db))


def test_skip_moves_on_without_an_attempt(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-code")
    quiz = sessions.skip_current(db, catalog, user=user, session_id=sid)
    assert (quiz.finished_at is not None, db.exec(select(Attempt)).all()) == (True, [])


class SlowGrader:
    """Stands in for the sandbox: takes a moment, then passes the step."""

    async def grade(self, question: object, source: str) -> GradeResult:
        await asyncio.sleep(0.05)
        return GradeResult("correct", 1.0)


def test_two_racing_submits_record_one_attempt(db: Session, catalog: Catalog) -> None:
    user = new_user(db)
    sid = one_question(db, catalog, user, "mini-code")
    other = Session(db.get_bind())

    async def race() -> list[object]:
        return await asyncio.gather(
            *(
                sessions.answer_current(
                    s, catalog, user=user, session_id=sid, answer="x", code_grader=SlowGrader()
                )
                for s in (db, other)
            ),
            return_exceptions=True,
        )

    outcomes = asyncio.run(race())
    other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["Attempt", "Conflict"]
    assert len(db.exec(select(Attempt)).all()) == 1
