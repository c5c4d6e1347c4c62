"""The one shape every grader returns, whatever kind of answer it graded.

Choice, free-text and code graders differ wildly inside; the API, the quiz sessions and the
interview report only ever see a GradeResult.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["correct", "partial", "incorrect", "error"]
FeedbackKind = Literal["correct", "missing", "misconception", "error", "info", "hint"]


@dataclass(frozen=True)
class Feedback:
    kind: FeedbackKind
    message: str


@dataclass(frozen=True)
class GradeResult:
    verdict: Verdict
    score: float
    feedback: list[Feedback] = field(default_factory=list)
    misconceptions: list[str] = field(default_factory=list)
    details: dict[str, object] = field(default_factory=dict)  # grader-specific, shown to learner
