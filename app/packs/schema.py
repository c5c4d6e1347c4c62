"""The question-pack format, as pydantic models.

A pack is a folder: `pack.yaml` (metadata, sections, topics) and one YAML file per question.
These models are the single definition of what a valid file holds; the loader turns their
errors into messages with file and line, and everything downstream (API, graders, pages)
works on these validated objects rather than raw dicts.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from app.packs.rubric import PointedError, Rubric, SampleAnswer

SLUG = r"^[a-z0-9][a-z0-9-]{0,62}$"
Slug = Annotated[str, Field(pattern=SLUG)]
Difficulty = Literal["easy", "medium", "hard"]
MAX_TEXT = 20_000
Compared = Literal["result", "variables"]


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
    version: str = Field(pattern=r"^\d+\.\d+\.\d+$", max_length=32)  # a folder name
    source: str = Field(default="", max_length=500)
    sections: list[Section] = Field(min_length=1)
    topics: list[Topic] = Field(min_length=1)

    @field_validator("sections", "topics")
    @classmethod
    def _unique_ids(
        cls, items: list[Section | Topic], info: ValidationInfo
    ) -> list[Section | Topic]:
        """Point at the first repeated id, so the author is sent to its line, not line 1."""
        seen: set[str] = set()
        for n, item in enumerate(items):
            if item.id in seen:
                kind = str(info.field_name)[:-1]
                raise PointedError(f"duplicate {kind} id: {item.id}", at=(n, "id"))
            seen.add(item.id)
        return items


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


def exactly_one_correct(choices: list[Choice], kind: str) -> list[Choice]:
    marked = [n for n, c in enumerate(choices) if c.correct]
    if not marked:
        raise ValueError(f"a {kind} question needs exactly one correct choice; none is marked")
    if len(marked) > 1:
        ids = ", ".join(choices[n].id for n in marked)
        message = f"a {kind} question needs exactly one correct choice; {ids} are all marked"
        raise PointedError(message, at=(marked[1], "correct"))
    return choices


class SingleChoice(ChoiceQuestionBase):
    type: Literal["single-choice"]

    @field_validator("choices")
    @classmethod
    def _exactly_one(cls, choices: list[Choice]) -> list[Choice]:
        return exactly_one_correct(choices, "single-choice")


class MultipleChoice(ChoiceQuestionBase):
    type: Literal["multiple-choice"]

    @field_validator("choices")
    @classmethod
    def _at_least_one(cls, choices: list[Choice]) -> list[Choice]:
        if not any(c.correct for c in choices):
            raise ValueError("a multiple-choice question needs at least one correct choice")
        return choices


class PredictOutput(ChoiceQuestionBase):
    """A snippet plus the outcomes a candidate may predict (prints X, raises Y, ...)."""

    type: Literal["predict-output"]
    code: str = Field(min_length=1, max_length=MAX_TEXT)

    @field_validator("choices")
    @classmethod
    def _exactly_one(cls, choices: list[Choice]) -> list[Choice]:
        return exactly_one_correct(choices, "predict-output")


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
    # Bounds on what one upload makes the self-test grade (each sample) or run in the
    # sandbox (each known-wrong solution); the core pack uses at most 3 and 7.
    samples: list[SampleAnswer] = Field(default_factory=list, max_length=100)


class WrongSolution(Strict):
    """A known-wrong answer and the misconception tag the checker must report for it."""

    tag: Slug
    label: str = Field(min_length=1, max_length=300)
    code: str = Field(min_length=1, max_length=65_536)


BUILTIN_CONTRACTS = (  # the worker's hard-coded scenarios (app/grading/sandbox/worker/scenarios.py)
    "train-step",
    "clip-step",
    "accumulate",
    "gan-step",
    "second-derivative",
    "input-gradient",
)


def _result_only() -> list[Compared]:
    return ["result"]


class Checker(Strict):
    """A pack-declared contract: how inputs are built and what is compared.

    `setup` is instructor Python; it is only ever executed inside the sandbox, next to the
    candidate's code, never in the web process.
    """

    setup: str = Field(min_length=1, max_length=65_536)
    seeds: list[Annotated[int, Field(ge=0, le=2**31 - 1)]] = Field(min_length=1, max_length=5)
    tf_function: bool = False
    compare: list[Compared] = Field(default_factory=_result_only, min_length=1, max_length=2)
    rtol: float = Field(default=1e-5, gt=0, le=1)
    atol: float = Field(default=1e-6, gt=0, le=1)

    @field_validator("setup")
    @classmethod
    def _defines_make_inputs(cls, setup: str) -> str:
        if not re.search(r"^def make_inputs\(", setup, re.MULTILINE):
            raise ValueError("setup must define make_inputs(seed) at top level")
        return setup

    @field_validator("seeds", "compare")
    @classmethod
    def _distinct(cls, items: list[object]) -> list[object]:
        if len(set(items)) != len(items):
            raise ValueError("entries must be distinct")
        return items


class CodeQuestionBase(QuestionBase):
    checker: Checker | None = None  # declared before contract so the contract check can see it
    contract: Slug
    function: str = Field(min_length=1, max_length=500)
    reference: str = Field(min_length=1, max_length=65_536)
    wrong: list[WrongSolution] = Field(default_factory=list, max_length=20)

    @field_validator("contract")
    @classmethod
    def _known_or_declared(cls, contract: str, info: ValidationInfo) -> str:
        if "checker" not in info.data:
            return contract  # the checker block itself is invalid; that error says enough
        declared = info.data["checker"] is not None
        if contract in BUILTIN_CONTRACTS and declared:
            raise ValueError(f"{contract!r} is a built-in contract; a checker needs a new id")
        if contract not in BUILTIN_CONTRACTS and not declared:
            known = ", ".join(BUILTIN_CONTRACTS)
            raise ValueError(f"unknown contract {contract!r}: use one of {known} or add checker:")
        return contract

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
