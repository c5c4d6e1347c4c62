"""A named mistake found in a run, and the probe records the rules read to find it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Finding:
    tag: str
    message: str
    scenario: str = ""
    lines: list[int] = field(default_factory=list)


def records(run: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The probe records of one kind (gradient, apply, watch, model_call, tape, ...)."""
    return list(run["probes"].get(kind, []))
