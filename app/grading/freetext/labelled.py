"""Read labelled free-text answers (a pack author's calibration data) from disk.

Authors label answers the way they would grade them, in YAML or JSON Lines, one file per
question or one file for the pack. Each answer carries the question id, the expected
verdict, the expected misconception tags and, optionally, a split (`dev` answers may be
used to tune a rubric, `holdout` answers never are) and a free-form `style` note.
Reading collects every problem with its file instead of stopping at the first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

VERDICTS = ("correct", "partial", "incorrect")
SUFFIXES = (".yaml", ".yml", ".jsonl")


@dataclass(frozen=True)
class LabelledAnswer:
    question_id: str
    answer: str
    verdict: str
    misconceptions: tuple[str, ...]
    split: str  # dev | holdout | sample (from the question file) | any author-chosen name
    style: str  # what kind of answer this is (terse-expert, negation-trap, ...)
    source: str = ""  # file and position, for messages
    persona: str = ""  # the writer persona of the file it came from (blind-labelled sets)


def _entry(raw: Any, question_id: str | None, source: str) -> LabelledAnswer | str:
    if not isinstance(raw, dict):
        return f"{source}: expected a mapping with answer and verdict"
    qid = raw.get("question", question_id)
    answer, verdict = raw.get("answer"), raw.get("verdict")
    tags = raw.get("misconceptions") or []
    if not isinstance(qid, str) or not qid:
        return f"{source}: missing question id"
    if not isinstance(answer, str):
        return f"{source}: answer must be a string"
    if verdict not in VERDICTS:
        return f"{source}: verdict must be one of {', '.join(VERDICTS)}"
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return f"{source}: misconceptions must be a list of tags"
    persona = str(raw.get("persona") or "")
    split = str(raw.get("split", persona or "dev"))
    style = str(raw.get("style", persona))
    return LabelledAnswer(qid, answer, verdict, tuple(tags), split, style, source, persona)


def safe_yaml(text: str) -> Any:
    """yaml.safe_load with libyaml's parser where PyYAML was built with it: the same safe
    constructor, so the same values, ~10x faster on the ~4 MB of labelled answers each artefact
    build and benchmark reads (round 25: the pure-Python parser took ~30 s of each)."""
    if hasattr(yaml, "CSafeLoader"):
        return yaml.load(text, Loader=yaml.CSafeLoader)
    return yaml.safe_load(text)


def _yaml_entries(path: Path) -> list[tuple[Any, str | None, str]]:
    data = safe_yaml(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("answers"), list):
        qid, persona = data.get("question"), data.get("persona")
        return [
            (_with_persona(raw, persona), qid, f"{path}: answers[{i}]")
            for i, raw in enumerate(data["answers"])
        ]
    if isinstance(data, list):
        return [(raw, None, f"{path}: [{i}]") for i, raw in enumerate(data)]
    return [(None, None, f"{path}: expected a list of answers or {{question, answers}}")]


def _with_persona(raw: Any, persona: Any) -> Any:
    """A persona file (`persona: NAME` at the top) gives each of its answers that persona."""
    if persona and isinstance(raw, dict) and "persona" not in raw:
        return {**raw, "persona": str(persona)}
    return raw


def _jsonl_entries(path: Path) -> list[tuple[Any, str | None, str]]:
    entries: list[tuple[Any, str | None, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                entries.append((json.loads(line), None, f"{path}:{number}"))
            except json.JSONDecodeError as exc:
                entries.append((None, None, f"{path}:{number}: invalid JSON ({exc.msg})"))
    return entries


def _read_file(path: Path) -> tuple[list[LabelledAnswer], list[str]]:
    try:
        entries = _jsonl_entries(path) if path.suffix == ".jsonl" else _yaml_entries(path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return [], [f"{path}: cannot read ({exc})"]
    labels: list[LabelledAnswer] = []
    problems: list[str] = []
    for raw, qid, source in entries:
        item = _entry(raw, qid, source) if raw is not None else source
        if isinstance(item, str):
            problems.append(item)
        else:
            labels.append(item)
    return labels, problems


def load_labelled(path: Path) -> tuple[list[LabelledAnswer], list[str]]:
    """Labelled answers from a file or a folder of files, and the problems found."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in SUFFIXES)
    elif path.is_file():
        files = [path]
    else:
        return [], [f"{path}: no such file or folder"]
    labels: list[LabelledAnswer] = []
    problems: list[str] = []
    for file in files:
        found, issues = _read_file(file)
        labels += found
        problems += issues
    return labels, problems
