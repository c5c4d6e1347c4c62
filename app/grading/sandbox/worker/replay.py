"""The "tf.function" scenarios run again where no candidate code ever ran.

Candidate code runs in the worker's own interpreter, so whatever that process reports it can
forge: round 15's answer found the job in the calling frame, ran the worker's scenario code on
an eager-only step and wrote a whole report to the channel itself (`correct` for a step that
fails in a graph). So the numbers of a "tf.function" scenario no longer come from that process.
It exports what tf.function traced (the concrete functions as FunctionDefs, and for each
captured input which scenario variable or value it was); a second worker, which runs no
candidate Python at all, builds the scenario from a seed the candidate's process never sees
(`graph_seed`: different initial weights), runs the traced graphs on it and reports what it
observes. The trusted side compares those numbers with a reference run on the same hidden
state. A graph that only assigns numbers precomputed in the candidate's process cannot match,
since it never saw the weights they start from; a report without graphs earns nothing.

A FunctionDef can hold any op, so before it runs the replay checks every node against an
allowlist of the ops a training step uses (replay_ops.py): nothing that reaches files, Python,
random streams or the report channel (a `WriteFile` to `/proc/self/fd/3` would forge the
replay's own report). A kernel's error is reported by its type only: its message can hold
numbers of the hidden state (an index, an assertion's data).
"""

from __future__ import annotations

import base64
import time
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

import keras
import numpy as np
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2, function_pb2
from tensorflow.python.eager import context, execute

from . import observe
from .replay_ops import refused
from .scenarios import CONTRACTS, Plan, is_graph, plan_for

MAX_GRAPH_BYTES = 512 * 1024
MAX_CAPTURED_ELEMENTS = 4_096
CHUNK = 1_024
# Entries a replay job's run looks at: one per "tf.function" scenario (at most 5 seeds for a
# declared contract, one for the core ones), with room for refusals.
MAX_ENTRIES = 16


class Unreplayable(RuntimeError):
    """The exported graph cannot be run again: refused ops, missing parts, or too large."""


def scenario_variables(plan: Plan) -> list[Any]:
    """Every variable of the scenario, in an order both processes build alike."""
    found = [v for model in plan.models for v in model.variables]
    return found + [v for optimizer in plan.optimizers for v in optimizer.variables]


def handle(variable: Any) -> Any:
    inner = variable.value if isinstance(variable, keras.Variable) else variable  # wraps one
    return getattr(inner, "handle", None)


def export(graph: Any, plan: Plan, calls: int) -> dict[str, Any]:
    """What `graph` (the scenario's tf.function) traced for each of the first `calls` calls."""
    return export_calls(graph, scenario_variables(plan), [(a, {}) for a in plan.calls[:calls]])


Call = tuple[tuple[Any, ...], dict[str, Any]]  # positional and keyword arguments


def export_calls(graph: Any, variables: list[Any], calls: list[Call]) -> dict[str, Any]:
    """What `graph` traced for each call (positional and keyword arguments); `variables` are
    the scenario's, named by index so the replay can pass its own in their place."""
    began = time.monotonic()
    ids = {id(handle(v)): i for i, v in enumerate(variables)}
    library = function_pb2.FunctionDefLibrary()
    names: set[str] = set()
    exported = []
    for args, kwargs in calls:
        concrete = graph.get_concrete_function(*args, **kwargs)
        for fdef in [*concrete.graph.as_graph_def().library.function, concrete.function_def]:
            if fdef.signature.name not in names:
                names.add(fdef.signature.name)
                library.function.append(fdef)
        exported.append(
            {
                "f": concrete.function_def.signature.name,
                "captures": [_capture(c, concrete, ids) for c in concrete.captured_inputs],
                "arguments": len(concrete.inputs) - len(concrete.captured_inputs),
                "tout": [t.dtype.as_datatype_enum for t in concrete.outputs],
                "structure": _structure(concrete.structured_outputs, iter(range(10**6))),
            }
        )
    data = library.SerializeToString()
    if len(data) > MAX_GRAPH_BYTES:
        return {"error": f"the traced graphs take {len(data)} bytes (over {MAX_GRAPH_BYTES})"}
    text = base64.b64encode(zlib.compress(data, 6)).decode()  # ~6x smaller: one report, 1 MiB
    # in pieces: the supervisor cuts every string of a report at 2,000 characters (readable.py)
    pieces = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]
    return {"library": pieces, "calls": exported, "s": round(time.monotonic() - began, 3)}


