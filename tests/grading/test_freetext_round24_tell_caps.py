"""Tell caps by a sure majority (round 24, docs/freetext-rounds.md "Round 24: tell caps by a
sure majority (engineer A)"): a tag's cap by precedent is `incorrect` when the Wilson interval
of the share of its precedent labelled incorrect lies at or above one half, `partial` when it
lies below, and the rubric's own cap while it straddles one half; a bare share against 0.6
flipped big-models-gain-most's cap as persona sets joined."""

from __future__ import annotations

import pytest

from app.grading.freetext import tell_caps

# big-models-gain-most (tf-function-speedup) as each of the last eight persona sets joined
# tune: (labelled incorrect, answers labelled with the tag alone); 47 / 80 read `partial`
# under the 0.6 line, the rest `incorrect`
BIG_MODELS_HISTORY = [
    (43, 57),
    (43, 61),
    (43, 65),
    (47, 69),
    (47, 73),
    (47, 76),
    (47, 80),
    (51, 84),
]


def test_a_majority_near_the_old_line_keeps_one_cap_as_sets_join() -> None:
    assert {tell_caps.stable_cap(w, n) for w, n in BIG_MODELS_HISTORY} == {"incorrect"}


def test_big_models_gain_most_at_round_23s_start_is_capped_incorrect() -> None:
    precedents = [("tf-function-speedup", ("big-models-gain-most",), "incorrect")] * 47
    precedents += [("tf-function-speedup", ("big-models-gain-most",), "partial")] * 33
    entry = tell_caps.derive(precedents)[("tf-function-speedup", "big-models-gain-most")]
    assert entry == {"answers": 80, "incorrect": 47, "cap": "incorrect"}


@pytest.mark.parametrize(
    ("wrong", "answers", "cap"),
    [
        (5, 5, "incorrect"),
        (4, 5, "incorrect"),
        (3, 5, None),  # 60% of five is no sure majority: the rubric's cap
        (2, 5, None),  # nor is 40% of five a sure minority
        (1, 5, "partial"),
        (36, 68, None),  # 53%: labellers split
        (25, 77, "partial"),  # numpy-kills-all-gradients at round 24's start
        (0, 7, "partial"),
    ],
)
def test_the_cap_follows_a_sure_majority(wrong: int, answers: int, cap: str | None) -> None:
    assert tell_caps.stable_cap(wrong, answers) == cap


def test_wilson_interval_brackets_the_share() -> None:
    low, high = tell_caps.wilson_interval(47, 80, 1.0)
    assert low < 47 / 80 < high
    assert round(low, 3) == 0.532 and round(high, 3) == 0.641
    assert tell_caps.wilson_interval(0, 7, 1.0)[0] == pytest.approx(0.0, abs=1e-12)
