"""A spent budget ends the work, and one answer's budget counts only its own thread (round 24).

Past the whole answer's deadline every search finds nothing, but the loops around searches
walked (and compiled) every phrasing of every concept and tell: a hostile pack still held a
grading thread ~10 CPU s. The loops now stop at the budget's flag, and the learned parts do
not start on a spent budget. Every clock of budget.py is the thread's CPU time, so another
thread's grading does not spend this one's budget.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import yaml

from app.grading.freetext import grader, matching, neighbours
from app.grading.freetext.budget import (
    STOPPED_EARLY_MESSAGE,
    BoundedPattern,
    Budget,
    answer_budget,
    compile_bounded,
    uncounted,
)
from app.grading.freetext.normalise import normalise
from app.packs.schema import FreeText
from tests.grading.core_questions import question

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-pack" / "ex-explain-none.yaml"
RIGHT = "The loss is computed outside the tape block. Move the loss inside the block."


def _question(tells: int, phrasings: int) -> FreeText:
    """The example pack's free-text question with many tells, each phrasing distinct (no
    compiled phrasing shared) and matching every sentence."""
    raw = yaml.safe_load(EXAMPLE.read_text())
    tell = raw["rubric"]["misconceptions"][0]
    raw["rubric"]["misconceptions"] = [
        {
            **tell,
            "tag": f"tell-{n}",
            "any": [rf"\w+ ~ \w{{1,{i + 2}}}\b(?#{n})" for i in range(phrasings)],
        }
        for n in range(tells)
    ]
    return FreeText.model_validate(raw)


def _counting_compiles(monkeypatch: pytest.MonkeyPatch, budget: Budget) -> dict[str, int]:
    """Count the phrasings compiled while `budget` is spent."""
    counted = {"spent": 0}
    compile_phrasing = matching.compile_phrasing

    def counting(pattern: str, lexicon: bool = True) -> BoundedPattern:
        counted["spent"] += budget.spent
        return compile_phrasing(pattern, lexicon)

    monkeypatch.setattr(matching, "compile_phrasing", counting)
    return counted


def test_spent_budget_compiles_and_reads_no_more_phrasings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    units = normalise(RIGHT).units
    with answer_budget() as budget:
        budget.spent = True
        counted = _counting_compiles(monkeypatch, budget)
        hits = matching.find_hits(units, [rf"loss(?#spent-{n})" for n in range(50)])
    assert hits == []
    assert counted["spent"] == 0


def test_grading_past_the_deadline_walks_no_more_tells(monkeypatch: pytest.MonkeyPatch) -> None:
    with answer_budget(0.02) as budget:  # the deadline passes while the tells are read
        counted = _counting_compiles(monkeypatch, budget)
        result = grader.grade_freetext(
            _question(tells=30, phrasings=20), RIGHT * 8, second_opinion=False, neighbours=False
        )
    assert budget.spent
    assert counted["spent"] <= 1  # at most the one whose search found the budget spent
    assert result.details["stopped_early"] is True


# Each learned part and where its arguments carry the result it may change.
PARTS = {"add_suggestion": -2, "add_classified": -2, "_second_opinion": -1}
PARTS["with_embedding_verdict"] = -1


@pytest.mark.parametrize("part", sorted(PARTS))
def test_learned_parts_do_not_start_on_a_spent_budget(
    monkeypatch: pytest.MonkeyPatch, part: str
) -> None:
    started: list[str] = []
    monkeypatch.setattr(grader, part, lambda *a: started.append(part) or a[PARTS[part]])
    with answer_budget() as budget:
        budget.spent = True
        result = grader.grade_freetext(
            FreeText.model_validate(yaml.safe_load(EXAMPLE.read_text())),
            RIGHT,
            second_opinion=True,
            neighbours=True,
            tag_classifier=True,
            embedding_verdict=True,
        )
    assert started == []
    assert result.feedback[0].message == STOPPED_EARLY_MESSAGE


def _searches_for(seconds: float, budget: Budget) -> None:
    """Searches that scan a long text and find nothing, until this thread has spent
    `seconds` of CPU."""
    pattern, text = compile_bounded(r"zq\w+"), "the tape records the forward pass " * 150
    began = time.thread_time()
    while time.thread_time() - began < seconds and not budget.spent:
        pattern.search(text)


def test_another_threads_work_does_not_spend_this_answers_budget() -> None:
    done = threading.Event()

    def other_grading() -> None:  # CPU-bound Python, taking the GIL in turns
        while not done.is_set():
            sum(i * i for i in range(2_000))

    other = threading.Thread(target=other_grading)
    other.start()
    try:
        with answer_budget(0.4) as budget:  # deadline 0.8 s of this thread's CPU
            _searches_for(0.25, budget)
    finally:
        done.set()
        other.join()
    assert not budget.spent
    assert budget.used < 0.3


def _burn(seconds: float) -> None:
    began = time.thread_time()
    while time.thread_time() - began < seconds:
        sum(i * i for i in range(2_000))


def test_building_the_shipped_tables_does_not_spend_the_first_answers_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # round 24: the neighbours' index (~5 CPU s) was built inside the first answer's budget,
    # so every process's first free-text answer was graded "stopped early" and incorrect
    read = neighbours.read_artefact
    monkeypatch.setattr(neighbours, "read_artefact", lambda path: (_burn(0.5), read(path))[1])
    answer = "In a custom loop you pass training=True so dropout and batch norm train."
    grader.grade_freetext(question("training-flag"), answer)  # phrasings compiled
    neighbours.shipped_tables.cache_clear()  # the index is this process's first, as far as it knows
    try:
        with answer_budget(0.1) as budget:  # deadline 0.2 s of this thread's CPU
            result = grader.grade_freetext(
                question("training-flag"),
                answer,
                neighbours=True,
                second_opinion=True,
            )
    finally:
        neighbours.shipped_tables.cache_clear()
    assert not budget.spent
    assert not result.details.get("stopped_early")


def test_work_inside_uncounted_is_bounded_by_no_budget() -> None:
    with answer_budget(0.1) as budget:
        with uncounted():
            assert compile_bounded(r"zq\w+").search("the tape " * 10) is None
            _burn(0.3)
        assert not budget.out_of_time()