def _capture(tensor: Any, concrete: Any, ids: dict[int, int]) -> dict[str, Any]:
    if id(tensor) in ids:
        return {"variable": ids[id(tensor)]}
    if tensor.dtype == tf.resource:  # a variable of the code's own: its value at trace time
        owned = [v for v in concrete.graph.variables if handle(v) is tensor]
        if not owned:
            return {"unknown": "a resource that is no variable"}
        return {"own": _values(owned[0])}
    return {"value": _values(tensor)}


def _values(tensor: Any) -> dict[str, Any]:
    data = np.asarray(tensor.numpy())
    if data.size > MAX_CAPTURED_ELEMENTS or data.dtype.kind not in "fiub":
        return {"unknown": f"{data.dtype} {list(data.shape)}"}
    return {"dtype": tensor.dtype.name, "shape": list(data.shape), "values": data.ravel().tolist()}


def _structure(out: Any, counter: Any) -> Any:
    """The returned structure with each tensor replaced by its index among the outputs."""
    if isinstance(out, dict):
        # keys as observe.value names them: a 5 MB key made the report too large to send, and
        # str() of a key of the code's own class would run its code (round 16, lead)
        return {"map": {observe.key_name(k): _structure(v, counter) for k, v in out.items()}}
    if isinstance(out, list | tuple):
        return {"seq": [_structure(v, counter) for v in out]}
    if out is None:
        return {"none": True}
    if isinstance(out, tf.Tensor):
        return {"tensor": next(counter)}
    return {"const": observe.value(out)}


Replayer = Callable[[dict[str, Any]], dict[str, Any]]  # an export -> what its replay saw


def run_replay(job: dict[str, Any], entries: list[Any],
               replayers: dict[str, Replayer] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Each exported scenario run on state built from the job's hidden seed (`replayers`, when
    built already), in one loop for the core contracts and the ones a pack declares. The
    trusted side sends only the ids of the reference's "tf.function" scenarios; the ids are
    checked here too, so that a forged, repeated or eager one is refused in words rather than
    ending the worker with a KeyError (or, for an eager id, replaying public state)."""
    replayers = replayers_of(job) if replayers is None else replayers
    results: list[dict[str, Any]] = []
    for entry in entries[:MAX_ENTRIES]:  # each scenario is replayed once at most (below)
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str) or ident not in replayers:
            results.append(refusal(ident, "is not a tf.function scenario of this contract"))
        elif any(done["id"] == ident for done in results):
            results.append(refusal(ident, "was replayed already"))
        else:
            began, export = time.monotonic(), entry.get("export")
            replayed = replayers[ident](export if isinstance(export, dict) else {})
            results.append({"id": ident, **replayed, "s": round(time.monotonic() - began, 3)})
    return results


def replayers_of(job: dict[str, Any]) -> dict[str, Replayer]:
    """The job's "tf.function" scenarios by id, their hidden state built now, each a function
    of its export (the state is used once)."""
    hidden = int(job["graph_seed"])
    if job.get("checker"):  # a contract the pack declares: its inputs come from its setup
        from .replay_declared import replayers

        return replayers(job["checker"], hidden)
    name = job.get("contract")
    contract = CONTRACTS.get(name) if isinstance(name, str) else None
    graphs = [s for s in contract.scenarios if is_graph(s)] if contract else []
    return {s.id: partial(replay_scenario, plan_for(str(name), s, hidden)) for s in graphs}


def refusal(ident: object, why: str) -> dict[str, Any]:
    """A readable refusal for an entry the worker will not replay."""
    shown = repr(ident[:80]) if isinstance(ident, str) else f"({type(ident).__name__}, no id)"
    message = f"the export names scenario {shown}, which {why}"
    ident = ident if isinstance(ident, str) else None
    return {"id": ident, "initial": [], "calls": [],
            "error": {"type": "Unreplayable", "message": message}}  # fmt: skip


def replay_scenario(plan: Plan, exported: dict[str, Any]) -> dict[str, Any]:
    from .runner import observe_call

    initial = [observe.variables(model, trainable=True) for model in plan.models]
    calls: list[dict[str, Any]] = []

    def run_calls() -> None:
        runs = prepare(scenario_variables(plan), exported, positional)
        for run, args in zip(runs, plan.calls, strict=False):
            out = run(args)
            calls.append({**observe_call(plan, None), "out": out})

    return {"initial": initial, "calls": calls, "error": guarded(run_calls)}


def guarded(run_calls: Callable[[], None]) -> dict[str, Any] | None:
    """The error of a replay's calls as the report carries it, or None."""
    try:
        run_calls()
    except Unreplayable as err:
        return {"type": "Unreplayable", "message": str(err)[:600]}
    except Exception as err:
        # by type only: a kernel's message can hold numbers of the hidden state (an index out
        # of range, an assertion's data), which would reach the feedback
        message = "its message is not shown: it ran on the hidden state"
        return {"type": type(err).__name__, "message": message}
    return None


