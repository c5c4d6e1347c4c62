"""The reference cache: one trusted run per question version, reused from disk after restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.code.references import ReferenceFailed, ReferenceStore, trusted_job
from app.packs.schema import Code

QUESTION = Code.model_validate(
    yaml.safe_load((REPO_ROOT / "questions" / "gradient-tape" / "train-step.yaml").read_text())
)


def scenario(error: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": "s1", "initial": [], "calls": [], "error": error, "probes": {}}


def report(job: dict[str, Any], error: dict[str, Any] | None = None) -> dict[str, Any]:
    runs = [
        {"name": s["name"], "load_error": None, "scenarios": [scenario()]} for s in job["sources"]
    ]
    runs[0]["scenarios"] = [scenario(error)]
    return {"runs": runs}


class FakeRunner:
    def __init__(self, error: dict[str, Any] | None = None) -> None:
        self.jobs: list[dict[str, Any]] = []
        self.error = error

    async def __call__(self, job: dict[str, Any]) -> dict[str, Any]:
        self.jobs.append(job)
        return report(job, self.error)


def test_trusted_job_runs_reference_and_every_known_wrong() -> None:
    names = [s["name"] for s in trusted_job(QUESTION)["sources"]]
    assert names == ["reference"] + [f"wrong:{i}" for i in range(len(QUESTION.wrong))]


def test_reference_is_computed_once_and_reused_from_disk(tmp_path: Path) -> None:
    first, second = FakeRunner(), FakeRunner()
    asyncio.run(ReferenceStore(tmp_path).get(QUESTION, first))
    reference = asyncio.run(ReferenceStore(tmp_path).get(QUESTION, second))
    assert (len(first.jobs), len(second.jobs)) == (1, 0)
    assert [k.tag for k in reference.known] == [w.tag for w in QUESTION.wrong]


def test_failing_reference_is_a_pack_error_and_not_cached(tmp_path: Path) -> None:
    failing = FakeRunner(error={"type": "ValueError", "message": "boom", "lines": [3], "call": 0})
    with pytest.raises(ReferenceFailed):
        asyncio.run(ReferenceStore(tmp_path).get(QUESTION, failing))
    assert not list(tmp_path.glob("*.json"))
