"""What the set-up page and the question browser offer: packs, topics, types and counts.

Read-only views over the catalog (no database), shaped for menus and filters.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel

from app.packs.catalog import Catalog
from app.packs.public import QuestionSummary
from app.packs.schema import QUESTION_TYPES
from app.services import questions


class TopicEntry(BaseModel):
    id: str
    title: str
    count: int


class PackMenu(BaseModel):
    id: str
    title: str
    description: str
    question_count: int
    topics: list[TopicEntry]
    types: dict[str, int]


def menu(catalog: Catalog) -> list[PackMenu]:
    out = []
    for pack in catalog.packs.values():
        topics = Counter(i.question.topic for i in pack.questions)
        types: Counter[str] = Counter(i.question.type for i in pack.questions)
        out.append(
            PackMenu(
                id=pack.meta.id,
                title=pack.meta.title,
                description=pack.meta.description,
                question_count=len(pack.questions),
                topics=[
                    TopicEntry(id=t.id, title=t.title, count=topics[t.id])
                    for t in pack.meta.topics
                    if topics[t.id]
                ],
                types={t: types[t] for t in QUESTION_TYPES if types[t]},
            )
        )
    return out


def browse(
    catalog: Catalog,
    *,
    pack: str | None = None,
    topic: str | None = None,
    qtype: str | None = None,
    difficulty: str | None = None,
    text: str | None = None,
) -> list[QuestionSummary]:
    """Questions matching every given filter; `text` searches titles and prompts."""
    found = questions.list_questions(catalog, pack=pack, topic=topic, type=qtype)
    needle = (text or "").strip().lower()
    return [
        s
        for s in found
        if (difficulty is None or s.difficulty == difficulty)
        and (not needle or needle in s.title.lower() or needle in _prompt(catalog, s.id))
    ]


def _prompt(catalog: Catalog, question_id: str) -> str:
    return catalog.questions[question_id].question.prompt.lower()
