"""*Run*: the worker's trial report in sentences a learner can act on."""

from __future__ import annotations

import pytest

from app.services.practice.trials import can_run, describe


def test_describe_names_none_gradients_unchanged_weights_and_the_error_line() -> None:
    report = {
        "scenario": "crossentropy-adam-eager",
        "calls": [{"returned": {"kind": "tensor", "shape": [], "value": 1.25}}],
        "gradients": {"calls": 1, "none": 2, "results": 4, "applied": 0, "none_applied": 0},
        "variables": [
            {"variables": [{"name": "layers[0] Dense.kernel", "changed": False}], "total": 1}
        ],
        "iterations": {"before": [0], "after": [0]},
        "error": {"type": "TypeError", "message": "TypeError: bad", "lines": [7]},
    }
    view = describe(report)
    texts = [o.text for o in view.observations]
    assert "crossentropy-adam-eager" not in view.scenario and "Adam" in view.scenario
    assert "Call 1 returned the loss 1.25." in texts
    assert "tape.gradient returned 4 gradient(s); 2 of them None." in texts
    assert "The optimizer never applied gradients." in texts
    assert any("Unchanged: layers[0] Dense.kernel" in t for t in texts)
    assert any(
        o.kind == "error" and o.lines == [7] and "line 7" in o.text for o in view.observations
    )
    assert view.counted is False


@pytest.mark.parametrize(
    "forged",
    [
        None,
        "text",
        {"calls": "x"},
        {"calls": [{"returned": {"kind": "tensor", "value": "NaN-text"}}]},
        {"variables": [{"variables": [1, 2]}]},
        {"iterations": {"before": ["a"], "after": [None]}},
        {"error": {"lines": "7", "message": 3}},
    ],
)
def test_a_forged_or_broken_report_is_said_to_be_so_not_a_server_error(forged: object) -> None:
    view = describe(forged)
    assert view.counted is False
    assert all(isinstance(o.text, str) for o in view.observations)


def test_a_nan_loss_is_shown_as_nan() -> None:
    view = describe({"calls": [{"returned": {"kind": "tensor", "shape": [], "value": "nan"}}]})
    assert [o.text for o in view.observations] == ["Call 1 returned the loss nan."]


def test_run_is_offered_only_by_a_grader_that_can_run() -> None:
    class Queued:  # like a grader reached through a queue: grade only
        async def grade(self, question: object, source: str) -> object: ...

    class Local(Queued):
        async def trial(self, question: object, source: str) -> dict[str, object]:
            return {}

    assert (can_run(None), can_run(Queued()), can_run(Local())) == (False, False, True)
