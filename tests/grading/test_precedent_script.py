"""scripts/labelling/precedent.py: a tag's verdicts where it stands alone are counted apart for
answers both labellers agreed on and answers the lead decided (round 29: a precedent made of
the lead's own decisions fed on itself)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.grading.benchmark_scripts import load_script


def _script():  # type: ignore[no-untyped-def]
    return load_script("scripts/labelling/precedent.py", "precedent")


def _persona(folder: Path, name: str, answers: list[dict]) -> None:
    (folder / "personas" / f"{name}.yaml").write_text(
        yaml.safe_dump({"persona": name, "answers": answers})
    )


def test_agreed_decided_and_beside_others_are_counted_apart(tmp_path: Path) -> None:
    (tmp_path / "personas").mkdir()
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "sides.yaml").write_text("tune: [a]\n")
    t = "big-models-gain-most"
    _persona(
        tmp_path,
        "a",
        [
            {"verdict": "partial", "misconceptions": [t], "note": "L1: x | L2: y"},
            {"verdict": "incorrect", "misconceptions": [t], "note": "lead: by precedent"},
            {"verdict": "incorrect", "misconceptions": [t, "other"], "note": "L1: x"},
            {"verdict": "correct", "misconceptions": [], "note": "L1: x"},
        ],
    )
    _persona(tmp_path, "held", [{"verdict": "incorrect", "misconceptions": [t]}])
    script = _script()
    p = script.precedents(script.tune_entries(tmp_path), [t])[t]
    assert dict(p.alone_agreed) == {"partial": 1}
    assert dict(p.alone_decided) == {"incorrect": 1}
    assert dict(p.beside_others) == {"incorrect": 1}
