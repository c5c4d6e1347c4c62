"""Who is practising: guests and accounts are the same table, so adopting a guest is cheap.

A first visit creates a guest row (no email, no password); signing up fills in the email and
password hash on that same row, so everything the guest did already belongs to the account.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from sqlmodel import Field, SQLModel

Role = Literal["learner", "instructor"]


def utcnow() -> datetime:
    return datetime.now(UTC)  # aware: SQLModel's UTCDateTime columns refuse naive values


class User(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    email: str | None = Field(default=None, unique=True, index=True, max_length=254)
    password_hash: str | None = Field(default=None, max_length=255)
    display_name: str = Field(default="Guest", max_length=80)
    is_guest: bool = Field(default=True)
    role: str = Field(default="learner", max_length=20)  # Role
    created_at: datetime = Field(default_factory=utcnow)
    # Part of every identity cookie: bumping it (sign-up, log-out) voids the cookies issued
    # before, so a guest cookie planted or copied earlier never opens the account.
    auth_epoch: int = Field(default=0)
