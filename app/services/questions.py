"""Use cases over the question catalog: browse packs and questions, reveal hints, grade."""

from __future__ import annotations

from app.errors import NotFound
from app.grading.choice import solution_of
from app.grading.dispatch import CodeGraderLike, grade_answer
from app.packs.catalog import Catalog
from app.packs.loader import LoadedQuestion
from app.packs.public import QuestionDetail, QuestionSummary, detail, summarize
from app.schemas import GradeResponse, Hint, PackSummary
from app.services.progress import misconceptions


def list_packs(catalog: Catalog) -> list[PackSummary]:
    return [
        PackSummary(
            id=pack.meta.id,
            title=pack.meta.title,
            description=pack.meta.description,
            question_count=len(pack.questions),
            version=pack.meta.version,
        )
        for pack in catalog.packs.values()
    ]


def list_questions(
    catalog: Catalog,
    *,
    pack: str | None = None,
    type: str | None = None,
    topic: str | None = None,
    section: str | None = None,
) -> list[QuestionSummary]:
    if pack is not None and pack not in catalog.packs:
        raise NotFound(f"no pack with id {pack[:80]!r}")
    wanted = {"pack_id": pack, "type": type, "topic": topic, "section": section}
    return [
        summarize(item)
        for item in catalog.questions.values()
        if all(value is None or _field(item, key) == value for key, value in wanted.items())
    ]


def _field(item: LoadedQuestion, key: str) -> str:
    return item.pack_id if key == "pack_id" else str(getattr(item.question, key))


def find_question(catalog: Catalog, question_id: str) -> LoadedQuestion:
    item = catalog.questions.get(question_id)
    if item is None:
        raise NotFound(f"no question with id {question_id[:80]!r}")
    return item


def section_title(catalog: Catalog, item: LoadedQuestion) -> str:
    sections = catalog.packs[item.pack_id].meta.sections
    return next(s.title for s in sections if s.id == item.question.section)


def get_question(catalog: Catalog, question_id: str) -> QuestionDetail:
    """The public view of a question, built once per loaded catalog (every question page
    needs it; building it was ~2% of that page's CPU). Callers treat it as read-only."""
    item = find_question(catalog, question_id)
    known = _details.get(question_id)
    if known is not None and known[0] is catalog and known[1] is item:
        return known[2]
    made = detail(item, section_title(catalog, item))
    if len(_details) >= 8192:  # ids of many published catalogs over a long run
        _details.clear()
    _details[question_id] = (catalog, item, made)  # a publish loads a new catalog: rebuilt
    return made


_details: dict[str, tuple[Catalog, LoadedQuestion, QuestionDetail]] = {}


def get_hint(catalog: Catalog, question_id: str, index: int) -> Hint:
    hints = find_question(catalog, question_id).question.hints
    if not 0 <= index < len(hints):
        raise NotFound(
            f"question {question_id!r} has {len(hints)} hint(s); index {index} is out of range"
        )
    return Hint(question_id=question_id, index=index, count=len(hints), text=hints[index])


async def grade(
    catalog: Catalog, question_id: str, answer: object, *, code_grader: CodeGraderLike | None
) -> GradeResponse:
    item = find_question(catalog, question_id)
    graded = await grade_answer(item, answer, code_grader=code_grader)
    return GradeResponse.build(
        question_id=question_id,
        result=graded.result,
        explanation=item.question.explanation,
        section=section_title(catalog, item),
        elapsed_ms=graded.elapsed_ms,
        solution=solution_of(item.question),
    )


async def grade_unrecorded(
    catalog: Catalog, question_id: str, answer: object, *, code_grader: CodeGraderLike | None
) -> GradeResponse:
    """The stateless grade endpoint: graded as a session's answer is, and reported as a
    session's attempt is (`attempt_view`): errors apart from misconceptions. Sessions store
    every tag and split them when shown, so `grade` itself keeps them all."""
    response = await grade(catalog, question_id, answer, code_grader=code_grader)
    beliefs, errors = misconceptions.tells_and_errors(catalog, response.misconceptions)
    return response.model_copy(update={"misconceptions": beliefs, "errors": errors})
