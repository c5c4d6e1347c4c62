"""SQLModel tables, one module per area; importing this package registers them all.

Alembic's autogenerate and `init_db` rely on every table module being imported here.
"""

from __future__ import annotations

from app.models import (  # noqa: F401  (registers the tables)
    interviews,  # INTERVIEW: mock interviews and their answers
    progress,  # WEB: quiz sessions, attempts, reviews
    publishing,  # INSTRUCTOR: pack versions, cohorts
    ratelimits,  # SCALE: rate-limit events shared through the database
    users,  # WEB: users
)
