"""The core pack's free-text questions by id, loaded once for the free-text grader tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

import yaml

from app.config import REPO_ROOT
from app.grading.results import GradeResult
from app.packs.loader import load_pack
from app.packs.rubric import Misconception
from app.packs.schema import FreeText
from tests.grading.linear_time import assert_linear

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


def graded_by_rules_alone(question_id: str, text: str) -> GradeResult:
    """The grading of the rules alone (every learned part and the learned caps off; the
    rubric's own caps stay): what a phrasing or a YAML cap moves, read without the artefacts
    it would retrain."""
    from app.grading.freetext import grade_freetext

    return grade_freetext(
        question(question_id),
        text,
        second_opinion=False,
        neighbours=False,
        tell_caps=False,
        tag_classifier=False,
    )


def verdict_and_concepts_by_rules(question_id: str, text: str) -> tuple[str, set[str]]:
    """The rules alone's verdict and credited concepts (`graded_by_rules_alone`)."""
    result = graded_by_rules_alone(question_id, text)
    return result.verdict, set(result.details.get("concepts_found", ()))


def assert_grades_in_linear_time(question_id: str, text: str) -> None:
    """The shipped grader reads `text` within its budget and in linear time: at most
    `linear_time.BOUND` times the cost of the same shape 8 times shorter (the rounds'
    hostile-shape tests; the text first cut to the part the grader reads)."""
    from app.grading.freetext import grade_freetext
    from app.grading.freetext.normalise import MAX_CHARS

    def graded(answer: str) -> None:
        result = grade_freetext(question(question_id), answer)
        assert not result.details.get("stopped_early"), (question_id, answer[:60])

    graded("warm up.")
    assert_linear(graded, text, length=MAX_CHARS)


def phrasings_under(
    comment: str, question_ids: Iterable[str], *, first_only: bool = False
) -> list[str]:
    """The phrasings listed right under each YAML comment line holding `comment` in these
    questions' files (a round's content tests read back what the round wrote): every list item
    up to the next line that is not one, or only the first when each comment heads one."""
    found = []
    for name in question_ids:
        lines = (CORE / f"{name}.yaml").read_text().splitlines()
        for i, line in enumerate(lines):
            if comment not in line:
                continue
            block = [line.strip() for line in lines[i + 1 :]]
            block = block[next(j for j, text in enumerate(block) if not text.startswith("#")) :]
            for text in block[:1] if first_only else block:
                phrasing = yaml.safe_load(text[2:]) if text.startswith("- ") else None
                if not isinstance(phrasing, str):
                    break
                found.append(phrasing)
    return found


def misconception_of(question_id: str, tag: str) -> Misconception:
    """The question's one misconception entry with this tag (its phrasings, cap, ...)."""
    (entry,) = [m for m in question(question_id).rubric.misconceptions if m.tag == tag]
    return entry


def phrasings_of_tags(tags_by_question: Mapping[str, Iterable[str]]) -> list[str]:
    """Every phrasing (`any` and `negated`) of these misconceptions, question by question, each
    once (a round's content tests read back the entries the round added)."""
    found = [
        phrasing
        for qid, tags in tags_by_question.items()
        for m in question(qid).rubric.misconceptions
        if m.tag in tags
        for phrasing in (*m.any, *m.negated)
    ]
    return list(dict.fromkeys(found))


def assert_linear_on(patterns: Iterable[str], pumped: Iterable[str]) -> None:
    """Each role of each phrasing searches each pumped text in linear time (`assert_linear`)."""
    from app.grading.freetext.phrasings import compile_phrasing

    texts = list(pumped)
    # an excluded role `!(...)`, an answer guard `!!(...)` or requirement `!+(...)` (round 54)
    roles = (r.removeprefix("!+").lstrip("!") for pattern in patterns for r in pattern.split(" & "))
    for role in dict.fromkeys(roles):
        compiled = compile_phrasing(role).compiled
        for text in texts:
            assert_linear(compiled.search, text, fresh=False, what=role)
