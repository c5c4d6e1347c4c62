"""The example pack's self-test through the real sandbox (slow: starts TensorFlow workers)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.config import Settings
from app.packs.loader import load_pack
from app.services.selftest import SelfTestReport, format_report, run_selftest

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-pack"


async def _run_with_sandbox(settings: Settings) -> SelfTestReport:
    code = pytest.importorskip("app.grading.code")
    if not hasattr(code, "CodeGrader"):
        pytest.skip("the code grader (app.grading.code.CodeGrader) is not built yet")
    pack = load_pack(EXAMPLE).pack
    assert pack is not None
    grader = code.CodeGrader(settings)
    await grader.start()
    try:
        return await run_selftest(pack, code_grader=grader)
    finally:
        await grader.stop()


@pytest.mark.sandbox
def test_example_pack_passes_selftest_in_real_sandbox(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, sandbox_enabled=True, sandbox_pool_size=2)
    report = asyncio.run(_run_with_sandbox(settings))
    assert report.passed, format_report(report)
    assert all(row.status == "pass" for row in report.rows)
