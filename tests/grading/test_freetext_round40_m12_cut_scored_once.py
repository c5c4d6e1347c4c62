"""What the padding cut leaves is scored once (round 40, engineer M12).

Round 39 (S2) made the whole prose out of order a keyword list only when what the padding cut
leaves is no answer: `signals._shuffled_after_the_cut` read the order score of what is left
and then called `is_out_of_order`, which tokenised it and read the same score again. The
score is read once now and handed on; the verdicts are the same (the round-39 shuffle tests
hold them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from app.grading.freetext import signals
from app.grading.freetext.normalise import normalise
from app.grading.freetext.signals import is_keyword_list, without_padding
from app.grading.freetext.word_order import order_score
from tests.grading.core_questions import question
from tests.grading.test_freetext_round39_s2_long_runs import (
    LEFT_BY_ROUND_38,
    SHORT_LEFTOVERS,
)

# A model answer with a shuffle appended: out of order as a whole, and what the cut leaves is
# long enough and in order, so every reading of the cut runs.
APPENDED = ("tf-function-speedup", "model answer", 60, "plain", 0)


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[tuple[tuple[str, ...], ...]]]:
    """How many times each list of tokenised clauses was scored by the order reading."""
    counts: Counter[tuple[tuple[str, ...], ...]] = Counter()

    def counting(clauses: list[list[str]]) -> tuple[float, int]:
        counts[tuple(tuple(c) for c in clauses)] += 1
        return order_score(clauses)

    monkeypatch.setattr(signals, "order_score", counting)
    without_padding.cache_clear()
    yield counts
    without_padding.cache_clear()


def test_what_the_cut_leaves_is_scored_once(
    scored: Counter[tuple[tuple[str, ...], ...]],
) -> None:
    text = question(APPENDED[0]).rubric.model_answer + " " + LEFT_BY_ROUND_38[APPENDED]
    assert not is_keyword_list(normalise(text))
    assert scored and max(scored.values()) == 1


@pytest.mark.parametrize("text", [SHORT_LEFTOVERS, *LEFT_BY_ROUND_38.values()])
def test_shuffles_are_keyword_lists_as_before(
    scored: Counter[tuple[tuple[str, ...], ...]], text: str
) -> None:
    assert is_keyword_list(normalise(text))
    assert max(scored.values()) == 1
