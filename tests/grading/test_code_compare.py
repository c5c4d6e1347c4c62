"""Dtype-aware comparison of observed values (the only road to a correct verdict)."""

from __future__ import annotations

from typing import Any

import pytest

from app.grading.code.compare import values


def tensor(
    vals: list[Any], dtype: str = "float32", shape: list[int] | None = None
) -> dict[str, Any]:
    return {
        "kind": "tensor",
        "dtype": dtype,
        "shape": shape if shape is not None else [len(vals)],
        "values": vals,
    }


@pytest.mark.parametrize(
    ("ref", "cand", "differs"),
    [
        (tensor([1.0, 2.0]), tensor([1.0, 2.0]), False),
        (tensor([1.0, 2.0]), tensor([1.0 + 1e-6, 2.0]), False),  # float32 rounding
        (tensor([1.0, 2.0]), tensor([1.001, 2.0]), True),
        (tensor([1.0], "float64"), tensor([1.0 + 1e-6], "float64"), True),  # tighter for f64
        (tensor([0.5], shape=[]), tensor([0.5], shape=[1]), False),  # scalar vs [1]
        (tensor([0.5], shape=[]), tensor([0.5] * 8, shape=[8]), True),  # per-example loss
        (tensor(["nan"]), tensor(["nan"]), False),
        (tensor(["nan"]), tensor([0.0]), True),
        (tensor([1.0]), {"kind": "none"}, True),
        (
            {"kind": "seq", "items": [tensor([1.0]), tensor([2.0])]},
            {"kind": "seq", "items": [tensor([2.0]), tensor([1.0])]},
            True,
        ),
    ],
)
def test_values_compare(ref: dict[str, Any], cand: dict[str, Any], differs: bool) -> None:
    assert bool(values(ref, cand, "result")) is differs
