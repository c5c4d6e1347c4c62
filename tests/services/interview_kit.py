"""Plain helpers for the interview tests: the fixture pack, an answer book for it, and a
scriptable code grader (no sandbox: the tests decide what code grading says).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import Session

from app.clock import FakeClock
from app.errors import TapequizError
from app.grading.results import Feedback, GradeResult
from app.models.users import User
from app.packs.schema import Code, CodeFix

FIXTURES = Path(__file__).parent / "interview_packs"
PACK = "interview-pack"
# A right and a wrong answer for every question of the fixture pack.
RIGHT = {
    "w-records": "tape",
    "w-updates": False,
    "c-sources": "trainable",
    "e-zero-grad": "Nowhere, because tape.gradient returns a fresh list of gradients.",
    "f-zero-grad": False,
    "k-train-step": "def train_step(model, optimizer, loss_fn, x, y):\n    return 'PASS'\n",
    "k-clip-step": "def train_step(model, optimizer, loss_fn, x, y):\n    return 'PASS'\n",
    "p-tf-function": "graph",
    "o-lines": ["forward", "loss", "grads", "apply"],
    "f-apply": False,
    "f-records": "inside",
}
WRONG = {
    "w-records": "optimizer",
    "w-updates": True,
    "c-sources": "all",
    "e-zero-grad": "You should call optimizer.zero_grad() before every step. Then it works.",
    "f-zero-grad": True,
    "k-train-step": "def train_step(model, optimizer, loss_fn, x, y):\n    optimizer.zero_grad()\n",
    "k-clip-step": "def train_step(model, optimizer, loss_fn, x, y):\n    optimizer.zero_grad()\n",
    "p-tf-function": "nothing",
    "o-lines": ["apply", "grads", "loss", "forward"],
    "f-apply": True,
    "f-records": "always",
}


@dataclass
class ScriptedCodeGrader:
    """Passes sources that return 'PASS'; `fail_with` makes every call raise instead."""

    fail_with: TapequizError | None = None
    calls: list[str] = field(default_factory=list)
    clock: FakeClock | None = None  # when set, each grading takes `seconds` on it
    seconds: float = 0.0
    during: Callable[[], Awaitable[None]] | None = None  # runs while a grading is in flight

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        self.calls.append(question.id)
        if self.clock is not None:
            self.clock.advance(self.seconds)
        if self.during is not None:
            await self.during()
        if self.fail_with is not None:
            raise self.fail_with
        if "'PASS'" in source:
            return GradeResult("correct", 1.0, [Feedback("correct", "Matches the reference.")])
        return GradeResult("incorrect", 0.0, [Feedback("error", "Line 2 raised AttributeError.")])


def make_user(session: Session, name: str = "Ada") -> User:
    user = User(display_name=name)
    session.add(user)
    session.commit()
    session.refresh(user)
    return user
