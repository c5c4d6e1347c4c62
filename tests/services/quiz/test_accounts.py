"""Accounts: signing up keeps the guest row, logging in adopts the guest's progress."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fsrs import Rating
from sqlmodel import Session, select

from app.errors import AnswerInvalid, Conflict
from app.models.progress import Attempt, ReviewState
from app.models.publishing import CohortMember
from app.models.users import utcnow
from app.packs.catalog import Catalog
from app.services import accounts
from app.services.instructor import cohorts
from app.services.progress import history as progress
from app.services.progress import reviews
from tests.services.quiz.conftest import new_user, response

PASSWORD = "correct horse battery"


def test_sign_up_turns_the_guest_into_an_account(db: Session) -> None:
    guest = new_user(db)
    account = accounts.sign_up(db, guest=guest, email="Ada@Example.com ", password=PASSWORD)
    assert (account.id, account.is_guest, account.email) == (guest.id, False, "ada@example.com")
    assert account.password_hash and PASSWORD not in account.password_hash


@pytest.mark.parametrize(
    ("email", "password"), [("not-an-email", PASSWORD), ("a@b.co", "short"), ("", PASSWORD)]
)
def test_sign_up_with_bad_input_is_refused(db: Session, email: str, password: str) -> None:
    with pytest.raises(AnswerInvalid):
        accounts.sign_up(db, guest=new_user(db), email=email, password=password)


def test_sign_up_with_taken_email_is_a_conflict(db: Session) -> None:
    accounts.sign_up(db, guest=new_user(db), email="a@b.co", password=PASSWORD)
    with pytest.raises(Conflict):
        accounts.sign_up(db, guest=new_user(db), email="A@b.co", password=PASSWORD)


@pytest.mark.parametrize(
    ("email", "password"), [("a@b.co", "wrong password"), ("x@b.co", PASSWORD)]
)
def test_log_in_with_wrong_credentials_is_refused(db: Session, email: str, password: str) -> None:
    accounts.sign_up(db, guest=new_user(db), email="a@b.co", password=PASSWORD)
    with pytest.raises(AnswerInvalid):
        accounts.log_in(db, current=new_user(db), email=email, password=password)


def test_log_in_adopts_the_guests_attempts_and_reviews(db: Session, catalog: Catalog) -> None:
    account = accounts.sign_up(db, guest=new_user(db), email="a@b.co", password=PASSWORD)
    guest = new_user(db)
    item = catalog.questions["mini-single"]
    progress.record_attempt(
        db, user=guest, question=item, response=response("mini-single", "incorrect", 0.0),
        answer="session", elapsed_ms=5, hints_used=0, source="quiz",
    )  # fmt: skip
    found = accounts.log_in(db, current=guest, email="a@b.co", password=PASSWORD)
    owners = {a.user_id for a in db.exec(select(Attempt)).all()}
    owners |= {r.user_id for r in db.exec(select(ReviewState)).all()}
    assert (found.id, owners) == (account.id, {account.id})


def test_adoption_keeps_the_newer_review_card(db: Session) -> None:
    account, guest = new_user(db), new_user(db)
    assert account.id is not None and guest.id is not None
    old = utcnow() - timedelta(days=3)
    reviews.schedule(db, user_id=account.id, question_id="q", rating=Rating.Good, at=old)
    reviews.schedule(db, user_id=guest.id, question_id="q", rating=Rating.Again)
    db.commit()
    accounts.adopt_guest(db, guest=guest, account=account)
    kept = db.exec(select(ReviewState)).all()
    assert [(r.user_id, r.last_rating) for r in kept] == [(account.id, int(Rating.Again))]


def test_log_in_when_guest_and_account_share_a_cohort(db: Session, catalog: Catalog) -> None:
    account = accounts.sign_up(db, guest=new_user(db), email="a@b.co", password=PASSWORD)
    teacher, guest = new_user(db), new_user(db)
    cohort = cohorts.create_cohort(db, owner=teacher, name="Class", pack_id="mini", catalog=catalog)
    for member in (account, guest):
        cohorts.join_cohort(db, user=member, code=cohort.join_code)
    accounts.log_in(db, current=guest, email="a@b.co", password=PASSWORD)
    members = db.exec(select(CohortMember).where(CohortMember.cohort_id == cohort.id)).all()
    assert [m.user_id for m in members] == [account.id]
