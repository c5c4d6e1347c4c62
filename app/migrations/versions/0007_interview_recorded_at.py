"""INTERVIEW: interview_answer.recorded_at, when the answer entered the progress history.

Answers are graded in the background now (services/interviews/drain.py), so one may be
graded after its interview finished; the finish and the drain each record what is graded,
and this column makes that happen once per answer. Answers of interviews finished before
this revision were recorded at their finish.

Revision ID: 0007_recorded_at
Revises: 0006_withdrawn
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007_recorded_at"
down_revision: str | Sequence[str] | None = "0006_withdrawn"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("interview_answer", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("recorded_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
    op.execute(
        "UPDATE interview_answer SET recorded_at = (SELECT finished_at FROM interview "
        "WHERE interview.id = interview_answer.interview_id) "
        "WHERE status IN ('graded', 'skipped') AND interview_id IN "
        "(SELECT id FROM interview WHERE finished_at IS NOT NULL)"
    )


def downgrade() -> None:
    with op.batch_alter_table("interview_answer", schema=None) as batch_op:
        batch_op.drop_column("recorded_at")
