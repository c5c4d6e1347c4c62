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
import tensorflow as tf

from . import observe, probes
from .candidate import CandidateError, call_error, describe, load_function
from .scenarios import in_graph

SETUP_FILE = "/checker/setup.py"
MAX_INPUTS = 16


class SetupError(Exception):
    """The pack's setup or make_inputs failed or returned something unusable."""


def run_declared(spec: dict[str, Any], source: str) -> dict[str, Any]:
    results: list[dict[str, Any]] = []
    for scenario_id, seed, wrap in scenarios(spec):
        began = time.monotonic()
        try:
            inputs = make_inputs(spec["setup"], seed)
        except BaseException as err:
            results.append(_failed(scenario_id, f"SetupError: {describe(err)}", began))
            continue
        try:
            fn = load_function(source, spec["function"], 0, tuple(inputs))
        except CandidateError as err:
            error = {"kind": err.kind, "message": err.message, "lines": err.lines}
            return {"load_error": error, "scenarios": results}
        results.append(run_one(spec, scenario_id, fn, inputs, wrap, began))
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


def run_one(
    spec: dict[str, Any],
    scenario_id: str,
    fn: Any,
    inputs: dict[str, Any],
    wrap: bool,
    began: float,
) -> dict[str, Any]:
    compared = set(spec.get("compare", ["result"]))
    models = [v for v in inputs.values() if isinstance(v, keras.Model)]
    probes.reset(models, [])
    initial = variables(inputs) if "variables" in compared else []
    calls: list[dict[str, Any]] = []
    error = None
    try:
        out = (in_graph(fn) if wrap else fn)(**inputs)
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
    return {
        "id": scenario_id,
        "initial": [initial],
        "calls": calls,
        "error": error,
        "probes": probes.snapshot(),
        "s": round(time.monotonic() - began, 3),
    }


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
