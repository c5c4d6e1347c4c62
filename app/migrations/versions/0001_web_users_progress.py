"""WEB: users, quiz sessions, attempts and FSRS review state.

Revision ID: 0001_web
Revises: (none)
Create Date: 2026-11-29 15:53:10.845092
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0001_web"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=True),
        sa.Column("password_hash", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True),
        sa.Column("display_name", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_user_email"), ["email"], unique=True)

    op.create_table(
        "quiz_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("pack_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("topic", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("qtype", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column("question_ids", sa.JSON(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("hints_shown", sa.Integer(), nullable=False),
        sa.Column("shown_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("finished_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("quiz_session", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_quiz_session_user_id"), ["user_id"], unique=False)

    op.create_table(
        "review_state",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("question_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("state", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.Column("stability", sa.Float(), nullable=True),
        sa.Column("difficulty", sa.Float(), nullable=True),
        sa.Column("due", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_review", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("last_rating", sa.Integer(), nullable=True),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("lapses", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "question_id"),
    )
    with op.batch_alter_table("review_state", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_review_state_due"), ["due"], unique=False)
        batch_op.create_index(batch_op.f("ix_review_state_user_id"), ["user_id"], unique=False)

    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("quiz_session_id", sa.Integer(), nullable=True),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("question_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("question_version", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("pack_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("topic", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("qtype", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("verdict", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("feedback", sa.JSON(), nullable=True),
        sa.Column("misconceptions", sa.JSON(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=True),
        sa.Column("hints_used", sa.Integer(), nullable=False),
        sa.Column("elapsed_ms", sa.Integer(), nullable=False),
        sa.Column("grading_ms", sa.Float(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["quiz_session_id"], ["quiz_session.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_attempt_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_attempt_question_id"), ["question_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_attempt_quiz_session_id"), ["quiz_session_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_attempt_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_attempt_user_id"))
        batch_op.drop_index(batch_op.f("ix_attempt_quiz_session_id"))
        batch_op.drop_index(batch_op.f("ix_attempt_question_id"))
        batch_op.drop_index(batch_op.f("ix_attempt_created_at"))

    op.drop_table("attempt")
    with op.batch_alter_table("review_state", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_review_state_user_id"))
        batch_op.drop_index(batch_op.f("ix_review_state_due"))

    op.drop_table("review_state")
    with op.batch_alter_table("quiz_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_quiz_session_user_id"))

    op.drop_table("quiz_session")
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_user_email"))

    op.drop_table("user")
