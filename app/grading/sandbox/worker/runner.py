"""Run one source against every scenario of its contract and collect raw observations.

The worker decides nothing: it reports what the code returned, the weights, non-trainable
state and optimizer counters after each call, the probes, and any exception with the
candidate's line numbers. The trusted supervisor compares and judges.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from . import observe, probes, replay
from .candidate import CandidateError, call_error, load_function
from .declared import run_declared
from .scenarios import CONTRACTS, Plan, Scenario, is_graph, plan_for


def run_source(
    contract_id: str,
    source: str,
    checker: dict[str, Any] | None = None,
    sealed: Callable[[], list[str]] = lambda: [],
    hidden: int | None = None,
) -> dict[str, Any]:
    """`sealed` names what of the worker's own code the source changed (seal.checker): a
    scenario run after such a change is reported as tampered with, and no other runs.
    `hidden` (trusted jobs only): the seed the "tf.function" scenarios are built from, as
    their replay builds them (replay.py); without it those scenarios export their graphs."""
    if checker is not None:  # a contract declared by the pack rather than built in
        return _unless_tampered(run_declared(checker, source, hidden), sealed)
    contract = CONTRACTS[contract_id]
    results: list[dict[str, Any]] = []
    for scenario in contract.scenarios:  # no clear_session: it costs 0.12 s and changes no number
        try:
            fn = load_function(source, contract.function, contract.arity)
        except CandidateError as err:
            error = {"kind": err.kind, "message": err.message, "lines": err.lines}
            return {"load_error": error, "scenarios": results}
        plan = plan_for(contract_id, scenario, hidden)
        results.append(run_scenario(plan, scenario, fn, export=hidden is None))
        if changed := sealed():
            results[-1]["error"] = tampered(changed, len(results[-1]["calls"]))
            break
    return {"load_error": None, "scenarios": results}


def tampered(changed: list[str], call: int) -> dict[str, Any]:
    names = ", ".join(changed)
    message = f"the code changed the checker's own code while it ran ({names})"
    return {"type": "CheckerTampered", "message": message, "lines": [], "call": call}


def _unless_tampered(run: dict[str, Any], sealed: Callable[[], list[str]]) -> dict[str, Any]:
    changed = sealed()
    for scenario in run.get("scenarios", []) if changed else []:
        scenario["error"] = tampered(changed, len(scenario.get("calls", [])))
    return run


def run_scenario(plan: Plan, scenario: Scenario, fn: Any, export: bool = False) -> dict[str, Any]:
    began = time.monotonic()
    probes.reset(plan.models, plan.optimizers)
    initial = [observe.variables(model, trainable=True) for model in plan.models]
    calls: list[dict[str, Any]] = []
    error, step = None, None
    try:
        step = plan.start(fn)
        for args in plan.calls:
            calls.append(observe_call(plan, step(*args)))
    except BaseException as err:
        error = call_error(err, len(calls))
    seen = {"id": scenario.id, "graph": is_graph(scenario), "initial": initial, "calls": calls,
            "error": error, "probes": probes.snapshot()}  # fmt: skip
    if export and seen["graph"] and not error:
        seen["export"] = _exported(plan, step, len(calls))
    return {**seen, "s": round(time.monotonic() - began, 3)}


def _exported(plan: Plan, step: Any, calls: int) -> dict[str, Any]:
    traced = getattr(step, "traced", None)
    if traced is None:
        return {"error": "the step was not traced"}
    try:
        return replay.export(traced, plan, calls)
    except Exception as err:
        return {"error": f"the traced graphs could not be exported ({type(err).__name__})"}


def observe_call(plan: Plan, out: Any) -> dict[str, Any]:
    return {
        "out": observe.value(out),
        "weights": [observe.variables(model, trainable=True) for model in plan.models],
        "state": [observe.variables(model, trainable=False) for model in plan.models],
        "iterations": observe.iterations(plan.optimizers),
    }
