"""Turn what a step returned and left behind into plain, size-capped JSON values.

Only plain lists, numbers and strings cross back to the supervisor (never pickle), and every
array is capped so a candidate returning a huge tensor cannot flood the result channel.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf

MAX_ELEMENTS = 4_096


def value(obj: Any, depth: int = 0) -> dict[str, Any]:
    """Describe a returned value: a tensor, a number, a sequence or dict of those, or other."""
    if obj is None:
        return {"kind": "none"}
    if isinstance(obj, list | tuple) and depth < 3:
        return {"kind": "seq", "items": [value(item, depth + 1) for item in obj[:16]]}
    if isinstance(obj, dict) and depth < 3:
        pairs = sorted(obj.items(), key=lambda pair: str(pair[0]))[:16]
        return {"kind": "map", "items": {str(k): value(v, depth + 1) for k, v in pairs}}
    if isinstance(obj, bool):
        return {"kind": "other", "type": "bool"}
    if tf.is_tensor(obj):
        return array(obj)
    if isinstance(obj, np.ndarray | np.generic | int | float):
        # Compared like a tensor, but marked: some contracts ask for a tensor, not a number.
        return {**array(obj), "python": type(obj).__name__}
    return {"kind": "other", "type": type(obj).__name__}


def array(obj: Any) -> dict[str, Any]:
    try:
        data = np.asarray(obj.numpy() if hasattr(obj, "numpy") else obj)
    except Exception as err:
        return {"kind": "other", "type": type(obj).__name__, "error": str(err)[:200]}
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
