"""Every route test also checks that no database call runs on the event loop."""

from __future__ import annotations

import pytest

from app.db import LoopGuard


@pytest.fixture(autouse=True)
def strict_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blocking call on the loop stalls every request of the process: make it fail."""
    monkeypatch.setattr(LoopGuard, "strict", True)
