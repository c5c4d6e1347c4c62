"""What the first-answer tests of rounds 29-31 share (lazy compiling, kept compiles, an uploaded
pack read at publishing, concurrent first use): a stand-in for regex.compile that counts each
expression's compiles, four answers (two right, two wrong) to grade first, their gradings by the
rules alone, and those gradings in four threads while one of them does something first, and
forgetting what the grader's own caches read."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import regex

from app.grading.freetext import budget, claims, grade_freetext, lexicon, phrasings
from tests.grading.core_questions import question


class CompileCounter:
    """regex.compile, counting the compiles of each expression (slowed, to widen a race)."""

    def __init__(self, pause: float = 0.0) -> None:
        self.real, self.pause = regex.compile, pause
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, pattern: str, flags: int = 0, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.counts[pattern] = self.counts.get(pattern, 0) + 1
        time.sleep(self.pause)
        return self.real(pattern, flags, *args, **kwargs)


def counting_compiles(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    """From here on, the grader's regex.compile (budget's) counted."""
    counted = CompileCounter()
    monkeypatch.setattr(budget.regex, "compile", counted)
    return counted


ANSWERS = [
    "The tape records the forward pass; tape.gradient computes the gradients by reverse-mode "
    "differentiation and apply_gradients updates the weights.",
    "gradient() only returns the gradients, it does not update the variables. The optimizer's "
    "apply_gradients does that.",
    "tape.gradient applies the update to the weights directly, so you do not need an optimizer.",
    "You must call optimizer.zero_grad() at the start of every step, as in PyTorch.",
]


def whole(result: Any) -> tuple[Any, ...]:
    """A grading whole: verdict, score, tells and every detail."""
    return (result.verdict, result.score, result.misconceptions, repr(result.details))


def graded(question_id: str) -> list[tuple[Any, ...]]:
    """ANSWERS graded by the rules alone on a core question, each grading whole."""
    q = question(question_id)
    return [whole(grade_freetext(q, t, second_opinion=False, neighbours=False)) for t in ANSWERS]


def forget_grader_caches() -> None:
    """The grader's own caches of phrasings and claims emptied: every phrasing met again,
    uncompiled (the store of compiles, rubric.compiled_phrasing, is not touched)."""
    for cache in (phrasings.compile_phrasing, claims.parse_claim, claims.word_edged):
        cache.cache_clear()


def graded_in_threads(question_id: str, first: Callable[[], object]) -> list[list[tuple[Any, ...]]]:
    """`graded` in four threads started together, the first of them calling `first` before
    it grades (the work that races the others' first answers)."""
    start = threading.Barrier(4)
    read: dict[int, list[tuple[Any, ...]]] = {}

    def work(worker: int) -> None:
        start.wait()
        if worker == 0:
            first()
        read[worker] = graded(question_id)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [read[w] for w in range(4)]


def regraded_counting(
    question_id: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[tuple[Any, ...]], dict[str, int], int]:
    """ANSWERS graded again (`graded`), with what that compiled (expression -> compiles) and
    how many phrasings it widened anew (lexicon.widen's misses)."""
    widened = lexicon.widen.cache_info().misses
    counted = counting_compiles(monkeypatch)
    return graded(question_id), counted.counts, lexicon.widen.cache_info().misses - widened
