"""Round 25: the labelled answers and the rules' reading of them, read once per process.

The artefacts' freshness checks and builds (second opinion, tell caps, embedding verdict, tag
classifier) each graded the ~6,400 labelled answers with the rules and parsed ~4 MB of YAML:
evaluation.core_labelled and core_rules_rows now do it once, keyed by a hash of every file
they read, so an edited label, sides.yaml or rubric is read again and never served stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.freetext import evaluation
from app.grading.freetext.labelled import safe_yaml
from tests.grading.artefact_freshness import assert_fresh

LABELLED = REPO_ROOT / "tests" / "grading" / "freetext_labelled"
PACK = REPO_ROOT / "questions" / "gradient-tape"
ANSWERS = [
    {"question": "why-none-gradients", "verdict": "partial", "misconceptions": [],
     "answer": "Put the loss inside the with block."},
    {"question": "why-none-gradients", "verdict": "incorrect", "misconceptions": [],
     "answer": "No idea."},
]  # fmt: skip


def _folder(tmp_path: Path, verdict: str = "partial") -> Path:
    folder = tmp_path / "labelled"
    (folder / "meta").mkdir(parents=True)
    answers = [{**ANSWERS[0], "verdict": verdict}, ANSWERS[1]]
    (folder / "p-one.yaml").write_text(yaml.safe_dump({"persona": "p-one", "answers": answers}))
    (folder / "meta" / "sides.yaml").write_text("tune: [p-one]\n")
    return folder


def test_any_edit_to_a_label_sides_or_a_rubric_changes_the_key(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    before = evaluation.core_fingerprint(folder, pack)
    assert evaluation.core_fingerprint(folder, pack) == before
    label = folder / "p-one.yaml"
    label.write_text(label.read_text().replace("verdict: partial", "verdict: correct"))
    after_label = evaluation.core_fingerprint(folder, pack)
    (folder / "meta" / "sides.yaml").write_text("tune: []\n")
    after_sides = evaluation.core_fingerprint(folder, pack)
    rubric = next(pack.rglob("why-none-gradients.yaml"))
    rubric.write_text(rubric.read_text() + "\n")
    after_rubric = evaluation.core_fingerprint(folder, pack)
    assert len({before, after_label, after_sides, after_rubric}) == 4


def test_the_shared_reading_is_graded_once_and_again_after_an_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graded: list[int] = []
    real = evaluation.grade_rows

    def counted(*args: object, **kwargs: object) -> object:
        graded.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluation, "grade_rows", counted)
    folder = _folder(tmp_path)
    key = evaluation.core_fingerprint(folder, PACK)
    first = evaluation.cached_core_rules_rows(folder, PACK, key)
    assert evaluation.cached_core_rules_rows(folder, PACK, key) is first and len(graded) == 1
    assert [r.label for r in first] == ["partial", "incorrect"]
    core = evaluation.cached_core_labelled(folder, PACK, key)
    fresh, _ = real(core.pack, core.answers, tag_map=core.tag_map, sides=core.sides)
    assert [(r.verdict, r.named_tags, r.evidence, r.off_topic) for r in first] == [
        (r.verdict, r.named_tags, r.evidence, r.off_topic) for r in fresh
    ]
    label = folder / "p-one.yaml"
    label.write_text(label.read_text().replace("verdict: partial", "verdict: correct"))
    again = evaluation.cached_core_rules_rows(
        folder, PACK, evaluation.core_fingerprint(folder, PACK)
    )
    assert len(graded) == 2 and [r.label for r in again] == ["correct", "incorrect"]


def test_core_labelled_is_what_the_files_say_and_each_caller_gets_its_own_list() -> None:
    core = evaluation.core_labelled()
    fresh, _ = evaluation.load_persona_answers(LABELLED)
    assert core.answers == fresh
    core.answers.clear()
    assert evaluation.core_labelled().answers == fresh


def test_libyaml_reads_a_labelled_file_as_the_pure_loader_does() -> None:
    """Round 25 checked all 136 files of tune personas and meta (docs/freetext-rounds.md);
    this keeps one of each kind."""
    assert hasattr(yaml, "CSafeLoader")  # PyYAML's wheels ship libyaml
    meta, persona = LABELLED / "meta", LABELLED / "personas" / "terse-expert.yaml"
    for path in (
        meta / "sides.yaml",
        meta / "tag-map.yaml",
        persona,
        LABELLED / "no-zero-grad.yaml",
    ):
        text = path.read_text(encoding="utf-8")
        assert safe_yaml(text) == yaml.safe_load(text)


def test_a_stale_artefact_fails_at_once_naming_the_first_line() -> None:
    shipped = "".join(f'"line {i}": {i},\n' for i in range(200_000))
    assert_fresh(shipped, shipped, "retrain it")
    built = shipped.replace('"line 7": 7,', '"line 7": 8,').replace('"line 9": 9,', '"line 9": 0,')
    with pytest.raises(pytest.fail.Exception) as failed:
        assert_fresh(shipped, built, "python -m some.artefact train")
    message = str(failed.value)
    assert "2 of 200000 lines differ" in message and "the first at line 8;" in message
    assert '"line 7"' not in message  # no line quoted: artefacts hold labelled answers
    assert message.endswith("retrain: python -m some.artefact train")
