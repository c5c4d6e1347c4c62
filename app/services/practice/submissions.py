"""A learner's earlier submissions for one question, and the difference between two of them.

The practice loop is run, fix, resubmit: every graded answer is an Attempt, so the list of a
question's submissions is a query, and the diff is difflib over two stored answers (code, or
an answer in words). Another identity's attempts are never listed or diffed.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from sqlmodel import Session, col, select

from app.errors import NotFound
from app.models.progress import Attempt
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.practice.answer_text import answer_text

MAX_LISTED = 50


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "add" | "del" | "same" | "hunk"
    text: str


def submissions_of(session: Session, *, user: User, question_id: str) -> list[Attempt]:
    """This identity's attempts at the question, newest first."""
    query = (
        select(Attempt)
        .where(Attempt.user_id == user.id, Attempt.question_id == question_id)
        .order_by(col(Attempt.id).desc())
        .limit(MAX_LISTED)
    )
    return list(session.exec(query).all())


def latest_answer(session: Session, *, user: User, question_id: str) -> object:
    """The learner's last submitted answer to the question (None if they never answered)."""
    found = submissions_of(session, user=user, question_id=question_id)
    return found[0].answer if found else None


def _text(catalog: Catalog, attempt: Attempt) -> str:
    item = catalog.questions.get(attempt.question_id)
    if isinstance(attempt.answer, str) and item and item.question.type in ("code", "code-fix"):
        return attempt.answer
    return answer_text(item, attempt.answer).replace("; ", "\n").replace(" → ", "\n")


def diff(
    session: Session, catalog: Catalog, *, user: User, question_id: str, old: int, new: int
) -> list[DiffLine]:
    """Line diff from submission `old` to submission `new` (both the user's, same question)."""
    mine = {a.id: a for a in submissions_of(session, user=user, question_id=question_id)}
    if old not in mine or new not in mine:
        raise NotFound("no such pair of submissions for this question")
    before = _text(catalog, mine[old]).splitlines()
    after = _text(catalog, mine[new]).splitlines()
    lines = []
    for line in list(difflib.unified_diff(before, after, lineterm="", n=3))[2:]:
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "same")
        lines.append(DiffLine(kind=kind, text=line[1:] if kind != "hunk" else line))
    return lines
