"""The question-pack format, as pydantic models.

A pack is a folder: `pack.yaml` (metadata, sections, topics) and one YAML file per question.
These models are the single definition of what a valid file holds; the loader turns their
errors into messages with file and line, and everything downstream (API, graders, pages)
works on these validated objects rather than raw dicts.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.packs.rubric import Rubric, SampleAnswer

SLUG = r"^[a-z0-9][a-z0-9-]{0,62}$"
Slug = Annotated[str, Field(pattern=SLUG)]
Difficulty = Literal["easy", "medium", "hard"]
MAX_TEXT = 20_000


class Strict(BaseModel):
    """Unknown keys are errors: a typo in a pack must not silently drop a field."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Section(Strict):
    id: Slug
    title: str = Field(min_length=1, max_length=200)


class Topic(Strict):
    id: Slug
    title: str = Field(min_length=1, max_length=200)


class PackMeta(Strict):
    id: Slug
    title: str = Field(min_length=1, max_length=200)
    description: str = Field(min_length=1, max_length=MAX_TEXT)
    version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
    source: str = Field(default="", max_length=500)
    sections: list[Section] = Field(min_length=1)
    topics: list[Topic] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> PackMeta:
        for kind, items in (("section", self.sections), ("topic", self.topics)):
            ids = [item.id for item in items]
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {kind} id(s): {', '.join(dupes)}")
        return self


class QuestionBase(Strict):
    id: Slug
    title: str = Field(min_length=1, max_length=200)
    prompt: str = Field(min_length=1, max_length=MAX_TEXT)
    difficulty: Difficulty
    topic: Slug
    tags: list[Slug] = Field(default_factory=list, max_length=20)
    section: Slug
    hints: list[str] = Field(min_length=1, max_length=5)
    explanation: str = Field(min_length=1, max_length=MAX_TEXT)


class Choice(Strict):
    id: Slug
    text: str = Field(min_length=1, max_length=2_000)
    correct: bool = False
    why: str = Field(default="", max_length=2_000)


class ChoiceQuestionBase(QuestionBase):
    choices: list[Choice] = Field(min_length=2, max_length=8)

    @field_validator("choices")
    @classmethod
    def _unique_choice_ids(cls, choices: list[Choice]) -> list[Choice]:
        ids = [c.id for c in choices]
        if len(set(ids)) != len(ids):
            raise ValueError("choice ids must be unique within a question")
        return choices

    def correct_ids(self) -> set[str]:
        return {c.id for c in self.choices if c.correct}


class SingleChoice(ChoiceQuestionBase):
    type: Literal["single-choice"]

    @model_validator(mode="after")
    def _exactly_one(self) -> SingleChoice:
        if len(self.correct_ids()) != 1:
            raise ValueError("a single-choice question needs exactly one correct choice")
        return self


class MultipleChoice(ChoiceQuestionBase):
    type: Literal["multiple-choice"]

    @model_validator(mode="after")
    def _at_least_one(self) -> MultipleChoice:
        if not self.correct_ids():
            raise ValueError("a multiple-choice question needs at least one correct choice")
        return self


class PredictOutput(ChoiceQuestionBase):
    """A snippet plus the outcomes a candidate may predict (prints X, raises Y, ...)."""

    type: Literal["predict-output"]
    code: str = Field(min_length=1, max_length=MAX_TEXT)

    @model_validator(mode="after")
    def _exactly_one(self) -> PredictOutput:
        if len(self.correct_ids()) != 1:
            raise ValueError("a predict-output question needs exactly one correct choice")
        return self


class TrueFalse(QuestionBase):
    type: Literal["true-false"]
    answer: bool


class OrderItem(Strict):
    id: Slug
    text: str = Field(min_length=1, max_length=500)


class Ordering(QuestionBase):
    """`items` are listed in the correct order; the API serves them shuffled."""

    type: Literal["ordering"]
    items: list[OrderItem] = Field(min_length=3, max_length=12)

    @field_validator("items")
    @classmethod
    def _unique_item_ids(cls, items: list[OrderItem]) -> list[OrderItem]:
        ids = [i.id for i in items]
        if len(set(ids)) != len(ids):
            raise ValueError("item ids must be unique within a question")
        return items


class FreeText(QuestionBase):
    type: Literal["free-text"]
    rubric: Rubric
    samples: list[SampleAnswer] = Field(default_factory=list)


class WrongSolution(Strict):
    """A known-wrong answer and the misconception tag the checker must report for it."""

    tag: Slug
    label: str = Field(min_length=1, max_length=300)
    code: str = Field(min_length=1, max_length=65_536)


class CodeQuestionBase(QuestionBase):
    contract: Slug
    function: str = Field(min_length=1, max_length=500)
    reference: str = Field(min_length=1, max_length=65_536)
    wrong: list[WrongSolution] = Field(default_factory=list)

    @field_validator("function")
    @classmethod
    def _looks_like_signature(cls, function: str) -> str:
        if not re.match(r"^[A-Za-z_]\w*\(.*\)", function.strip()):
            raise ValueError("function must be a signature such as 'train_step(model, x)'")
        return function


class Code(CodeQuestionBase):
    type: Literal["code"]
    starter: str = Field(default="", max_length=65_536)


class CodeFix(CodeQuestionBase):
    """Broken code to repair; graded by the same contract as a code question."""

    type: Literal["code-fix"]
    broken: str = Field(min_length=1, max_length=65_536)


Question = Annotated[
    SingleChoice
    | MultipleChoice
    | TrueFalse
    | Ordering
    | PredictOutput
    | FreeText
    | Code
    | CodeFix,
    Field(discriminator="type"),
]
QUESTION_TYPES = (
    "single-choice",
    "multiple-choice",
    "true-false",
    "ordering",
    "predict-output",
    "free-text",
    "code",
    "code-fix",
)
CHOICE_TYPES = ("single-choice", "multiple-choice", "true-false", "predict-output")
