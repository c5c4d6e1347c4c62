"""SCALE: rate_limit_event, so several web processes without Redis share their limits.

Revision ID: 0005_scale_limits
Revises: 0004_web_epoch
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0005_scale_limits"
down_revision: str | Sequence[str] | None = "0004_web_epoch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_limit_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_rate_limit_event_key"), "rate_limit_event", ["key"], unique=False)
    op.create_index(op.f("ix_rate_limit_event_at"), "rate_limit_event", ["at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_rate_limit_event_at"), table_name="rate_limit_event")
    op.drop_index(op.f("ix_rate_limit_event_key"), table_name="rate_limit_event")
    op.drop_table("rate_limit_event")
