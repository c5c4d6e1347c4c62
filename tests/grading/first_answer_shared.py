"""What the first-answer tests of rounds 29 and 30 share (lazy compiling, kept compiles,
concurrent first use): a stand-in for regex.compile that counts each expression's compiles, and
four answers (two right, two wrong) to grade first."""

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


ANSWERS = [
    "The tape records the forward pass; tape.gradient computes the gradients by reverse-mode "
    "differentiation and apply_gradients updates the weights.",
    "gradient() only returns the gradients, it does not update the variables. The optimizer's "
    "apply_gradients does that.",
    "tape.gradient applies the update to the weights directly, so you do not need an optimizer.",
    "You must call optimizer.zero_grad() at the start of every step, as in PyTorch.",
]
