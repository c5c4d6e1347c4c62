"""Give an account the instructor role (run by an operator from the command line).

There is deliberately no web page for this: the first instructor must be trusted by whoever
runs the server, and a page that grants roles would be the first thing an attacker looks for.
"""

from __future__ import annotations

from sqlmodel import Session, select

from app.errors import NotFound
from app.models.users import User


def set_role(session: Session, *, email: str, role: str) -> User:
    user = session.exec(select(User).where(User.email == email.strip().lower())).first()
    if user is None:
        raise NotFound(f"no account with email {email!r}; sign up first, then promote")
    user.role = role
    session.add(user)
    session.commit()
    session.refresh(user)
    return user
