"""SQLModel tables: the durable record of learners and their attempts."""

from __future__ import annotations
