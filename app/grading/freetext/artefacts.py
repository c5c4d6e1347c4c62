"""Trained artefacts shipped beside the grader (second_opinion.json, neighbours.json,
tell_caps.json).

All are read the same way - a missing or unreadable file means "no artefact", never an
error in a web request - and all are written by the same `train [--check]` command, so
the reading, the writing and the command live here once, with nothing heavy imported.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.budget import uncounted


def read_artefact(path: Path) -> dict[str, Any]:
    """The artefact's JSON object, or {} when the file is missing, unreadable or not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=8)
@uncounted()
def artefact_questions(path: Path) -> dict[str, Any]:
    """The artefact's per-question table (its "questions" object), read once per process;
    {} when there is none."""
    questions = read_artefact(path).get("questions")
    return questions if isinstance(questions, dict) else {}


def dump_artefact(artefact: dict[str, Any]) -> str:
    """The artefact as written: sorted keys, one level per line, so a retrain diffs."""
    return json.dumps(artefact, sort_keys=True, indent=1) + "\n"


def artefact_main(argv: list[str], module: str, artefact: Path, build: Callable[[], str]) -> int:
    """`python -m MODULE train [--check]`: write the trained artefact, or check it is the
    one a fresh training writes (exit 1 if not)."""
    if argv[:1] != ["train"]:
        print(f"usage: python -m {module} train [--check]")
        return 2
    text = build()
    if "--check" in argv:
        same = artefact.is_file() and artefact.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{artefact} is out of date: retrain")
        return 0 if same else 1
    artefact.write_text(text, encoding="utf-8")
    print(f"wrote {artefact}")
    return 0
