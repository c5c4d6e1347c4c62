"""Round 31 (issue 14): an uploaded pack's questions read when it is published.

Start-up keeps the built-in packs' compiles (round 30); an uploaded pack's questions were read
(phrasings widened, their requirements, their compiles) at each question's first answer, in a
learner's request. Publishing now reads them (preload.read_uploaded), bounded and kept
nowhere but the caches every upload shares, so those answers read nothing more and grade the
same.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from app.grading.freetext import budget, lexicon, preload
from app.packs import rubric as rubric_module
from app.packs.rubric import PhrasingCompiles
from tests.grading.core_questions import question
from tests.grading.first_answer_shared import (
    forget_grader_caches,
    graded,
    graded_in_threads,
    regraded_counting,
)


@pytest.fixture
def upload_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[PhrasingCompiles]:
    """A store of compiles of its own (none kept: nothing of the question is built in), the
    grader's caches emptied before and after."""
    store = PhrasingCompiles(recent=4096)
    monkeypatch.setattr(rubric_module, "compiled_phrasing", store)
    monkeypatch.setattr(budget, "compiled_phrasing", store)
    forget_grader_caches()
    yield store
    forget_grader_caches()


def _uploaded(*question_ids: str) -> Any:
    """A pack as publishing holds it (only its questions are read)."""
    return SimpleNamespace(questions=[SimpleNamespace(question=question(q)) for q in question_ids])


def _forget_readings() -> None:
    forget_grader_caches()
    lexicon.widen.cache_clear()


def test_after_publishing_a_questions_first_answer_compiles_and_widens_nothing(
    upload_store: PhrasingCompiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = graded("persistent-tape")
    _forget_readings()
    upload_store.cache_clear()
    assert preload.read_uploaded(_uploaded("persistent-tape")) > 100
    assert regraded_counting("persistent-tape", monkeypatch) == (alone, {}, 0)


def test_reading_an_upload_keeps_nothing_for_the_processs_life(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = PhrasingCompiles(recent=8)
    monkeypatch.setattr(rubric_module, "compiled_phrasing", store)
    monkeypatch.setattr(budget, "compiled_phrasing", store)
    _forget_readings()
    try:
        assert preload.read_uploaded(_uploaded("gradient-vs-apply")) > 100
        assert store.sizes() == (0, 8)  # the shared recent part's bound, whatever the count
    finally:
        _forget_readings()


def test_reading_an_upload_stops_at_its_cpu_budget() -> None:
    assert preload.read_uploaded(_uploaded("gradient-vs-apply"), seconds=-1.0) == 0


def test_threads_grading_while_publishing_reads_grade_as_one_thread_does(
    upload_store: PhrasingCompiles,
) -> None:
    alone = graded("no-zero-grad")
    _forget_readings()
    upload_store.cache_clear()
    # publishing reads the question while learners' answers grade it
    read = graded_in_threads(
        "no-zero-grad", lambda: preload.read_uploaded(_uploaded("no-zero-grad"))
    )
    assert read == [alone] * 4
