"""The core pack's own self-test (`tapequiz packs test questions/gradient-tape`) passes with
the real sandbox: every code question's reference grades correct and every known-wrong
solution is reported with its own tag. Nothing else runs the packs' code samples end to end,
and a diagnosis rule that pre-empts a sample's tag only shows up here."""

from __future__ import annotations

import pytest

from app.packs.loader import load_pack
from app.services.instructor.selftest import format_report, run_selftest
from tests.sandbox.conftest import PACK, SandboxGrader

pytestmark = pytest.mark.sandbox


def test_core_pack_selftest_passes_in_the_sandbox(sandbox: SandboxGrader) -> None:
    loaded = load_pack(PACK)
    assert loaded.pack is not None, loaded.problems
    report = sandbox.loop.run(run_selftest(loaded.pack, code_grader=sandbox.grader))
    assert report.passed, format_report(report)
    assert not any(row.count("skip") for row in report.rows)
