"""Grading does the same work once (round 25): issue 14's p50 target is 20 ms per answer.

The neighbours' artefact holds each answer's words, so a process's first answer the
neighbours read no longer normalises ~6,000 labelled answers (~5 s of one core); a clause's
start is read from the terminators found once per text; what depends only on the answer
(the sentences that carry another framework's topic) or only on a phrasing (whether it is a
claim) is read once, not once per tell. Timings are in benchmarks/freetext_latency.py, never
asserted here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.grading.freetext import carried_topics, neighbours
from app.grading.freetext.claims import find_phrasings
from app.grading.freetext.normalise import normalise
from app.grading.freetext.phrasings import TERMINATOR, mask, start_of_clause

ANSWERS = [
    "The loss is computed outside the tape, so nothing is recorded and the gradient is None.",
    "In PyTorch you zero the gradients. You have to do it every step. In TF, tape.gradient "
    "returns new tensors; it doesn't update the weights.",
]


def _artefact(tmp_path: Path, with_words: bool) -> Path:
    answers = [
        {"answer": text, "tags": [], "persona": f"p{n}"}
        | ({"words": " ".join(neighbours.words(text))} if with_words else {})
        for n, text in enumerate(ANSWERS)
    ]
    path = tmp_path / "neighbours.json"
    path.write_text(json.dumps({"questions": {"q": {"prompt": "x", "answers": answers}}}))
    return path


@pytest.fixture
def fresh_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(neighbours, "ARTEFACT", tmp_path / "neighbours.json")
    neighbours.shipped_tables.cache_clear()
    yield tmp_path
    neighbours.shipped_tables.cache_clear()


def test_shipped_tables_read_stored_words_without_normalising(
    fresh_tables: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _artefact(fresh_tables, with_words=True)
    with_text = neighbours.build_index(
        [neighbours.Entry("q", neighbours.bag(t), (), t, f"p{n}") for n, t in enumerate(ANSWERS)]
    )

    def no_reading(text: str) -> list[str]:
        raise AssertionError("an answer's words were read from its text")

    monkeypatch.setattr(neighbours, "words", no_reading)
    _, index = neighbours.shipped_tables()
    assert index == with_text


def test_an_artefact_without_words_is_read_from_its_text(fresh_tables: Path) -> None:
    _artefact(fresh_tables, with_words=False)
    _, index = neighbours.shipped_tables()
    assert index is not None
    assert index.idf == neighbours.idf_of(
        [neighbours.Entry("q", neighbours.bag(t), ()) for t in ANSWERS]
    )


def _start_of_clause_walked(masked: str, position: int, inclusive: bool) -> int:
    """Round 24's reading: walk the terminators up to the position."""
    start = 0
    for term in TERMINATOR.finditer(masked):
        if term.end() > position or (term.end() == position and not inclusive):
            break
        start = term.end()
    return start


def test_start_of_clause_reads_as_walking_the_terminators() -> None:
    words = "the tape , ; and it but not so - -> which and then : gradients because ?".split()  # noqa: SIM905
    chooser = random.Random(25)
    for _ in range(300):
        masked = mask(" ".join(chooser.choice(words) for _ in range(chooser.randint(0, 30))))
        for position in range(len(masked) + 1):
            for inclusive in (True, False):
                assert start_of_clause(masked, position, inclusive=inclusive) == (
                    _start_of_clause_walked(masked, position, inclusive)
                )


def test_the_carried_topics_are_read_once_per_answer() -> None:
    units = normalise(ANSWERS[1]).units
    carried_topics.carried_foreign.cache_clear()
    for _ in range(5):  # one reading per tell, as the grader's loop does
        find_phrasings(units, [r"zero ~ gradients?", r"every step"], across=True)
    assert carried_topics.carried_foreign.cache_info().misses == 1
