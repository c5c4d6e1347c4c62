"""Golden files: whole free-text grading results (verdict, score, feedback, details).

A change in wording or scoring shows up here as a diff a reviewer can read. After an
intended change, regenerate with `TAPEQUIZ_UPDATE_GOLDEN=1 pytest
tests/grading/test_freetext_golden.py` and review the diff of the golden folder.
"""

from __future__ import annotations

import dataclasses
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.freetext import grade_freetext
from app.grading.freetext.evaluation import free_text_questions
from app.packs.loader import load_pack
from app.packs.schema import FreeText

GOLDEN = Path(__file__).parent / "freetext_labelled" / "golden"
CORE = REPO_ROOT / "questions" / "gradient-tape"
UPDATE = os.environ.get("TAPEQUIZ_UPDATE_GOLDEN") == "1"


@cache
def questions() -> dict[str, FreeText]:
    loaded = load_pack(CORE)
    assert loaded.pack is not None
    return free_text_questions(loaded.pack)


def graded(question: FreeText, answer: str) -> dict[str, Any]:
    result = dataclasses.asdict(grade_freetext(question, answer))
    result["feedback"] = [f"{f['kind']}: {f['message']}" for f in result["feedback"]]
    result["details"].pop("model_answer")  # the question file already holds it
    return result


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.yaml")), ids=lambda p: p.stem)
def test_grade_freetext_matches_golden_file(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    actual = graded(questions()[case["question"]], case["answer"])
    if UPDATE:
        case["result"] = actual
        path.write_text(yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100))
    assert actual == case["result"]
