"""INSTRUCTOR: pack_version.withdrawn_at, so a published version that turned out wrong can be
taken out of service (its files and every attempt graded against it are kept).

Revision ID: 0006_withdrawn
Revises: 0005_scale_limits
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0006_withdrawn"
down_revision: str | Sequence[str] | None = "0005_scale_limits"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("pack_version", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("withdrawn_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("pack_version", schema=None) as batch_op:
        batch_op.drop_column("withdrawn_at")
