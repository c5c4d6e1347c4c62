"""Round 29 (issue 14): a fresh process's first free-text answer.

A phrasing is compiled by its first search that runs, not when it is first read
(budget.BoundedPattern.deferred): a cold process's first answers compiled every phrasing of
their question (~250 each) though the requirement rules most searches out. Threads that meet
a phrasing first together compile it once and grade as one thread does. The web process
reads the inflection table and the artefacts' tables at start-up (preload.py).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import regex
from fastapi.testclient import TestClient

import app.main
from app.config import Settings
from app.grading.freetext import budget, grade_freetext, lexicon, misses, phrasings
from app.grading.freetext.artefacts import artefact_questions
from app.grading.freetext.budget import FLAGS, BoundedPattern, answer_budget
from app.grading.freetext.preload import preload
from app.main import create_app
from app.packs.rubric import Rubric
from tests.conftest import FIXTURE_PACKS
from tests.grading.core_questions import question
from tests.grading.first_answer_shared import (
    ANSWERS,
    CompileCounter,
    counting_compiles,
    forget_grader_caches,
    graded,
    whole,
)


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return counting_compiles(monkeypatch)


def test_a_phrasing_is_compiled_by_its_first_search_that_runs(compiles: CompileCounter) -> None:
    found = phrasings.compile_phrasing("(zqgradient|zqderivative) zqtape")
    assert compiles.counts == {}  # read (widened, its requirement), not compiled
    with answer_budget():
        assert found.search("the optimizer applies the update") is None  # ruled out
        assert compiles.counts == {}
        assert found.search("a zqgradient zqtape records") is not None
        assert found.search("a zqderivative zqtape") is not None
    assert list(compiles.counts.values()) == [1]
    assert found.pattern == "(zqgradient|zqderivative) zqtape"
    assert found.flags == regex.compile(found.pattern, FLAGS).flags


def test_a_phrasing_the_pack_loader_validated_is_not_compiled_again(
    compiles: CompileCounter,
) -> None:
    raw = question("gradient-vs-apply").rubric.model_dump()
    raw["concepts"][0]["any"] = ["zqvalidated ~ zqtape"]
    Rubric.model_validate(raw)  # a pack's loading compiles each phrasing whole
    ours = [n for p, n in compiles.counts.items() if "zqvalidated" in p]
    assert ours == [1]
    with answer_budget():
        found = phrasings.compile_phrasing("zqvalidated ~ zqtape")
        assert found.search("the zqvalidated zqtape") is not None
    assert compiles.counts[found.pattern] == 1  # the grader read the loader's compile


def test_outside_a_budget_a_deferred_phrasing_is_compiled_and_searched() -> None:
    # the pack-time timing check searches every text (round 28) and compiles first
    found = BoundedPattern.deferred("zqtape records", FLAGS)
    assert found.search("aaaa") is None and found.search("zqtape records") is not None


def test_an_invalid_expression_is_refused_at_its_first_search_or_when_checked() -> None:
    found = BoundedPattern.deferred("(zqtape", FLAGS)  # not refused when read
    with pytest.raises(regex.error):
        found.checked()
    with answer_budget(), pytest.raises(regex.error):
        found.search("zqtape")


def test_a_miss_cause_skips_the_roles_that_do_not_compile_alone() -> None:
    # misses.py reads an ordered phrasing's parts apart and skips them where one does not
    # compile alone, as it did when a phrasing was compiled when read (round 29: `checked`)
    rubric = question("gradient-vs-apply").rubric
    tell = rubric.misconceptions[0].model_copy(update={"tag": "zq", "any": ["(zqtape ~ records)"]})
    odd = rubric.model_copy(update={"misconceptions": [tell]})
    assert misses.miss_cause(odd, "The zqtape records.", "zq", []) == "no-phrasing"


def test_threads_meeting_a_phrasing_first_compile_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = CompileCounter(pause=0.05)
    monkeypatch.setattr(budget.regex, "compile", counted)
    found = BoundedPattern.deferred("(zqgrad|zqderiv) zqtapes", FLAGS)
    start = threading.Barrier(8)
    spans: list[tuple[int, int]] = []

    def search() -> None:
        start.wait()
        with answer_budget():
            match = found.search("the zqgrad zqtapes records")
        spans.append(match.span())

    threads = [threading.Thread(target=search) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counted.counts == {found.pattern: 1}
    assert spans == [(4, 18)] * 8


def test_threads_grading_on_cold_phrasings_grade_as_one_thread_does() -> None:
    q = question("gradient-vs-apply")
    alone = graded("gradient-vs-apply")
    forget_grader_caches()  # every phrasing of the question met again, uncompiled
    start = threading.Barrier(4)
    read: dict[int, list[tuple[Any, ...]]] = {}

    def grade(worker: int) -> None:
        order = ANSWERS[worker:] + ANSWERS[:worker]  # each thread meets them in its order
        start.wait()
        by_text = {
            t: whole(grade_freetext(q, t, second_opinion=False, neighbours=False)) for t in order
        }
        read[worker] = [by_text[text] for text in ANSWERS]

    threads = [threading.Thread(target=grade, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(read[w] == alone for w in range(4))


def test_preload_reads_the_inflection_table_and_the_artefacts(settings: Settings) -> None:
    lexicon.member_forms.cache_clear()
    artefact_questions.cache_clear()
    preload(settings)
    members = {m for group in lexicon.active[0] for m in group}
    assert lexicon.member_forms.cache_info().currsize == len(members)
    # tell caps, second opinion, tag classifier (on by default since round 34)
    assert artefact_questions.cache_info().currsize == 3


def test_start_up_preloads(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Settings] = []
    monkeypatch.setattr(app.main, "preload", lambda s, catalog=None: calls.append(s))
    mini = {"freetext_neighbours": False, "packs_dir": FIXTURE_PACKS}
    with TestClient(create_app(settings.model_copy(update=mini))):
        assert len(calls) == 1 and calls[0].freetext_neighbours is False
