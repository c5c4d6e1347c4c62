"""Turn what a step returned and left behind into plain, size-capped JSON values.

Only plain lists, numbers and strings cross back to the supervisor (never pickle), and every
array is capped so a candidate returning a huge tensor cannot flood the result channel.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import tensorflow as tf

MAX_ELEMENTS = 4_096


def value(obj: Any, depth: int = 0) -> dict[str, Any]:
    """Describe a returned value: a tensor, a number, a sequence or dict of those, or other.

    Only exact built-in, NumPy and TensorFlow types are looked into. Anything else is named by
    its type and never touched: a returned object of the candidate's own class ran its code
    when the checker looked at it (a `numpy()`, `__array__`, `__getitem__` or `__str__` that
    took the real step after the call), and earned credit for a step the call did not take.
    """
    kind = type(obj)
    if obj is None:
        return {"kind": "none"}
    if kind in (list, tuple) and depth < 3:
        return {"kind": "seq", "items": [value(item, depth + 1) for item in obj[:16]]}
    if kind is dict and depth < 3:
        pairs = sorted(((key_name(k), v) for k, v in obj.items()), key=lambda pair: pair[0])[:16]
        return {"kind": "map", "items": {k: value(v, depth + 1) for k, v in pairs}}
    if kind is bool:
        return {"kind": "other", "type": "bool"}
    if kind in tensor_types():
        return array(obj)
    if kind in NUMBERS:
        # Compared like a tensor, but marked: some contracts ask for a tensor, not a number.
        return {**array(obj), "python": kind.__name__}
    return {"kind": "other", "type": type_name(obj)}


NUMBERS = frozenset({int, float, np.ndarray, *np.sctypeDict.values()})


def key_name(key: Any) -> str:
    """A dict key as reported: built-in keys cut at 80 characters, others by type name."""
    # Cut like a type name: one 5 MB key made the whole report too large to send (round 14).
    return str(key)[:80] if type(key) in (str, int, float, bool) else f"<{type_name(key)}>"


def type_name(obj: Any) -> str:
    """The name of obj's class, read past any metaclass (which could run code or lie)."""
    name = type.__dict__["__name__"].__get__(type(obj), type)
    return str(name)[:80]


@functools.cache
def tensor_types() -> frozenset[type]:
    """The exact classes of TF's eager tensors and of TF and Keras variables: read once, at
    warm-up, before any candidate code could rebind `tf.constant` or `tf.Variable`."""
    import keras

    found = {type(tf.constant(0.0)), type(tf.Variable(0.0)), type(keras.Variable(0.0))}
    return frozenset(found)


def array(obj: Any) -> dict[str, Any]:
    kind = type(obj)
    if kind not in tensor_types() and kind not in NUMBERS:
        return {"kind": "other", "type": type_name(obj)}
    try:
        data = np.asarray(obj.numpy() if kind in tensor_types() else obj)
    except Exception as err:
        return {"kind": "other", "type": type_name(obj), "error": str(err)[:200]}
    if data.dtype.kind not in "fiub":
        return {"kind": "other", "type": f"array of {data.dtype}"}
    flat = data.astype(np.float64).ravel()[:MAX_ELEMENTS]
    return {
        "kind": "tensor",
        "dtype": getattr(getattr(obj, "dtype", None), "name", None) or str(data.dtype),
        "shape": list(data.shape),
        "values": [_finite(v) for v in flat.tolist()],
    }


def _finite(number: float) -> float | str:
    # JSON has no NaN/inf; strings keep them comparable on the trusted side.
    return number if math.isfinite(number) else str(number)


def variables(model: Any, trainable: bool) -> list[dict[str, Any]]:
    items = model.trainable_variables if trainable else model.non_trainable_variables
    names = _labels(model)
    return [{"path": names.get(id(v), str(getattr(v, "name", "?"))), **array(v)} for v in items]


def _labels(model: Any) -> dict[int, str]:
    # Keras numbers layer names per process (dense_7); labels by position stay comparable.
    labels = {}
    for index, layer in enumerate(model.layers):
        for variable in layer.variables:
            labels[id(variable)] = f"layers[{index}] {type(layer).__name__}.{variable.name}"
    return labels


def iterations(optimizers: list[Any]) -> list[int]:
    return [int(opt.iterations.numpy()) for opt in optimizers]
