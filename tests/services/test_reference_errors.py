"""How a pack's failing reference reads in a refused upload (the self-test shows this text)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.grading.code.references import ReferenceFailed, ReferenceStore
from app.packs.schema import Code
from tests.services.instructor_fakes import EXAMPLE

QUESTION = Code.model_validate(yaml.safe_load((EXAMPLE / "ex-write-train-step.yaml").read_text()))


def _failing(load_error: dict[str, Any]) -> Any:
    async def run(job: dict[str, Any]) -> dict[str, Any]:
        runs = [{"name": s["name"], "load_error": None, "scenarios": []} for s in job["sources"]]
        runs[0]["load_error"] = load_error
        return {"runs": runs}

    return run


def test_failing_reference_reads_as_a_sentence_not_a_dict(tmp_path: Path) -> None:
    """QA Q2: a hostile reference was refused with "failed: {'kind': 'load', 'message': ...}"."""
    error = {"kind": "load", "message": "RuntimeError: LEAK []", "lines": [17]}
    with pytest.raises(ReferenceFailed) as failed:
        asyncio.run(ReferenceStore(tmp_path).get(QUESTION, _failing(error)))
    assert str(failed.value) == (
        "reference solution of ex-write-train-step failed: RuntimeError: LEAK [] "
        "(line 17 of the reference)"
    )
