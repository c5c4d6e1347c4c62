"""Guests and accounts: create a guest, sign up, log in, and adopt a guest's progress.

Signing up turns the current guest row into an account in place. Logging in to an existing
account moves whatever the guest did (every table with a `user_id`) onto the account, so
practising first and signing up later never loses anything. Passwords must be at least
10 characters and not among the 30,000 most common ones (zxcvbn's list, the one password
meters use), since a rate limit only slows guessing down.
"""

from __future__ import annotations

import functools
import re

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from app.errors import AnswerInvalid, Conflict
from app.models.progress import ReviewState
from app.models.users import User
from app.security import hash_password, needs_rehash, verify_password
from app.services.instructor import cohorts

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,60}$")
MIN_PASSWORD = 10
NO_ROW = 0  # the id of a visitor who has not written anything yet (never stored)


def find_user(session: Session, *, user_id: int) -> User | None:
    return session.get(User, user_id)


def visitor() -> User:
    """A guest that is not stored: reads see an empty history, a write stores a real one."""
    return User(id=NO_ROW)


@functools.cache
def _common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password(password: str, *, email: str) -> None:
    """422 with the reason for a password that is too short, too long or too common."""
    if len(password) < MIN_PASSWORD or len(password) > 256:
        raise AnswerInvalid(f"choose a password of {MIN_PASSWORD} to 256 characters")
    folded = password.lower()
    if folded in _common_passwords() or folded == email.split("@")[0]:
        raise AnswerInvalid("that password is one of the most common ones; choose another")
    if len(set(folded)) < 4:
        raise AnswerInvalid("that password repeats too few characters; choose another")


def create_guest(session: Session) -> User:
    user = User()
    session.add(user)
    session.commit()
    session.refresh(user)
    return user


def _clean_email(email: str) -> str:
    email = email.strip().lower()
    if not EMAIL.match(email):
        raise AnswerInvalid("enter a valid email address")
    return email


def sign_up(
    session: Session, *, guest: User, email: str, password: str, display_name: str = ""
) -> User:
    email = _clean_email(email)
    check_password(password, email=email)
    taken = Conflict("an account with this email exists; log in instead")
    if session.exec(select(User).where(User.email == email)).first():
        raise taken
    user = guest if guest.is_guest else User()
    user.email, user.password_hash, user.is_guest = email, hash_password(password), False
    user.auth_epoch += 1  # the guest cookie (perhaps copied or planted) must not open the account
    user.display_name = display_name.strip()[:80] or email.split("@")[0]
    session.add(user)
    try:
        session.commit()
    except IntegrityError:  # a concurrent sign-up with the same email won the race
        session.rollback()
        raise taken from None
    session.refresh(user)
    return user


def log_in(session: Session, *, current: User, email: str, password: str) -> User:
    email = email.strip().lower()
    found = session.exec(select(User).where(User.email == email)).first()
    # verify even for unknown emails: equal timing does not reveal which emails exist
    if not verify_password(found.password_hash if found else None, password) or found is None:
        raise AnswerInvalid("that email and password do not match an account")
    if needs_rehash(found.password_hash or ""):
        found.password_hash = hash_password(password)
        session.add(found)
        session.commit()
    if current.is_guest and current.id != found.id:
        adopt_guest(session, guest=current, account=found)
    return found


def log_out(session: Session, *, user: User) -> None:
    """Void every identity cookie of this account (log out everywhere); guests keep theirs."""
    if not user.is_guest:
        user.auth_epoch += 1
        session.add(user)
        session.commit()


def adopt_guest(session: Session, *, guest: User, account: User) -> None:
    """Move every row owned by the guest to the account; on a review-state clash keep the
    newer card, since that is the learner's most recent memory of the question."""
    _merge_review_states(session, guest=guest, account=account)
    cohorts.drop_duplicate_memberships(session, guest=guest, account=account)
    for table in SQLModel.metadata.sorted_tables:
        column = table.columns.get("user_id")
        if column is None or not any(fk.column.table.name == "user" for fk in column.foreign_keys):
            continue
        session.execute(update(table).where(column == guest.id).values(user_id=account.id))
    session.commit()


def _merge_review_states(session: Session, *, guest: User, account: User) -> None:
    owned = select(ReviewState).where(ReviewState.user_id == account.id)
    theirs = {r.question_id: r for r in session.exec(owned)}
    for mine in session.exec(select(ReviewState).where(ReviewState.user_id == guest.id)).all():
        other = theirs.get(mine.question_id)
        if other is None:
            continue
        older = (
            other if (other.last_review or other.due) <= (mine.last_review or mine.due) else mine
        )
        session.execute(delete(ReviewState).where(ReviewState.id == older.id))  # type: ignore[arg-type]
    session.flush()
