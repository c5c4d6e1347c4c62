"""Every phrasing search of an answer shares one CPU budget (round 19 of issue 14).

A phrasing that backtracks catastrophically on a pumped answer is stopped at the answer's
deadline: the answer is graded from what was read, says so, and is never counted correct on
that reading. Phrasings run under `regex` (V0) and are validated by it; on labelled answers
it grades as `re` did.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import regex
import yaml
from pydantic import ValidationError

from app.grading.freetext import budget, claims, phrasings, signals
from app.grading.freetext.budget import (
    STOPPED_EARLY_MESSAGE,
    BoundedPattern,
    answer_budget,
    compile_bounded,
)
from app.grading.freetext.evaluation import core_labelled
from app.grading.freetext.grader import affirms, grade_freetext
from app.grading.freetext.phrasings import compile_phrasing
from app.packs.rubric import Rubric
from app.packs.schema import FreeText

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-pack" / "ex-explain-none.yaml"
# Exponential under `regex` too: "the tape " can be read as either alternative.
CATASTROPHIC = r"(?:the tape |the tapes? )+x"
RIGHT = "The loss is computed outside the tape block. Move the loss inside the block."
PUMPED = RIGHT + " And the tape " + "the tape " * 400 + "ends here."


def _question(tell_phrasing: str) -> FreeText:
    """The example pack's free-text question with a tell phrasing of our own."""
    raw = yaml.safe_load(EXAMPLE.read_text())
    raw["rubric"]["misconceptions"][0]["any"] = [tell_phrasing]
    return FreeText.model_validate(raw)


def _grade(question: FreeText, answer: str) -> Any:
    return grade_freetext(question, answer, second_opinion=False, neighbours=False)


def order_reading_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """For a fixture to `yield from`: no prose is read as out of English order for one test.

    Since round 38 the pumped run ("the tape the tape ...") is read as words out of English
    order (signals.is_out_of_order) and cut as padding, so no phrasing reads it (round 39:
    test_the_pumped_answer_is_graded_on_what_the_padding_cut_leaves below). Tests about the
    matcher's budget on what it does read turn that reading off, and forget the cuts remembered
    per text (signals.without_padding) on the way in and out: one made with the reading on by
    an earlier test would be read here, and this test's after it."""
    monkeypatch.setattr(signals, "is_out_of_order", lambda clauses: False)
    signals.without_padding.cache_clear()
    yield
    signals.without_padding.cache_clear()


@pytest.fixture
def short_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(budget, "ANSWER_SECONDS", 0.3)
    yield from order_reading_off(monkeypatch)


def test_the_pumped_answer_is_graded_on_what_the_padding_cut_leaves() -> None:
    """Round 38 made the whole answer a keyword list by its order; round 39 grades the answer
    the cut leaves (signals.is_keyword_list): the right answer, nothing pumped read."""
    result = _grade(_question(CATASTROPHIC), PUMPED)
    assert result.verdict == "correct" and not result.details["keyword_list"]
    assert result.details["concepts_found"] == ["loss-outside", "fix-inside"]
    assert "stopped_early" not in result.details


@pytest.mark.usefixtures("short_budget")
def test_catastrophic_phrasing_stops_at_the_answers_budget() -> None:
    # Without the budget this search backtracks for minutes: the test ends because it stops.
    result = _grade(_question(CATASTROPHIC), PUMPED)
    assert result.details["stopped_early"] is True
    assert result.feedback[0].message == STOPPED_EARLY_MESSAGE


@pytest.mark.usefixtures("short_budget")
def test_answer_stopped_early_keeps_what_was_read_but_is_not_correct() -> None:
    result = _grade(_question(CATASTROPHIC), PUMPED)
    assert result.details["concepts_found"] == ["loss-outside", "fix-inside"]  # read first
    assert result.verdict == "partial"
    assert result.score < 0.75  # the example's correct threshold


@pytest.mark.usefixtures("short_budget")
def test_same_answer_without_the_pump_is_graded_in_full() -> None:
    result = _grade(_question(CATASTROPHIC), RIGHT)
    assert result.verdict == "correct"
    assert "stopped_early" not in result.details
    assert STOPPED_EARLY_MESSAGE not in [f.message for f in result.feedback]


@pytest.mark.usefixtures("short_budget")
def test_honest_rubric_on_the_pumped_answer_is_not_stopped() -> None:
    result = _grade(_question(r"(need|must)\w* ~ watch ~ (variables|weights)"), PUMPED)
    assert "stopped_early" not in result.details
    assert result.verdict == "correct"


def test_budget_is_one_deadline_for_the_whole_answer() -> None:
    slow = compile_bounded(CATASTROPHIC)
    with answer_budget(0.2) as outer:
        with answer_budget(60.0) as inner:  # nested: the answer's deadline rules
            assert inner is outer
        assert slow.search("the tape " * 40) is None
        assert outer.spent
        assert compile_bounded("tape").search("the tape") is None  # nothing more is read


def test_searches_outside_a_budget_are_unbounded() -> None:
    """The pack-time timing check measures a phrasing's real cost: no timeout is passed."""
    calls: list[dict[str, Any]] = []
    real = compile_bounded("tape").compiled

    class Spy:
        pattern, flags = real.pattern, real.flags

        def search(self, *args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs)
            return real.search(*args, **kwargs)

    pattern = BoundedPattern(Spy())  # round 29: `compiled` is read, not set
    assert pattern.search("the tape") is not None
    with answer_budget(5.0):
        assert pattern.search("the tape") is not None
    assert calls[0] == {}
    assert 0 < calls[1]["timeout"] <= 5.0