Inputs = Callable[[Any], list[Any]]  # a call's arguments -> the graph's inputs before captures


def prepare(variables: list[Any], exported: dict[str, Any],
            inputs_of: Inputs) -> list[Callable[[Any], Any]]:  # fmt: skip
    """A runner per exported call, the library checked and registered; `variables` are the
    replay's own, passed where the export names a scenario variable."""
    if "library" not in exported:
        raise Unreplayable(exported.get("error") or "no traced graph was reported")
    text = "".join(str(piece) for piece in exported["library"])
    data = zlib.decompressobj().decompress(base64.b64decode(text), MAX_GRAPH_BYTES + 1)
    if len(data) > MAX_GRAPH_BYTES:
        raise Unreplayable(f"the traced graphs take over {MAX_GRAPH_BYTES} bytes")
    library = function_pb2.FunctionDefLibrary.FromString(data)
    _check_ops(library, [str(call["f"]) for call in exported["calls"]])
    ctx = context.context()
    for fdef in library.function:
        name = fdef.signature.name
        if not ctx.has_function(name):
            ctx.add_function_def(fdef)
        elif ctx.get_function_def(name).SerializeToString() != fdef.SerializeToString():
            raise Unreplayable(f"function {name[:80]} exists already")
    return [_runner(call, variables, ctx, inputs_of) for call in exported["calls"]]


def _check_ops(library: Any, called: list[str]) -> None:
    why = refused(library, called)
    if why:
        raise Unreplayable(why)


def _runner(call: dict[str, Any], variables: list[Any], ctx: Any,
            inputs_of: Inputs) -> Callable[[Any], Any]:  # fmt: skip
    captured = [_captured(c, variables) for c in call["captures"]]  # variables kept alive
    name, tout = str(call["f"]), [int(t) for t in call["tout"]]

    def run(args: Any) -> Any:
        inputs = inputs_of(args)
        if len(inputs) != int(call.get("arguments", len(inputs))):
            raise Unreplayable("the traced graph takes other arguments than the scenario gives")
        inputs += [c if isinstance(c, tf.Tensor) else handle(c) for c in captured]
        attrs = (
            "Tin", [t.dtype.as_datatype_enum for t in inputs], "Tout", tout,
            "f", attr_value_pb2.NameAttrList(name=name),
            "config", "", "config_proto", "", "executor_type", "",
        )  # fmt: skip
        outputs = execute.execute("StatefulPartitionedCall", len(tout), inputs, attrs, ctx)
        return _observation(call["structure"], outputs, 0)

    return run


def positional(args: tuple[Any, ...]) -> list[Any]:
    # tf.function feeds the tensors and arrays among the arguments; objects (models,
    # optimizers, the loss) are captured through their variables
    tensors = [a for a in args if isinstance(a, np.ndarray | tf.Tensor)]
    return [tf.convert_to_tensor(a) for a in tf.nest.flatten(tensors)]


def _captured(capture: dict[str, Any], variables: list[Any]) -> Any:
    if "variable" in capture:
        return variables[int(capture["variable"])]
    found = capture.get("own") or capture.get("value") or {}
    if "values" not in found:
        raise Unreplayable(f"the step captured {found.get('unknown') or capture}")
    data = np.asarray(found["values"], dtype=found["dtype"]).reshape(found["shape"])
    if "own" in capture:
        return tf.Variable(data)
    return tf.constant(data)


def _observation(structure: dict[str, Any], outputs: list[Any], depth: int) -> Any:
    """What observe.value reports for the value the traced function returned."""
    if "map" in structure and depth < 3:
        pairs = sorted(structure["map"].items())[:16]
        return {"kind": "map", "items": {k[:80]: _observation(v, outputs, depth + 1)
                                         for k, v in pairs}}  # fmt: skip
    if "seq" in structure and depth < 3:
        items = structure["seq"][:16]
        return {"kind": "seq", "items": [_observation(v, outputs, depth + 1) for v in items]}
    if "tensor" in structure:
        return observe.array(outputs[int(structure["tensor"])])
    if "none" in structure:
        return {"kind": "none"}
    if "const" in structure:
        return structure["const"]
    return {"kind": "other", "type": "dict" if "map" in structure else "tuple"}
