"""Shared misconception entries (round 51): defined once in `_misconceptions.yaml`, referred to
by tag from a rubric; every misuse refused with its file and line; packs without the file
load as before."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from app.packs.loader import load_pack
from app.packs.schema import FreeText
from app.packs.shared import SHARED_FILE, read_shared
from app.packs.yamlfiles import parse_yaml
from tests.conftest import FIXTURE_PACKS

MINI = FIXTURE_PACKS / "mini"
SHARED = """\
misconceptions:
  - tag: tape-is-symbolic
    label: the tape builds symbolic formulas
    correction: The tape walks the recorded operations backwards.
    any:
      - symbolic ~ formulas?
"""
# A reference to it, in place of mini-explain's (empty) misconceptions.
REFERENCE = """\
  misconceptions:
    - shared: tape-is-symbolic
      any:
        - derives ~ expressions?
      cap: incorrect
"""


def mini_pack(tmp_path: Path, shared: str | None = SHARED, reference: str = REFERENCE) -> Path:
    """The mini pack with `shared` as its shared file (none when None) and `reference` added to
    mini-explain's rubric (round 52's loaded-pack tests build theirs with it too)."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    if shared is not None:
        (folder / SHARED_FILE).write_text(shared)
    explain = folder / "mini-explain.yaml"
    explain.write_text(explain.read_text() + reference)
    return folder


def _explain(folder: Path) -> FreeText:
    report = load_pack(folder)
    assert report.problems == [], report.problems
    assert report.pack is not None
    (item,) = [i for i in report.pack.questions if i.question.id == "mini-explain"]
    assert isinstance(item.question, FreeText)
    return item.question


def _problems(folder: Path) -> list[str]:
    report = load_pack(folder)
    assert report.pack is None
    return [str(p) for p in report.problems]


def test_reference_reads_the_shared_entry_with_its_own_phrasings_and_cap(tmp_path: Path) -> None:
    (tell,) = _explain(mini_pack(tmp_path)).rubric.misconceptions
    assert tell.tag == "tape-is-symbolic"
    assert tell.correction == "The tape walks the recorded operations backwards."
    assert tell.any == ["symbolic ~ formulas?", "derives ~ expressions?"]
    assert tell.cap == "incorrect"


def test_reference_without_changes_keeps_the_shared_cap(tmp_path: Path) -> None:
    folder = mini_pack(tmp_path, reference="  misconceptions:\n    - shared: tape-is-symbolic\n")
    (tell,) = _explain(folder).rubric.misconceptions
    assert (tell.any, tell.cap) == (["symbolic ~ formulas?"], "partial")


def test_shared_file_is_not_read_as_a_question(tmp_path: Path) -> None:
    report = load_pack(mini_pack(tmp_path))
    assert report.pack is not None
    assert len(report.pack.questions) == len(load_pack(MINI).pack.questions)  # type: ignore[union-attr]


def test_unknown_reference_is_refused_at_its_line(tmp_path: Path) -> None:
    folder = mini_pack(tmp_path, reference="  misconceptions:\n    - shared: tape-is-numeric\n")
    (problem,) = _problems(folder)
    explain = folder / "mini-explain.yaml"
    line = explain.read_text().splitlines().index("    - shared: tape-is-numeric") + 1
    assert problem.startswith(f"{explain}:{line}: ")
    assert "'tape-is-numeric' is not defined in _misconceptions.yaml" in problem


def test_reference_without_a_shared_file_is_refused(tmp_path: Path) -> None:
    (problem,) = _problems(mini_pack(tmp_path, shared=None))
    assert "the pack has no _misconceptions.yaml" in problem


def test_duplicate_definition_is_refused_at_the_second(tmp_path: Path) -> None:
    twice = SHARED + SHARED.removeprefix("misconceptions:\n")
    problems = _problems(mini_pack(tmp_path, shared=twice))
    shared = tmp_path / "mini" / SHARED_FILE
    assert problems[0].startswith(f"{shared}:7: misconceptions: ")
    assert problems[0].endswith("misconception 'tape-is-symbolic' is defined twice")
    assert "has problems (reported there)" in problems[1]  # the reference is not called unknown


def test_rubric_that_defines_and_refers_is_refused(tmp_path: Path) -> None:
    both = REFERENCE + ("    - tag: tape-is-symbolic\n      correction: c\n      any: [symbolic]\n")
    (problem,) = _problems(mini_pack(tmp_path, reference=both))
    assert "both defined in this rubric and referred to" in problem
    assert problem.startswith(f"{tmp_path / 'mini' / 'mini-explain.yaml'}:")


