"""INTERVIEW: interview_answer.weighed, whether a follow-up was weighed on the answer's result.

Code answers are graded in the background, and under load the next question is chosen
before the grade is in; the answer is then weighed at a later choice, once graded
(services/interviews/followups.py). Answers stored before this revision were weighed when
the question after them was chosen (with whatever result they had then), so they count as
weighed.

Revision ID: 0008_weighed
Revises: 0007_recorded_at
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_weighed"
down_revision: str | Sequence[str] | None = "0007_recorded_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("interview_answer", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("weighed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.execute("UPDATE interview_answer SET weighed = TRUE WHERE status <> 'open'")


def downgrade() -> None:
    with op.batch_alter_table("interview_answer", schema=None) as batch_op:
        batch_op.drop_column("weighed")
