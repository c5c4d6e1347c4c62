"""The trusted verdict from synthetic observations: rules, flags and load failures."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.grading.code.judge import KnownWrong, judge
from app.grading.code.static import SourceFacts

W0 = [
    {
        "path": "layers[0] Dense.kernel",
        "kind": "tensor",
        "dtype": "float32",
        "shape": [2],
        "values": [0.1, 0.2],
    }
]
W1 = [
    {
        "path": "layers[0] Dense.kernel",
        "kind": "tensor",
        "dtype": "float32",
        "shape": [2],
        "values": [0.09, 0.19],
    }
]
LOSS = {"kind": "tensor", "dtype": "float32", "shape": [], "values": [0.5]}


def scenario(
    *, weights: list[Any] = W1, iterations: int = 1, probes: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "id": "s1",
        "initial": [W0],
        "calls": [{"out": LOSS, "weights": [weights], "state": [[]], "iterations": [iterations]}],
        "error": None,
        "probes": probes
        or {
            "gradient": [
                {
                    "tape": 0,
                    "persistent": False,
                    "open_tapes": [],
                    "sources": {"trainable": 1},
                    "none": 0,
                    "results": 1,
                }
            ]
        },
    }


def run(**kwargs: Any) -> dict[str, Any]:
    return {"load_error": None, "scenarios": [scenario(**kwargs)]}


def grade(candidate: dict[str, Any], known: list[KnownWrong] | None = None) -> Any:
    return judge(
        contract="train-step",
        reference=run(),
        candidate=candidate,
        known=known or [],
        facts=SourceFacts(),
    )


def test_judge_matching_observations_is_correct() -> None:
    result = grade(run())
    assert (result.verdict, result.score, result.misconceptions) == ("correct", 1.0, [])


@pytest.mark.parametrize(
    ("candidate", "tag"),
    [
        (run(weights=W0, iterations=0), "missing-apply"),
        (run(weights=[dict(W1[0], values=[0.0, 0.0])], iterations=0), "optimizer-bypassed"),
        (run(weights=[dict(W1[0], values=[0.08, 0.18])], iterations=2), "optimizer-stepped-twice"),
        (run(weights=[dict(W1[0], values=[0.3, 0.3])]), "wrong-result"),
    ],
)
def test_judge_names_the_mistake(candidate: dict[str, Any], tag: str) -> None:
    result = grade(candidate)
    assert result.verdict in ("incorrect", "partial") and tag in result.misconceptions


def test_judge_flags_model_variables_even_when_numbers_match() -> None:
    probes = {
        "gradient": [
            {
                "tape": 0,
                "persistent": False,
                "open_tapes": [],
                "sources": {"trainable": 1, "non_trainable": 2},
                "none": 2,
                "results": 3,
            }
        ]
    }
    result = grade(run(probes=probes))
    assert (result.verdict, result.misconceptions) == ("partial", ["model-variables"])


def test_judge_labels_a_known_wrong_fingerprint() -> None:
    odd = run(weights=[dict(W1[0], values=[0.05, 0.15])])
    result = grade(copy.deepcopy(odd), [KnownWrong("sum-not-mean", "Applies the sum.", odd)])
    assert result.misconceptions == ["sum-not-mean"]


def test_judge_reports_missing_function_as_incorrect() -> None:
    candidate = {
        "load_error": {"kind": "missing", "message": "no function named 'train_step'", "lines": []},
        "scenarios": [],
    }
    result = grade(candidate)
    assert (result.verdict, result.misconceptions) == ("incorrect", ["missing-function"])
