"""The core gradient-tape pack: valid, large enough, every section and type covered."""

from __future__ import annotations

from collections import Counter

import pytest

from app.packs.coverage import coverage_table
from app.packs.loader import Pack, load_pack
from app.packs.schema import QUESTION_TYPES
from tests.conftest import CORE_PACK


@pytest.fixture(scope="module")
def core() -> Pack:
    report = load_pack(CORE_PACK)
    assert report.problems == [], "\n".join(map(str, report.problems))
    assert report.pack is not None
    return report.pack


def test_core_pack_has_sixty_questions(core: Pack) -> None:
    assert len(core.questions) >= 60


def test_core_pack_covers_every_section_six_times(core: Pack) -> None:
    per_section = Counter(item.question.section for item in core.questions)
    assert {s.id: per_section[s.id] >= 6 for s in core.meta.sections} == {
        s.id: True for s in core.meta.sections
    }, per_section


def test_core_pack_has_every_question_type(core: Pack) -> None:
    assert {item.question.type for item in core.questions} == set(QUESTION_TYPES)


def test_core_pack_readme_coverage_table_is_current(core: Pack) -> None:
    readme = (CORE_PACK / "README.md").read_text(encoding="utf-8")
    table = coverage_table(core)
    assert table in readme, f"regenerate with `tapequiz packs coverage`:\n{table}"


def test_core_pack_code_questions_ship_four_wrong_solutions(core: Pack) -> None:
    short = {
        item.question.id: len(item.question.wrong)
        for item in core.questions
        if item.question.type == "code" and len(item.question.wrong) < 4
    }
    assert short == {}


def test_core_pack_titles_are_unique(core: Pack) -> None:
    titles = Counter(item.question.title for item in core.questions)
    assert [t for t, n in titles.items() if n > 1] == []
