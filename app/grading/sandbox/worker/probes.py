"""Instrumentation: what the candidate handed to tapes and optimizers, and how often.

Numbers alone miss mistakes Keras forgives (gradients taken against `model.variables` are
skipped with a warning), so the worker records each tape's watch and gradient calls, each
optimizer's apply calls and each model call's `training` flag. These records only ever add
diagnoses on the trusted side: a correct verdict still needs numbers that match the reference.
Under tf.function the wrappers run at trace time, which is when the structure is decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import keras
import tensorflow as tf

_Tape = tf.GradientTape
MAX_HELD = 64  # tapes kept alive per scenario; records stop at 50 per kind anyway
# What install() patched, as (class, attribute): the worker seals them (seal.py) before a job.
INSTALLED: list[tuple[Any, str]] = []


@dataclass
class Registry:
    """The scenario's models and optimizers, so probes can name what they were given."""

    models: list[Any] = field(default_factory=list)
    optimizers: list[Any] = field(default_factory=list)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    tapes: dict[int, int] = field(default_factory=dict)  # id(tape) -> ordinal
    # The tapes themselves, so that a dead tape's id is never reused by the next one (it was:
    # the second tape of a step got the first's ordinal ~1 run in 3, found in round 3).
    held: list[Any] = field(default_factory=list)
    active: list[int] = field(default_factory=list)  # ordinals of open tape contexts

    def add(self, kind: str, record: dict[str, Any]) -> None:
        items = self.records.setdefault(kind, [])
        if len(items) < 50:  # a loop calling gradient 10^6 times must not bloat the report
            items.append(record)

    def ordinal(self, tape: Any) -> int:
        if id(tape) not in self.tapes and len(self.held) < MAX_HELD:
            self.held.append(tape)
        return self.tapes.setdefault(id(tape), len(self.tapes))

    def classify(self, obj: Any) -> str:
        for model in self.models:
            if any(obj is v for v in model.trainable_variables):
                return "trainable"
            if any(obj is v for v in model.non_trainable_variables):
                return "non_trainable"
        if isinstance(obj, tf.Variable | keras.Variable):
            return "other_variable"
        return "tensor" if tf.is_tensor(obj) else "other"


CURRENT = Registry()


def reset(models: list[Any], optimizers: list[Any]) -> Registry:
    global CURRENT
    CURRENT = Registry(models=list(models), optimizers=list(optimizers))
    for index, optimizer in enumerate(optimizers):
        _wrap_apply(optimizer, index)
    return CURRENT


def _kinds(objs: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for obj in tf.nest.flatten(objs):
        kind = CURRENT.classify(obj)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _owners(objs: Any) -> list[int]:
    """Indexes of the scenario models whose trainable variables appear in `objs`."""
    flat = tf.nest.flatten(objs)
    return [
        index
        for index, model in enumerate(CURRENT.models)
        if any(obj is v for obj in flat for v in model.trainable_variables)
    ]


def _wrap_apply(optimizer: Any, index: int) -> None:
    original = optimizer.apply

    def apply(grads: Any, trainable_variables: Any = None) -> Any:
        sized = hasattr(grads, "__len__")  # never consume a generator the optimizer must read
        flat = list(grads) if sized and trainable_variables is not None else []
        variables = list(trainable_variables) if trainable_variables is not None else []
        CURRENT.add(
            "apply",
            {
                "optimizer": index,
                "variables": _kinds(variables) if variables else {},
                "models": _owners(variables) if variables else [],
                "none_grads": sum(1 for g in flat if g is None),
                "grads": len(grads) if sized else -1,
                "count": len(variables),
            },
        )
        return original(grads, variables if trainable_variables is not None else None)

    object.__setattr__(optimizer, "apply", apply)


def install() -> None:
    """Patch the tape and layer classes once per worker; records go to CURRENT."""
    enter, exit_, watch, gradient = _Tape.__enter__, _Tape.__exit__, _Tape.watch, _Tape.gradient
    call = keras.layers.Layer.__call__

    def tape_enter(self: Any) -> Any:
        ordinal = CURRENT.ordinal(self)
        CURRENT.add("tape", {"tape": ordinal})
        CURRENT.active.append(ordinal)
        return enter(self)

    def tape_exit(self: Any, *exc: Any) -> Any:
        ordinal = CURRENT.ordinal(self)
        if ordinal in CURRENT.active:
            CURRENT.active.remove(ordinal)
        return exit_(self, *exc)

    def tape_watch(self: Any, tensor: Any) -> Any:
        CURRENT.add("watch", {"tape": CURRENT.ordinal(self), "kinds": _kinds(tensor)})
        return watch(self, tensor)

    def tape_gradient(self: Any, target: Any, sources: Any, *args: Any, **kwargs: Any) -> Any:
        record = _gradient_record(self, sources)
        CURRENT.add("gradient", record)
        try:
            result = gradient(self, target, sources, *args, **kwargs)
        except BaseException as err:
            record["error"] = type(err).__name__
            raise
        flat = tf.nest.flatten(result)  # a lone None result flattens to [None]
        record["none"] = sum(1 for g in flat if g is None)
        record["results"] = len(flat)
        return result

    def layer_call(self: Any, *args: Any, **kwargs: Any) -> Any:
        for index, model in enumerate(CURRENT.models):
            if self is model:  # model(x, True) passes training positionally
                training = kwargs.get("training", args[1] if len(args) > 1 else None)
                CURRENT.add("model_call", {"model": index, "training": _flag(training)})
        return call(self, *args, **kwargs)

    INSTALLED.extend((_Tape, name) for name in ("__enter__", "__exit__", "watch", "gradient"))
    INSTALLED.append((keras.layers.Layer, "__call__"))
    _Tape.__enter__, _Tape.__exit__ = tape_enter, tape_exit  # type: ignore[method-assign]
    _Tape.watch, _Tape.gradient = tape_watch, tape_gradient  # type: ignore[method-assign]
    keras.layers.Layer.__call__ = layer_call  # type: ignore[method-assign]


def _flag(training: Any) -> bool | None:
    """The training flag as JSON: a Python or constant tensor bool; None when unknowable."""
    if training is None or isinstance(training, bool):
        return training
    try:
        return bool(training)
    except Exception:  # a symbolic tensor under tf.function: its value is not known yet
        return None


def _gradient_record(tape: Any, sources: Any) -> dict[str, Any]:
    ordinal = CURRENT.ordinal(tape)
    return {
        "tape": ordinal,
        "persistent": bool(getattr(tape, "_persistent", False)),
        "inside_own_block": ordinal in CURRENT.active,
        "open_tapes": [t for t in CURRENT.active if t != ordinal],
        "sources": _kinds(sources),
    }


def snapshot() -> dict[str, list[dict[str, Any]]]:
    records = {kind: list(items) for kind, items in CURRENT.records.items()}
    if CURRENT.optimizers:  # read after the step: a step must not reconfigure the optimizer
        records["optimizer_config"] = [_config(opt) for opt in CURRENT.optimizers]
    return records


def _config(optimizer: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name in ("learning_rate", "clipnorm", "global_clipnorm", "clipvalue"):
        try:
            value = getattr(optimizer, name, None)
            found[name] = None if value is None else round(float(value), 9)
        except Exception:  # a schedule or something odd the candidate assigned
            found[name] = "unreadable"
    return found
