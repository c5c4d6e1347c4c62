"""Reference observations per question, computed once by a trusted run and cached.

The reference solution and the pack's known-wrong solutions are trusted code, so they run
together in one worker job (never in the process that runs a candidate). Results are keyed by
everything that can change a number: the solutions' text, the worker's scenario code and the
TensorFlow/Keras versions; they live in memory and, when a data dir is given, on disk.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from app.grading.code.judge import KnownWrong
from app.packs.schema import Code, CodeFix

WORKER_DIR = Path(__file__).resolve().parent.parent / "sandbox" / "worker"

RunJob = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class ReferenceFailed(RuntimeError):
    """The pack's reference solution did not run cleanly: a pack bug, not the candidate's."""


@dataclass(frozen=True)
class Reference:
    run: dict[str, Any]
    known: list[KnownWrong]
    broken: dict[str, Any] | None


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(WORKER_DIR.glob("*.py")):
        digest.update(path.read_bytes())
    for package in ("tensorflow", "tensorflow-cpu", "keras"):
        try:
            digest.update(f"{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            continue
    return digest.hexdigest()


def contract_job(question: Code | CodeFix) -> dict[str, Any]:
    """What the worker needs to know about the contract; a declared one carries its checker."""
    job: dict[str, Any] = {"contract": question.contract}
    if question.checker is not None:
        name = question.function.split("(", 1)[0].strip()
        job["checker"] = {**question.checker.model_dump(), "function": name}
    return job


def tolerance_of(question: Code | CodeFix) -> tuple[float, float] | None:
    checker = question.checker
    return (checker.rtol, checker.atol) if checker is not None else None


def trusted_job(question: Code | CodeFix, graph_seed: int | None = None) -> dict[str, Any]:
    """With `graph_seed`, the "tf.function" scenarios run on the hidden state their replay
    builds (app/grading/code/replays.py); trusted code only, so the seed stays here."""
    sources = [{"name": "reference", "code": question.reference}]
    sources += [{"name": f"wrong:{i}", "code": w.code} for i, w in enumerate(question.wrong)]
    if isinstance(question, CodeFix):
        sources.append({"name": "broken", "code": question.broken})
    job = {**contract_job(question), "sources": sources}
    return job if graph_seed is None else {**job, "graph_seed": graph_seed}


class ReferenceStore:
    def __init__(self, cache_dir: Path | None, graph_seed: int | None = None) -> None:
        self.cache_dir, self.graph_seed = cache_dir, graph_seed
        self._fingerprint = _fingerprint()
        self._memory: dict[str, Reference] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def key(self, question: Code | CodeFix) -> str:
        job = json.dumps(trusted_job(question, self.graph_seed), sort_keys=True)
        return hashlib.sha256((self._fingerprint + job).encode()).hexdigest()[:32]

    async def get(self, question: Code | CodeFix, run_job: RunJob) -> Reference:
        key = self.key(question)
        async with self._locks.setdefault(key, asyncio.Lock()):
            if key not in self._memory:
                result = self._load(key) or await run_job(trusted_job(question, self.graph_seed))
                self._memory[key] = _parse(question, result)
                self._save(key, result)
            return self._memory[key]

    def _load(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            return None

    def _save(self, key: str, result: dict[str, Any]) -> None:
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(result))
        except OSError:
            return  # the memory cache still holds it; disk is only a start-up shortcut

    def _path(self, key: str) -> Path | None:
        return self.cache_dir / f"{key}.json" if self.cache_dir else None


def _error_text(error: Any) -> str:
    """A worker's error report as the author reads it: the message and the lines of the code."""
    if not isinstance(error, dict):
        return str(error)
    lines = ", ".join(str(line) for line in error.get("lines") or [])
    return str(error.get("message", "")) + (f" (line {lines} of the reference)" if lines else "")


def _parse(question: Code | CodeFix, result: dict[str, Any]) -> Reference:
    runs = {run["name"]: run for run in result["runs"]}
    reference = runs["reference"]
    problems = [s["error"] for s in reference["scenarios"] if s["error"]]
    if reference["load_error"] or problems:
        error = _error_text(reference["load_error"] or problems[0])
        raise ReferenceFailed(f"reference solution of {question.id} failed: {error}")
    known = [
        KnownWrong(w.tag, w.label, runs[f"wrong:{i}"])
        for i, w in enumerate(question.wrong)
        if not runs[f"wrong:{i}"]["load_error"]
    ]
    return Reference(reference, known, runs.get("broken"))
