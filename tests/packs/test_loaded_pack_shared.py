"""The loaded pack carries its shared misconception entries and where each rubric refers to
them (round 52), so the publish path's phrasing timer reads no pack file a second time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.packs.loader import Pack, load_pack
from app.packs.shared import SHARED_FILE
from tests.packs.test_shared_misconceptions import mini_pack

PHRASING = "symbolic ~ formulas?"  # the shared entry's


def _loaded(folder: Path) -> Pack:
    report = load_pack(folder)
    assert report.problems == [], report.problems
    assert report.pack is not None
    return report.pack


def test_the_loaded_pack_holds_its_shared_entries_and_each_rubrics_references(
    tmp_path: Path,
) -> None:
    pack = _loaded(mini_pack(tmp_path))
    assert set(pack.shared.entries) == {"tape-is-symbolic"}
    assert pack.shared.path == pack.path / SHARED_FILE
    positions = {item.question.id: item.references for item in pack.questions}
    assert positions["mini-explain"] == frozenset({0})
    assert all(not found for qid, found in positions.items() if qid != "mini-explain")


def test_a_pack_without_the_file_holds_no_shared_entries(tmp_path: Path) -> None:
    pack = _loaded(mini_pack(tmp_path, shared=None, reference=""))
    assert pack.shared.entries == {} and pack.shared.path is None
    assert all(not item.references for item in pack.questions)


def test_timing_the_phrasings_reads_no_pack_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.services.instructor.phrasing_timing import rubric_phrasings

    folder = mini_pack(tmp_path)
    pack = _loaded(folder)
    reads: list[Path] = []

    def counted(name: str) -> Callable[..., Any]:
        original = getattr(Path, name)

        def read(self: Path, *args: Any, **kwargs: Any) -> Any:
            reads.append(self)
            return original(self, *args, **kwargs)

        return read

    for name in ("read_text", "read_bytes", "open"):
        monkeypatch.setattr(Path, name, counted(name))
    placed = {p.pattern: p for p in rubric_phrasings(pack)}
    assert reads == []
    assert placed[PHRASING].file == str(folder / SHARED_FILE)  # still found in the shared file


def test_a_shared_phrasing_is_placed_from_the_loaded_pack_not_the_folder(tmp_path: Path) -> None:
    from app.services.instructor.phrasing_timing import rubric_phrasings

    folder = mini_pack(tmp_path)
    pack = _loaded(folder)
    (folder / SHARED_FILE).unlink()  # what the timer places must be what the loader read
    explain = folder / "mini-explain.yaml"
    explain.write_text(explain.read_text().replace("- shared: tape-is-symbolic", "- tag: x"))
    placed = {p.pattern: p for p in rubric_phrasings(pack)}
    assert placed[PHRASING].file == str(folder / SHARED_FILE)
    assert placed[PHRASING].loc == ("misconceptions", 0, "any", 0)
    assert placed["derives ~ expressions?"].file == str(explain)  # the reference's own
