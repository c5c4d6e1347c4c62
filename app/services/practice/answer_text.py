"""Show stored answers and misconception tags in words, as the pack author wrote them.

Attempts store ids (stable across wording edits); a learner reading their history wants
"tf.GradientTape", not "tape". Unknown ids (a question since edited) are shown as they are.
"""

from __future__ import annotations

from app.packs.loader import LoadedQuestion
from app.packs.schema import ChoiceQuestionBase, Code, CodeFix, FreeText, Ordering, TrueFalse


def option_texts(question: object) -> dict[str, str]:
    """A choice or ordering question's option ids -> the texts shown; {} for other types."""
    if isinstance(question, ChoiceQuestionBase):
        return {c.id: c.text for c in question.choices}
    if isinstance(question, Ordering):
        return {i.id: i.text for i in question.items}
    return {}


def answer_text(item: LoadedQuestion | None, answer: object) -> str:
    question = item.question if item else None
    if isinstance(answer, bool) or isinstance(question, TrueFalse):
        return {True: "True", False: "False", "true": "True", "false": "False"}.get(
            answer,  # type: ignore[call-overload]
            str(answer),
        )
    names = option_texts(question)
    if isinstance(answer, list):
        joiner = " → " if isinstance(question, Ordering) else "; "
        return joiner.join(names.get(str(a), str(a)) for a in answer)
    if isinstance(answer, str):
        return names.get(answer, answer)
    return "" if answer is None else str(answer)


def label_of(item: LoadedQuestion | None, tag: str) -> str:
    """The author's words for a misconception tag, else the tag made readable."""
    question = item.question if item else None
    labels: dict[str, str] = {}
    if isinstance(question, FreeText):
        labels = {m.tag: m.label for m in question.rubric.misconceptions if m.label}
    if isinstance(question, Code | CodeFix):
        labels = {w.tag: w.label for w in question.wrong}
    return labels.get(tag) or tag.replace("-", " ").capitalize()


def answer_items(item: LoadedQuestion | None, answer: object) -> list[str]:
    """A list answer (choices picked, items in order) as the texts the learner saw."""
    if not isinstance(answer, list):
        return []
    question = item.question if item else None
    names = option_texts(question)
    return [names.get(str(a), str(a)) for a in answer]