def test_reference_with_a_field_it_cannot_change_is_refused(tmp_path: Path) -> None:
    changed = "  misconceptions:\n    - shared: tape-is-symbolic\n      correction: other\n"
    (problem,) = _problems(mini_pack(tmp_path, reference=changed))
    assert "rubric.misconceptions.0.correction: Extra inputs are not permitted" in problem


def test_reference_phrasing_is_validated_like_any_phrasing(tmp_path: Path) -> None:
    negated = "  misconceptions:\n    - shared: tape-is-symbolic\n      any: [does not derive]\n"
    (problem,) = _problems(mini_pack(tmp_path, reference=negated))
    assert "contains a negation" in problem


def test_version_of_a_referring_question_follows_the_shared_file(tmp_path: Path) -> None:
    folder = mini_pack(tmp_path)
    before = {i.question.id: i.version for i in load_pack(folder).pack.questions}  # type: ignore[union-attr]
    (folder / SHARED_FILE).write_text(SHARED.replace("backwards.", "backwards, op by op."))
    after = {i.question.id: i.version for i in load_pack(folder).pack.questions}  # type: ignore[union-attr]
    assert before["mini-explain"] != after["mini-explain"]
    assert {q: v for q, v in before.items() if q != "mini-explain"} == {
        q: v for q, v in after.items() if q != "mini-explain"
    }


def test_pack_without_shared_entries_keeps_its_versions() -> None:
    for item in load_pack(MINI).pack.questions:  # type: ignore[union-attr]
        assert item.version == hashlib.sha256(item.file.read_bytes()).hexdigest()[:12]


def test_history_finds_a_referring_question_by_its_recorded_version(tmp_path: Path) -> None:
    from app.services.instructor.publishing import versions_of

    folder = mini_pack(tmp_path)
    (item,) = [i for i in load_pack(folder).pack.questions if i.question.id == "mini-explain"]  # type: ignore[union-attr]
    assert item.version in versions_of(item.file)


def test_a_shared_phrasing_is_timed_once_for_every_rubric_that_refers(tmp_path: Path) -> None:
    from app.services.instructor.phrasing_timing import rubric_phrasings

    folder = mini_pack(tmp_path)
    explain = (folder / "mini-explain.yaml").read_text()
    (folder / "mini-explain-2.yaml").write_text(
        explain.replace("id: mini-explain", "id: mini-explain-2")
    )
    patterns = [p.pattern for p in rubric_phrasings(load_pack(folder).pack)]  # type: ignore[arg-type]
    assert patterns.count("symbolic ~ formulas?") == 1


CORE_SHARED = {  # round 51: tag -> the questions kept apart (their own inline copy)
    "tape-is-symbolic-differentiation": {"tf-function-speedup"},
    "tape-is-numerical-differentiation": set(),
    "gradient-reruns-forward": {"persistent-tape"},
}


def test_core_pack_defines_each_round51_tag_once_and_refers_to_it() -> None:
    from tests.conftest import CORE_PACK

    shared, problems = read_shared(CORE_PACK)
    assert problems == []
    assert set(CORE_SHARED) <= set(shared.entries)
    for path in sorted(CORE_PACK.glob("*.yaml")):
        tells = (
            (parse_yaml(path.read_text()).data or {}).get("rubric", {}).get("misconceptions", [])
        )
        for tell in tells:
            if tell.get("tag") in CORE_SHARED:
                assert path.stem in CORE_SHARED[tell["tag"]], (path.stem, tell["tag"])


def test_core_pack_reference_reads_every_shared_phrasing() -> None:
    from tests.conftest import CORE_PACK

    shared, _ = read_shared(CORE_PACK)
    for item in load_pack(CORE_PACK).pack.questions:  # type: ignore[union-attr]
        for tell in (
            item.question.rubric.misconceptions if isinstance(item.question, FreeText) else []
        ):
            if tell.tag in CORE_SHARED and item.question.id not in CORE_SHARED[tell.tag]:
                assert shared.entries[tell.tag].any == tell.any[: len(shared.entries[tell.tag].any)]


def test_a_shared_phrasing_is_reported_at_its_line_in_the_shared_file(tmp_path: Path) -> None:
    from app.services.instructor.phrasing_timing import line_of, rubric_phrasings

    folder = mini_pack(tmp_path)
    where = {p.pattern: line_of(p) for p in rubric_phrasings(load_pack(folder).pack)}  # type: ignore[arg-type]
    assert where["symbolic ~ formulas?"] == f"{folder / SHARED_FILE}:6"
    explain = folder / "mini-explain.yaml"
    line = explain.read_text().splitlines().index("        - derives ~ expressions?") + 1
    assert where["derives ~ expressions?"] == f"{explain}:{line}"  # the reference's own list
