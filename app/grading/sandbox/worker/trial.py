"""*Run*: try the candidate's step once on a public scenario and say what happened.

Nothing is compared and nothing is graded. The scenario is built like the contract's first
checking scenario but from a public seed, so its weights (and so every number reported here)
differ from the graded scenarios' and give no reference value away. The report is what a
learner would print while debugging: the loss of each call, which gradients came back None,
which variables changed, how far the optimizer's step counter moved, and any error with the
candidate's lines.
"""

from __future__ import annotations

from typing import Any

import keras
import numpy as np

from . import observe, probes
from .candidate import CandidateError, call_error, load_function
from .scenarios import CONTRACTS

PUBLIC_SEED = 20_240  # no graded scenario uses it
MAX_VARIABLES = 24


def run_trial(contract_id: str, source: str, checker: dict[str, Any] | None) -> dict[str, Any]:
    if checker is not None or contract_id not in CONTRACTS:
        return {"unsupported": "Run is not available for this question; Submit checks it."}
    contract = CONTRACTS[contract_id]
    scenario = contract.scenarios[0]
    keras.utils.set_random_seed(PUBLIC_SEED)
    plan = scenario.build()
    report: dict[str, Any] = {"scenario": scenario.id, "calls": [], "error": None}
    try:
        fn = load_function(source, contract.function, contract.arity)
    except CandidateError as err:
        report["error"] = {"type": err.kind, "message": err.message, "lines": err.lines}
        return report
    probes.reset(plan.models, plan.optimizers)
    before = [_weights(model) for model in plan.models]
    iterations = observe.iterations(plan.optimizers)
    try:
        step = plan.start(fn)
        for args in plan.calls:
            report["calls"].append({"returned": _returned(step(*args))})
    except BaseException as err:
        report["error"] = call_error(err, len(report["calls"]))
    report["iterations"] = {"before": iterations, "after": observe.iterations(plan.optimizers)}
    pairs = zip(plan.models, before, strict=True)
    report["variables"] = [_changes(model, old) for model, old in pairs]
    report["gradients"] = _gradients(probes.snapshot())
    return report


def _weights(model: Any) -> list[np.ndarray]:
    return [np.array(v.numpy(), copy=True) for v in model.trainable_variables]


def _changes(model: Any, before: list[np.ndarray]) -> dict[str, Any]:
    rows = []
    names = observe.variables(model, trainable=True)
    for described, variable, old in zip(names, model.trainable_variables, before, strict=True):
        now = np.asarray(variable.numpy())
        moved = old.shape == now.shape and not np.array_equal(old, now)
        rows.append({"name": described["path"], "changed": bool(moved)})
    return {"variables": rows[:MAX_VARIABLES], "total": len(rows)}


def _returned(out: Any) -> dict[str, Any]:
    seen = observe.value(out)
    if seen.get("kind") == "tensor":
        values = seen["values"]
        shown = values[0] if len(values) == 1 else None
        return {"kind": "tensor", "shape": seen["shape"], "value": shown}
    return {"kind": seen.get("kind"), "type": seen.get("type", "")}


def _gradients(records: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    taken = records.get("gradient", [])
    applied = records.get("apply", [])
    return {
        "calls": len(taken),
        "none": sum(int(r.get("none", 0)) for r in taken),
        "results": sum(int(r.get("results", 0)) for r in taken),
        "applied": len(applied),
        "none_applied": sum(int(r.get("none_grads", 0)) for r in applied),
    }
