"""The worker's own code, sealed before candidate code runs and checked after each scenario.

Candidate code runs in the worker's interpreter, so it can rebind what the worker reads while
it observes: a module global (round 15: `scenarios._RUNS_EAGERLY = lambda: False` plus
`run_functions_eagerly(True)` ran the "tf.function" scenario eagerly, and a step calling
`.numpy()` was graded correct), a class attribute (`probes.Registry.add` made a no-op: no
probe records, so one persistent tape where nested tapes are asked was graded correct) or the
probes installed on TensorFlow's and Keras's classes. The seal records, by identity, every
global of the worker's modules, the code, defaults and closure cells of their functions, the
attributes of their classes and the probes; `broken` names whatever differs. The worker then
reports the scenario as tampered with, whatever its numbers.

Code that finds the seal itself (through `gc`) could still forge it; this closes the ways
that need no more than a module attribute, which is all the round's attacks used.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

PACKAGE = __name__.rpartition(".")[0]
# Rebound or filled by the worker itself during a job: probes.reset() makes a new registry per
# scenario, plan_for() takes prebuilt plans out.
_REBOUND = {(f"{PACKAGE}.probes", "CURRENT"), (f"{PACKAGE}.scenarios", "_PREBUILT")}


Seal = dict[str, tuple[Any, ...]]
Extra = list[tuple[Any, str]]


def checker(extra: Extra) -> Callable[[], list[str]]:
    """A check bound now, before any candidate code: it holds the seal, `broken` and `take`
    and their code objects, so rebinding or recompiling them later is itself caught."""
    sealed = take(extra)
    check, collect = broken, take
    codes = (check.__code__, collect.__code__, _module.__code__, _identity.__code__)

    def changed() -> list[str]:
        now = (check.__code__, collect.__code__, _module.__code__, _identity.__code__)
        if any(a is not b for a, b in zip(now, codes, strict=True)):
            return [f"{PACKAGE}.seal"]
        return check(sealed, extra)

    return changed


def take(extra: Extra | None = None) -> Seal:
    """Identities of everything the worker reads at run time, keyed by a readable name."""
    seal: Seal = {}
    for name, module in sorted(sys.modules.items()):
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            _module(seal, name, module)
    for owner, attribute in extra or []:
        label = f"{getattr(owner, '__qualname__', type(owner).__name__)}.{attribute}"
        seal[label] = _identity(getattr(owner, attribute, None))
    return seal


def broken(seal: Seal, extra: Extra | None = None) -> list[str]:
    """The names whose identity changed since `seal` was taken (first 5)."""
    now = take(extra)
    changed = [name for name in seal if now.get(name) != seal[name]]
    changed += [name for name in now if name not in seal]
    return changed[:5]


def _module(seal: Seal, name: str, module: types.ModuleType) -> None:
    for key, value in list(vars(module).items()):
        if (name, key) in _REBOUND or key.startswith("__"):
            continue
        seal[f"{name}.{key}"] = _identity(value)
        if isinstance(value, type) and value.__module__ == name:
            for attr, member in list(vars(value).items()):
                seal[f"{name}.{key}.{attr}"] = _identity(member)
        elif isinstance(value, dict):  # a table the worker reads (CONTRACTS): its entries too
            for entry, member in list(value.items()):
                seal[f"{name}.{key}[{entry!r}]"] = _identity(member)


def _identity(value: Any) -> tuple[Any, ...]:
    """The value's id, plus for a function what a candidate could swap inside it."""
    func = getattr(value, "__func__", value)  # staticmethod, classmethod, bound method
    if not isinstance(func, types.FunctionType):
        return (id(value),)
    cells = tuple(id(_contents(cell)) for cell in func.__closure__ or ())
    return (id(value), id(func.__code__), id(func.__defaults__), id(func.__kwdefaults__), cells)


def _contents(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None
