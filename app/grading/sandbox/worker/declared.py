"""Scenarios of a contract a pack declares (a `checker:` block) instead of a built-in one.

The instructor's `setup` is executed here, after the lockdown, in a fresh namespace for every
scenario: it is treated exactly like candidate code. Its `make_inputs(seed)` returns the
keyword arguments for the candidate's function; the worker reports the return value and, when
asked, the tf.Variables and Keras models among the inputs after the call. Same report shape as
the built-in scenarios, so the trusted side compares them with the same code.
"""

from __future__ import annotations

import builtins
import linecache
import time
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from . import observe, probes
from .candidate import CandidateError, call_error, describe, load_function
from .replay import export_calls
from .scenarios import in_graph, mixed_seed, moved

SETUP_FILE = "/checker/setup.py"
MAX_INPUTS = 16


class SetupError(Exception):
    """The pack's setup or make_inputs failed or returned something unusable."""


def run_declared(spec: dict[str, Any], source: str, hidden: int | None = None) -> dict[str, Any]:
    """`hidden` (trusted jobs only): the "tf.function" scenarios run on the hidden state their
    replay builds (replay_declared.py); without it they export the graphs they traced."""
    results: list[dict[str, Any]] = []
    for scenario_id, seed, wrap in scenarios(spec):
        began = time.monotonic()
        try:
            if wrap and hidden is not None:
                inputs = hidden_inputs(spec["setup"], seed, hidden)
            else:
                inputs = make_inputs(spec["setup"], seed)
        except BaseException as err:
            results.append(_failed(scenario_id, f"SetupError: {describe(err)}", began))
            continue
        try:
            fn = load_function(source, spec["function"], 0, tuple(inputs))
        except CandidateError as err:
            error = {"kind": err.kind, "message": err.message, "lines": err.lines}
            return {"load_error": error, "scenarios": results}
        results.append(run_one(spec, scenario_id, fn, inputs, wrap, began, hidden is None))
    return {"load_error": None, "scenarios": results}


def scenarios(spec: dict[str, Any]) -> list[tuple[str, int, bool]]:
    plain = [(f"seed-{seed}-eager", int(seed), False) for seed in spec["seeds"]]
    wrapped = [(f"seed-{seed}-tf-function", int(seed), True) for seed in spec["seeds"]]
    return plain + (wrapped if spec.get("tf_function") else [])


def make_inputs(setup: str, seed: int) -> dict[str, Any]:
    lines = setup.splitlines(keepends=True)
    linecache.cache[SETUP_FILE] = (len(setup), None, lines, SETUP_FILE)
    namespace: dict[str, Any] = {"__name__": "checker_setup", "__builtins__": builtins}
    keras.utils.set_random_seed(seed)
    exec(compile(setup, SETUP_FILE, "exec"), namespace)  # noqa: S102 - sandboxed instructor code
    inputs = namespace["make_inputs"](seed)
    if not isinstance(inputs, dict) or len(inputs) > MAX_INPUTS:
        raise SetupError(f"make_inputs must return a dict of at most {MAX_INPUTS} arguments")
    if not all(isinstance(k, str) and k.isidentifier() for k in inputs):
        raise SetupError("make_inputs must return a dict keyed by argument names")
    keras.utils.set_random_seed(seed)  # the candidate starts from the same seed every time
    return inputs


def hidden_inputs(setup: str, seed: int, hidden: int) -> dict[str, Any]:
    """The scenario's inputs as its replay sees them: built by the setup from the scenario's
    own seed (a setup may rely on its seeds: the pack's self-test ran them), then every float
    tensor, array and variable among them (a model's weights too) moved by noise drawn from
    the seed mixed with the hidden one, so values the candidate's process never saw."""
    inputs = make_inputs(setup, seed)
    rng = np.random.default_rng(mixed_seed(seed, hidden))
    for variable in declared_variables(inputs, movable=True):
        data = np.asarray(variable.numpy())
        if data.dtype.kind == "f":
            variable.assign(moved(data, rng))
    return {name: tf.nest.map_structure(lambda a: moved(a, rng), value)
            for name, value in inputs.items()}  # fmt: skip


def declared_variables(inputs: dict[str, Any], movable: bool = False) -> list[Any]:
    """The inputs' variables in an order every process builds alike: each Keras model's, each
    tf.Variable, and (unless `movable`: they start as the optimizer sets them) each optimizer's."""
    found: list[Any] = []
    for item in inputs.values():
        if isinstance(item, keras.Model):
            found += list(item.variables)
        elif isinstance(item, tf.Variable | keras.Variable):
            found.append(item)
        elif isinstance(item, keras.optimizers.Optimizer) and not movable:
            found += list(item.variables)
    return found


def run_one(
    spec: dict[str, Any],
    scenario_id: str,
    fn: Any,
    inputs: dict[str, Any],
    wrap: bool,
    began: float,
    export: bool = False,
) -> dict[str, Any]:
    """One scenario; with `export`, a "tf.function" one also reports the graph it traced, for
    the replay (the numbers the trusted side compares come from there)."""
    compared = set(spec.get("compare", ["result"]))
    models = [v for v in inputs.values() if isinstance(v, keras.Model)]
    probes.reset(models, [])
    initial = variables(inputs) if "variables" in compared else []
    calls: list[dict[str, Any]] = []
    error = None
    step = in_graph(fn) if wrap else fn
    try:
        out = step(**inputs)
        calls.append(
            {
                "out": observe.value(out) if "result" in compared else {"kind": "none"},
                "weights": [variables(inputs)] if "variables" in compared else [],
                "state": [],
                "iterations": [],
            }
        )
    except BaseException as err:
        error = call_error(err, len(calls))
    seen = {"id": scenario_id, "graph": wrap, "initial": [initial], "calls": calls,
            "error": error, "probes": probes.snapshot()}  # fmt: skip
    if export and wrap and not error:
        seen["export"] = exported(step, inputs)
    return {**seen, "s": round(time.monotonic() - began, 3)}


def exported(step: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    try:
        return export_calls(step.traced, declared_variables(inputs), [((), inputs)])
    except Exception as err:
        return {"error": f"the traced graphs could not be exported ({type(err).__name__})"}


def variables(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs' variables after the call, labelled by argument name (stable across runs)."""
    found: list[dict[str, Any]] = []
    for name, item in inputs.items():
        if isinstance(item, keras.Model):
            found += [{**v, "path": f"{name}.{v['path']}"} for v in observe.variables(item, True)]
            found += [{**v, "path": f"{name}.{v['path']}"} for v in observe.variables(item, False)]
        elif isinstance(item, tf.Variable | keras.Variable):
            found.append({"path": name, **observe.array(item)})
    return found


def _failed(scenario_id: str, message: str, began: float) -> dict[str, Any]:
    error = {"type": "SetupError", "message": message, "lines": [], "call": 0}
    return {
        "id": scenario_id,
        "initial": [],
        "calls": [],
        "error": error,
        "probes": probes.snapshot(),
        "s": round(time.monotonic() - began, 3),
    }
