"""What a candidate may see of a question: everything needed to answer, nothing that answers.

One allow-list per type, built field by field, so a new secret field in the pack format
(a rubric, a reference solution) can never leak by default.
"""

from __future__ import annotations

import hashlib
import random
from typing import Literal

from pydantic import BaseModel

from app.packs.loader import LoadedQuestion
from app.packs.schema import ChoiceQuestionBase, Code, CodeFix, Ordering, PredictOutput, TrueFalse


class PublicOption(BaseModel):
    id: str
    text: str


class QuestionSummary(BaseModel):
    id: str
    pack: str
    type: str
    title: str
    difficulty: Literal["easy", "medium", "hard"]
    topic: str
    section: str


class QuestionDetail(QuestionSummary):
    prompt: str
    tags: list[str]
    section_title: str
    hint_count: int
    version: str
    choices: list[PublicOption] | None = None
    items: list[PublicOption] | None = None
    code: str | None = None
    function: str | None = None
    starter: str | None = None
    answer_format: str


ANSWER_FORMATS = {
    "single-choice": "a choice id (string)",
    "predict-output": "a choice id (string)",
    "true-false": 'true or false (boolean, or "true"/"false")',
    "multiple-choice": "a list of choice ids",
    "ordering": "a list of all item ids in the order you choose",
    "free-text": "a string (your explanation)",
    "code": "a string: Python source defining the function",
    "code-fix": "a string: the repaired Python source",
}


def summarize(item: LoadedQuestion) -> QuestionSummary:
    q = item.question
    return QuestionSummary(
        id=q.id,
        pack=item.pack_id,
        type=q.type,
        title=q.title,
        difficulty=q.difficulty,
        topic=q.topic,
        section=q.section,
    )


def shuffled_items(question: Ordering) -> list[PublicOption]:
    """A stable shuffle per question that never shows the items in their correct order."""
    items = [PublicOption(id=i.id, text=i.text) for i in question.items]
    seed = int(hashlib.sha256(question.id.encode()).hexdigest()[:8], 16)
    rng = random.Random(seed)  # noqa: S311 (a stable display order, not a secret)
    shuffled = items[:]
    while [i.id for i in shuffled] == [i.id for i in items]:
        rng.shuffle(shuffled)
    return shuffled


def detail(item: LoadedQuestion, section_title: str) -> QuestionDetail:
    q = item.question
    out = QuestionDetail(
        **summarize(item).model_dump(),
        prompt=q.prompt,
        tags=list(q.tags),
        section_title=section_title,
        hint_count=len(q.hints),
        version=item.version,
        answer_format=ANSWER_FORMATS[q.type],
    )
    if isinstance(q, ChoiceQuestionBase):
        out.choices = [PublicOption(id=c.id, text=c.text) for c in q.choices]
    if isinstance(q, TrueFalse):
        out.choices = [PublicOption(id="true", text="True"), PublicOption(id="false", text="False")]
    if isinstance(q, PredictOutput):
        out.code = q.code
    if isinstance(q, Ordering):
        out.items = shuffled_items(q)
    if isinstance(q, Code | CodeFix):
        out.function = q.function
        out.starter = q.starter if isinstance(q, Code) else q.broken
    return out
