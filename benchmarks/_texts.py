"""Benchmark texts that stay put when the rubric moves, and saved texts a later tree can grade.

Round 40's lead reading found benchmarks/freetext_shuffles.py and freetext_hostile.py drawing
every text from one generator that writing the rubric's phrasings out also used up, so a new
phrasing on one question redrew that question's shuffles and hostile answers: "graded correct
15 -> 17" on shuffles came from redrawn texts, not from the grader (round 41, engineer B3).
Each text is now drawn from its own generator seeded by a stable key (`keyed`), and a round
saves its start's texts and grades them again at its end (`load_records`), reporting verdicts
moved on the same texts apart from those whose text was redrawn (`moved`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path


class TextsFileError(ValueError):
    """A saved-texts file this benchmark cannot read; the message says why, for a person."""


def keyed(*key: object) -> random.Random:
    """A generator of its own for one purpose, seeded by `key` (question id, shape, index...).
    A string seed is hashed with SHA-512, so the draw does not depend on PYTHONHASHSEED."""
    return random.Random(":".join(str(part) for part in key))


def load_records(
    path: str | Path, needs: Sequence[str], questions: Iterable[str]
) -> list[dict[str, object]]:
    """The records a benchmark's `--save` wrote to `path`: a JSON list of objects, each with
    the keys in `needs` (a text among them) and a question this pack has."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise TextsFileError(f"{path}: cannot read it ({e.strerror or e})") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TextsFileError(f"{path}: not a JSON file ({e})") from e
    if not isinstance(data, list) or not data:
        raise TextsFileError(f"{path}: expected a non-empty JSON list of records, as --save writes")
    known = set(questions)
    for n, record in enumerate(data, start=1):
        if not isinstance(record, dict):
            raise TextsFileError(f"{path}: record {n} is not a JSON object")
        missing = [k for k in needs if k not in record]
        if missing:
            raise TextsFileError(
                f"{path}: record {n} lacks {', '.join(missing)} (was it saved by this benchmark?)"
            )
        if not isinstance(record["text"], str):
            raise TextsFileError(f"{path}: record {n}'s text is not a string")
        if record["question"] not in known:
            raise TextsFileError(
                f"{path}: record {n} is for question {record['question']!r}, not in the core pack"
            )
    return data


def moved(
    saved: list[dict[str, object]],
    records: list[dict[str, object]],
    key: Sequence[str],
    reading: str,
) -> tuple[dict[str, list[dict[str, object]]], int]:
    """The records whose `reading` moved from the saved one, split by whether the text is the
    saved one ("same text": the grader moved) or another ("redrawn": the draw moved), and how
    many records were redrawn at all."""
    before = {tuple(r[k] for k in key): r for r in saved}
    out: dict[str, list[dict[str, object]]] = {"same text": [], "redrawn": []}
    redrawn = 0
    for r in records:
        old = before.get(tuple(r[k] for k in key))
        if old is None:
            continue
        same = old["text"] == r["text"]
        redrawn += not same
        if reading in r and reading in old and old[reading] != r[reading]:
            out["same text" if same else "redrawn"].append(old | {"now": r[reading]})
    return out, redrawn