def test_finditer_stops_at_the_deadline_across_matches() -> None:
    slow = compile_bounded(r"(?:a|aa)+b|X")
    with answer_budget(0.2) as spent:
        found = list(slow.finditer(("a" * 30 + "X") * 20))
    assert spent.spent
    assert len(found) < 20


@pytest.mark.usefixtures("short_budget")
def test_affirms_reads_within_a_budget() -> None:
    assert affirms("the tape " * 300 + "!", CATASTROPHIC) is False
    assert affirms("Move the loss inside the block.", r"move ~ loss ~ inside") is True


def _rubric(phrasing: str) -> dict[str, Any]:
    raw = yaml.safe_load(EXAMPLE.read_text())["rubric"]
    raw["concepts"][0]["any"] = [phrasing]
    return dict(raw)


@pytest.mark.parametrize(
    "phrasing",
    [
        r"(?<=\bthe\s+)tape ~ records",  # a variable-length look-behind: `re` refuses it
        r"\p{Lu}\w* ~ tape",  # a Unicode property
    ],
)
def test_phrasing_only_regex_reads_is_valid_and_graded(phrasing: str) -> None:
    with pytest.raises(re.error):
        re.compile(phrasing.replace(" ~ ", " "))
    Rubric.model_validate(_rubric(phrasing))
    assert compile_phrasing(phrasing).search("Then the tape records every op") is not None


def test_phrasing_regex_refuses_is_invalid() -> None:
    with pytest.raises(ValidationError, match="invalid regular expression"):
        Rubric.model_validate(_rubric(r"[[:foo:]] ~ tape"))  # `re` reads a set of characters


@contextmanager
def _stdlib_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The grader as it was before round 19: `re`, no budget."""

    class Engine:
        IGNORECASE, V0, error = re.IGNORECASE, 0, re.error
        compile = staticmethod(_stdlib_compile)

    caches = (phrasings.compile_phrasing, claims.parse_claim, claims.word_edged)
    for cache in caches:
        cache.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(budget, "regex", Engine)
            # round 29: the grader reads the pack loader's compiles (rubric.compiled_phrasing)
            patch.setattr(budget, "compiled_phrasing", lambda p: Engine.compile(p, budget.FLAGS))
            patch.setattr(budget, "answer_budget", _unbounded)
            yield
    finally:  # patterns compiled by `re` must not outlive the test, even a failing one
        for cache in caches:
            cache.cache_clear()


def _stdlib_compile(pattern: str, flags: int = 0) -> Any:
    """`re` where it reads the phrasing; `regex` (unbounded here) for the syntax only it has,
    such as round 28's variable-width look-behinds (`(?<!\\bpersistent\\w*...)`)."""
    try:
        return re.compile(pattern, flags)
    except re.error:
        return regex.compile(pattern, flags | regex.V0)


@contextmanager
def _unbounded(seconds: float | None = None) -> Iterator[budget.Budget]:
    yield budget.Budget(float("inf"))


def test_labelled_sample_grades_as_under_re(monkeypatch: pytest.MonkeyPatch) -> None:
    core = core_labelled()
    questions = {q.question.id: q.question for q in core.pack.questions}
    sample = [a for a in core.answers[::97] if isinstance(questions.get(a.question_id), FreeText)]

    def graded() -> list[tuple[Any, ...]]:
        results = [_grade(questions[a.question_id], a.answer) for a in sample]  # type: ignore[arg-type]
        return [
            (r.verdict, r.score, r.details["concepts_found"], r.misconceptions) for r in results
        ]

    with _stdlib_engine(monkeypatch):
        before = graded()
        assert isinstance(compile_phrasing("tape").compiled, re.Pattern)  # really `re`
    after = graded()
    assert len(sample) > 40
    assert after == before


def _burn_cpu(seconds: float) -> None:
    began = time.thread_time()
    while time.thread_time() - began < seconds:
        sum(range(1_000))


def test_work_outside_searches_spends_no_search_time() -> None:
    """Compiling phrasings the first time or loading artefacts is not search time: a cold
    process's first answer, whose work outside searches exceeds the search budget but not
    the whole answer's deadline (2x), is read in full."""
    with answer_budget(0.05) as spent:
        _burn_cpu(0.06)  # work outside any search, past `seconds`, inside `whole`
        assert compile_bounded("tape").search("the tape") is not None
    assert not spent.spent
    assert 0 < spent.used < 0.05


def test_work_between_searches_counts_toward_the_answers_deadline() -> None:
    """Round 23: reading matches and compiling a pack's phrasings is work outside any search;
    a hostile pack made that take over a minute with no search running out. Past the whole
    answer's deadline (WHOLE_ANSWER_SECONDS, scaled with the budget) the next search finds
    nothing and the answer is marked as stopped early."""
    pattern = compile_bounded(r"tape")
    with answer_budget(0.05) as spent_budget:
        assert pattern.search("the tape records") is not None
        _burn_cpu(spent_budget.whole + 0.02)  # no search running: `used` stays near 0
        assert spent_budget.used < spent_budget.seconds
        assert pattern.search("the tape records") is None
        assert list(pattern.finditer("the tape records")) == []
    assert spent_budget.spent


def test_the_whole_answer_deadline_leaves_room_for_honest_answers() -> None:
    assert budget.WHOLE_ANSWER_SECONDS >= 2 * budget.ANSWER_SECONDS
    with answer_budget() as honest:
        assert honest.whole == budget.WHOLE_ANSWER_SECONDS
