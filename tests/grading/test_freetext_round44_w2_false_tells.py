"""Round 44 of issue 14 (engineer W2): round 43's two false tells on answers labelled correct
(docs/freetext-rounds.md "Round 44: round 43's false tells and the relative clause's end
(engineer W2)").

Round 43's final set drew two tells on answers its labellers read as right, each from one
phrasing whose role words had another reading in the sentence:
- tf-function-speedup `eager-copies-to-host`: "round trip" with "Python" - in eager mode each op
  is a round trip through the Python interpreter (dispatch), the true cost of eager; the belief is
  a round trip to the host's memory;
- gradient-vs-apply `grads-stored-on-variables`: "takes those gradients ... on the variables",
  where "on the variables" is where apply_gradients does its update, eight words on.

Statements written for this file, in words of their own; read by the rules alone."""

from __future__ import annotations

import pytest

from tests.grading.core_questions import tells_by_rules


@pytest.mark.parametrize(
    "text",
    [
        "In eager mode each op is a round trip: Python dispatches it, runs the kernel and hands"
        " the result back to Python before the next op starts.",
        "Eager execution makes every op a round trip through Python, which is the overhead.",
    ],
)
def test_a_round_trip_through_python_is_the_dispatch_not_a_copy(text: str) -> None:
    assert "eager-copies-to-host" not in tells_by_rules("tf-function-speedup", text)


@pytest.mark.parametrize(
    "text",
    [
        "In eager mode every op makes a round trip to host memory and back to the GPU.",
        "Eager mode copies each result back to Python after every op.",
        "Eager execution moves every intermediate tensor to host RAM after each op.",
    ],
)
def test_the_copy_to_the_host_is_still_named(text: str) -> None:
    assert "eager-copies-to-host" in tells_by_rules("tf-function-speedup", text)


@pytest.mark.parametrize(
    "text",
    [
        "apply_gradients takes those gradients and performs the optimizer's update rule on the"
        " variables in place.",
        "The optimizer reads those gradients and then does one update step on the weights.",
    ],
)
def test_the_place_of_the_update_is_not_where_gradients_are_read(text: str) -> None:
    assert "grads-stored-on-variables" not in tells_by_rules("gradient-vs-apply", text)


@pytest.mark.parametrize(
    "text",
    [
        "apply_gradients reads the stored gradients on the variables and applies them.",
        "apply_gradients takes the saved gradients sitting on each variable.",
        "The optimizer takes those gradients off the weights, where tape.gradient left them.",
    ],
)
def test_gradients_read_off_the_variables_are_still_named(text: str) -> None:
    assert "grads-stored-on-variables" in tells_by_rules("gradient-vs-apply", text)
