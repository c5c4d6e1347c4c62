"""The replay of a contract a pack declares (`checker:`): its "tf.function" scenarios run again
where no candidate code ran, as the core contracts' do (replay.py).

Until round 17 these scenarios were observed in the candidate's own process, so an answer
could forge what the trusted side compares (write the whole report, or trace a graph that only
returns numbers it computed from the inputs it found in the checker's frames). Here the
instructor's setup builds the scenario's inputs (it is not the candidate's code: it runs after
the lockdown, as it does in every job), every float value among them is moved by noise from
the hidden seed (declared.hidden_inputs, exactly as the trusted reference run moves them), and
the graph the candidate's process exported runs on them, after the same op allowlist, with a
kernel's error reported by its type only. The report has the declared scenarios' shape.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from .declared import declared_variables, hidden_inputs, scenarios, variables
from .replay import Replayer, Unreplayable, guarded, handle, prepare


def replayers(spec: dict[str, Any], hidden: int) -> dict[str, Replayer]:
    """The declared "tf.function" scenarios by id, their hidden inputs built now (the setup
    runs after the lockdown, as in every job), each a function of its export."""
    return {scenario_id: prepared(spec, seed, hidden)
            for scenario_id, seed, wrap in scenarios(spec) if wrap}  # fmt: skip


def prepared(spec: dict[str, Any], seed: int, hidden: int) -> Replayer:
    try:
        inputs = hidden_inputs(spec["setup"], seed, hidden)
    except Exception as err:  # the trusted reference ran the same setup on the same seeds
        error = {"type": "SetupError", "message": f"{type(err).__name__} in the setup"}
        return lambda exported: {"initial": [], "calls": [], "error": error}
    return partial(replay_one, spec, inputs)


def replay_one(spec: dict[str, Any], inputs: dict[str, Any],
               exported: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    compared = set(spec.get("compare", ["result"]))
    initial = variables(inputs) if "variables" in compared else []
    calls: list[dict[str, Any]] = []

    def run_calls() -> None:
        runs = prepare(declared_variables(inputs), exported, flat_inputs)
        if not runs:
            raise Unreplayable("no traced call was reported")
        out = runs[0](inputs)  # a declared scenario calls the function once
        calls.append({
            "out": out if "result" in compared else {"kind": "none"},
            "weights": [variables(inputs)] if "variables" in compared else [],
            "state": [],
            "iterations": [],
        })  # fmt: skip

    return {"initial": [initial], "calls": calls, "error": guarded(run_calls)}


def flat_inputs(inputs: dict[str, Any]) -> list[Any]:
    """The graph's inputs for keyword arguments, as tf.function orders them: by argument name,
    each structure flattened, a tensor or array fed as its value, a tf.Variable as its handle
    and a Keras variable as its value (tf.function converts one passed as an argument to a
    tensor); other objects (models, optimizers, Python numbers) are captured or constant."""
    flat: list[Any] = []
    for item in tf.nest.flatten(inputs):
        if isinstance(item, np.ndarray | tf.Tensor | keras.Variable):
            flat.append(tf.convert_to_tensor(item))
        elif isinstance(item, tf.Variable):
            flat.append(handle(item))
    return flat
