"""A stand-in for regex.compile that counts each expression's compiles, shared by the
first-answer tests of rounds 29 and 30 (lazy compiling, kept compiles, concurrent first use)."""

from __future__ import annotations

import threading
import time
from typing import Any

import regex


class CompileCounter:
    """regex.compile, counting the compiles of each expression (slowed, to widen a race)."""

    def __init__(self, pause: float = 0.0) -> None:
        self.real, self.pause = regex.compile, pause
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, pattern: str, flags: int = 0, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.counts[pattern] = self.counts.get(pattern, 0) + 1
        time.sleep(self.pause)
        return self.real(pattern, flags, *args, **kwargs)
