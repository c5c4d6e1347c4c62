"""Rubric models for free-text questions: what an instructor writes to grade explanations.

Kept apart from schema.py because the rubric language (phrasings, tells, thresholds) is the
free-text grader's contract with pack authors and evolves with that grader.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Verdict = Literal["correct", "partial", "incorrect"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_patterns(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        try:
            re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
    return patterns


class Concept(_Strict):
    """An idea a good answer states; `any` lists regular expressions for its phrasings."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")
    label: str = Field(min_length=1, max_length=300)
    weight: float = Field(default=1.0, gt=0, le=10)
    any: list[str] = Field(min_length=1, max_length=60)

    _valid = field_validator("any")(classmethod(lambda cls, v: _check_patterns(v)))


class Misconception(_Strict):
    """A tell: a statement that reveals a wrong mental model, with the correction to show."""

    tag: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")
    any: list[str] = Field(min_length=1, max_length=60)
    correction: str = Field(min_length=1, max_length=2_000)

    _valid = field_validator("any")(classmethod(lambda cls, v: _check_patterns(v)))


class Thresholds(_Strict):
    correct: float = Field(default=0.75, gt=0, le=1)
    partial: float = Field(default=0.4, gt=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> Thresholds:
        if self.partial >= self.correct:
            raise ValueError("thresholds.partial must be below thresholds.correct")
        return self


class Rubric(_Strict):
    concepts: list[Concept] = Field(min_length=1, max_length=12)
    misconceptions: list[Misconception] = Field(default_factory=list, max_length=20)
    model_answer: str = Field(min_length=1, max_length=5_000)
    thresholds: Thresholds = Thresholds()


class SampleAnswer(_Strict):
    """A labelled answer: the self-test and calibration check the grader agrees with it."""

    answer: str = Field(min_length=1, max_length=10_000)
    verdict: Verdict
    misconceptions: list[str] = Field(default_factory=list)
