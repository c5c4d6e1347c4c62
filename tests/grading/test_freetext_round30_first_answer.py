"""Round 30 (issue 14): each question's first answer, and the compiles an upload can evict.

The web process's start-up reads the built-in packs' free-text phrasings whole (widened,
their requirements, compiled) and keeps their compiles for its life (preload.py,
rubric.PhrasingCompiles), so a question's first answer compiles and widens nothing, and an
uploaded pack's phrasings, however many, cannot evict the core pack's compiles.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import regex
from fastapi.testclient import TestClient

import app.main
from app.config import REPO_ROOT, Settings
from app.grading.freetext import budget, lexicon, preload
from app.grading.freetext.budget import FLAGS, BoundedPattern
from app.main import create_app
from app.packs import rubric as rubric_module
from app.packs.catalog import Catalog
from app.packs.loader import load_pack
from app.packs.rubric import PhrasingCompiles, Rubric
from tests.conftest import FIXTURE_PACKS
from tests.grading.core_questions import CORE, question
from tests.grading.first_answer_shared import (
    CompileCounter,
    counting_compiles,
    forget_grader_caches,
    graded,
    graded_in_threads,
    regraded_counting,
)


@pytest.fixture
def small_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[PhrasingCompiles]:
    """A store of compiles of its own, whose recent part holds 8 (the loader's and the
    grader's), so that a test neither fills nor empties the process's."""
    store = PhrasingCompiles(recent=8)
    monkeypatch.setattr(rubric_module, "compiled_phrasing", store)
    monkeypatch.setattr(budget, "compiled_phrasing", store)
    forget_grader_caches()  # every phrasing met again, uncompiled
    yield store
    forget_grader_caches()  # none of this store's compiles outlives the test


def test_kept_compiles_outlive_any_number_of_others() -> None:
    store = PhrasingCompiles(recent=4)
    kept = store.keep("zqtape records")
    others = [store(f"zqother{i}") for i in range(20)]
    assert store("zqtape records") is kept
    assert store.sizes() == (1, 4)
    assert store("zqother19") is others[-1]  # the recent ones are still held, up to 4


def test_an_uploaded_pack_cannot_evict_the_core_packs_compiles(
    small_store: PhrasingCompiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before round 30 one LRU of 2,048 held every compile: a pack with more phrasings than
    # that evicted the core pack's, and its next answers compiled them again.
    alone = graded("gradient-vs-apply")
    kept = preload.keep_phrasings(question("gradient-vs-apply").rubric)
    assert kept > 100 and small_store.sizes()[0] > 100
    raw = question("gradient-vs-apply").rubric.model_dump()
    raw["concepts"] = [
        {"id": f"zq{i}", "label": "x", "any": [f"zqupload{i}{j} ~ zqtape" for j in range(20)]}
        for i in range(12)
    ]
    Rubric.model_validate(raw)  # an upload's loading: 240 compiles, more than the 8 recent
    forget_grader_caches()  # the grader's own caches evicted too
    counted = counting_compiles(monkeypatch)
    assert graded("gradient-vs-apply") == alone
    assert counted.counts == {}


def test_after_start_up_a_questions_first_answer_compiles_and_widens_nothing(
    small_store: PhrasingCompiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = graded("persistent-tape")
    forget_grader_caches()
    lexicon.widen.cache_clear()
    preload.keep_phrasings(question("persistent-tape").rubric)
    assert regraded_counting("persistent-tape", monkeypatch) == (alone, {}, 0)


def test_a_word_edged_role_reads_the_stored_compile(small_store: PhrasingCompiles) -> None:
    # a compile reads its flags back with UNICODE set (regex sets it on text expressions);
    # claims.word_edged builds a role's word-edged form from them: the same compile
    found = BoundedPattern.deferred("zqrole (?:a|b)", FLAGS | int(regex.UNICODE))
    assert found.checked().compiled is small_store("zqrole (?:a|b)")


def test_start_up_keeps_the_built_in_packs_phrasings_only(tmp_path: Path) -> None:
    catalog = Catalog()
    core = load_pack(CORE).pack
    uploaded = load_pack(FIXTURE_PACKS / "mini").pack
    assert core is not None and uploaded is not None
    assert catalog.add(core) == [] and catalog.add(uploaded) == []
    rubrics = preload.built_in_rubrics(catalog, REPO_ROOT / "questions")
    core_ids = {q.question.id for q in core.questions if q.question.type == "free-text"}
    assert len(rubrics) == len(core_ids) == 10
    assert preload.built_in_rubrics(catalog, tmp_path) == []


def test_threads_meeting_an_expression_first_read_one_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted = CompileCounter(pause=0.05)
    monkeypatch.setattr(rubric_module.regex, "compile", counted)
    store = PhrasingCompiles(recent=4)
    start = threading.Barrier(8)
    read: list[Any] = []

    def first_use(worker: int) -> None:
        start.wait()
        read.append(store.keep("zqshared") if worker % 2 else store("zqshared"))

    threads = [threading.Thread(target=first_use, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(read) == 8 and all(r is read[0] for r in read)
    assert store.sizes() == (1, 0)


def test_threads_grading_after_start_up_grade_as_one_thread_does(
    small_store: PhrasingCompiles,
) -> None:
    alone = graded("no-zero-grad")
    forget_grader_caches()
    # one keeps the question's phrasings while the others grade it
    read = graded_in_threads(
        "no-zero-grad", lambda: preload.keep_phrasings(question("no-zero-grad").rubric)
    )
    assert read == [alone] * 4


def test_start_up_gives_preload_the_catalog(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Settings, Catalog | None]] = []
    monkeypatch.setattr(app.main, "preload", lambda s, c=None: calls.append((s, c)))
    mini = {"freetext_neighbours": False, "packs_dir": FIXTURE_PACKS}
    with TestClient(create_app(settings.model_copy(update=mini))) as client:
        assert len(calls) == 1 and calls[0][1] is client.app.state.catalog  # type: ignore[attr-defined]
