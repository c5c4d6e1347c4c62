"""Instructor data: published pack versions, cohorts and who belongs to them.

Pack files live on disk (data_dir/packs/<pack>/<version>/); a PackVersion row records who
published which version and when, so ownership and history survive a reload. Cohorts group
learners under a join code for one pack; their dashboards read the learners' Attempt rows.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from app.models.users import utcnow


class PackVersion(SQLModel, table=True):
    __tablename__ = "pack_version"
    __table_args__ = (UniqueConstraint("pack_id", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    pack_id: str = Field(index=True, max_length=64)
    version: str = Field(max_length=32)
    title: str = Field(max_length=200)
    question_count: int = Field(default=0)
    published_by: int | None = Field(
        default=None, foreign_key="user.id", index=True, ondelete="SET NULL"
    )
    created_at: datetime = Field(default_factory=utcnow)
    # Taken out of service by its owner: no longer served, files and attempts kept.
    withdrawn_at: datetime | None = Field(default=None)


class Cohort(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    pack_id: str = Field(max_length=64)
    join_code: str = Field(unique=True, index=True, max_length=16)
    owner_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)


class CohortMember(SQLModel, table=True):
    __tablename__ = "cohort_member"
    __table_args__ = (UniqueConstraint("cohort_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    cohort_id: int = Field(foreign_key="cohort.id", index=True, ondelete="CASCADE")
    user_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    joined_at: datetime = Field(default_factory=utcnow)
