"""The core pack's free-text questions by id, loaded once for the free-text grader tests."""

from __future__ import annotations

from functools import cache

from app.config import REPO_ROOT
from app.packs.loader import load_pack
from app.packs.schema import FreeText

CORE = REPO_ROOT / "questions" / "gradient-tape"


@cache
def question(question_id: str) -> FreeText:
    loaded = load_pack(CORE)
    assert loaded.pack is not None, loaded.problems
    found = next(q.question for q in loaded.pack.questions if q.question.id == question_id)
    assert isinstance(found, FreeText)
    return found


@cache
def free_text_ids() -> list[str]:
    """Every free-text question of the core pack, by id (sorted)."""
    loaded = load_pack(CORE)
    assert loaded.pack is not None, loaded.problems
    return sorted(q.question.id for q in loaded.pack.questions if isinstance(q.question, FreeText))


def tells_by_rules(question_id: str, text: str) -> list[str]:
    """The misconceptions the rules alone name (no second opinion, no neighbours)."""
    from app.grading.freetext import grade_freetext

    result = grade_freetext(question(question_id), text, second_opinion=False, neighbours=False)
    return list(result.misconceptions)


def concepts_by_rules(question_id: str, text: str) -> list[str]:
    """The concepts the rules credit (no second opinion, no neighbours; caps do not move
    what is credited)."""
    from app.grading.freetext import grade_freetext

    result = grade_freetext(
        question(question_id), text, second_opinion=False, neighbours=False, tell_caps=False
    )
    return list(result.details["concepts_found"])


def grading_cpu_seconds(question_id: str, text: str) -> float:
    """CPU seconds the shipped grader spends on `text`, after one warm-up answer to the same
    question (the rounds' hostile-shape tests read this against their bound)."""
    import time

    from app.grading.freetext import grade_freetext

    grade_freetext(question(question_id), "warm up.")
    start = time.process_time()
    grade_freetext(question(question_id), text)
    return time.process_time() - start
