"""SQLModel tables, one module per area; importing this package registers them all.

Alembic's autogenerate and `init_db` rely on every table module being imported here.
"""

from __future__ import annotations

from app.models import progress, users  # noqa: F401  (WEB: users, quiz sessions, attempts, reviews)
